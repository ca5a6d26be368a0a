#!/usr/bin/env python3
"""A real browser signs in through the hosted handler: headless Chromium loads a page on another origin
(http://localhost, an authorized domain) that sends the browser to `flint serve`'s /__/auth/handler with
authType=signInViaRedirect, a redirectUrl back to itself and the SHA-256 of a session ID it keeps; Flint sends the
browser to a stand-in OpenID Connect provider on loopback (scripts/standin_provider.py: discovery, keys, an authorization endpoint
where the user signs in at once, a token endpoint checking the PKCE verifier), which sends it back to the handler,
which sends it back to the page with the link. The page calls signInWithIdp with the link and its session ID, twice
(the second time it signs in again from the start) and shows what it read. The test asserts a new account, then the
same account, and saves a screenshot.

Usage: redirect-browser-test.py --flint .build/debug/flint [--screenshot shot.png]
"""
import json
import sys
import urllib.request

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from headless import BrowserRun, free_port
from standin_provider import stand_in_provider


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Flint hosted handler test</title>
<style> body { font: 14px system-ui, sans-serif; margin: 24px; } code { word-break: break-all; } </style></head>
<body>
<h1>Sign in with Corp, through Flint's hosted handler</h1>
<p>This page: <code id="self"></code> &mdash; Flint: <code id="flint"></code></p>
<ol id="rows"></ol>
<pre id="result"></pre>
<script>
const flint = "__FLINT__";
document.getElementById("self").textContent = location.origin;
document.getElementById("flint").textContent = flint;
const rounds = JSON.parse(sessionStorage.getItem("rounds") || "[]");
function show() {
  document.getElementById("rows").innerHTML = rounds.map(r =>
    "<li>" + (r.error ? "error: " + r.error : "localId " + r.localId + ", " + r.email + ", isNewUser " + r.isNewUser) + "</li>").join("");
}
async function hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest)).map(b => b.toString(16).padStart(2, "0")).join("");
}
async function start() {
  const session = crypto.randomUUID();
  sessionStorage.setItem("session", session);
  const query = new URLSearchParams({ apiKey: "browser-test", authType: "signInViaRedirect", providerId: "oidc.corp",
    redirectUrl: location.origin + "/", eventId: "round" + rounds.length, sessionId: await hex(session) });
  location.href = flint + "/__/auth/handler?" + query;
}
async function finish(link) {
  const response = await fetch(flint + "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=browser-test", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ requestUri: link, sessionId: sessionStorage.getItem("session"), postBody: "providerId=oidc.corp",
                           returnSecureToken: true, returnIdpCredential: true }) });
  const json = await response.json();
  rounds.push(json.error ? { error: json.error.message } : { localId: json.localId, email: json.email, isNewUser: json.isNewUser });
  sessionStorage.setItem("rounds", JSON.stringify(rounds));
  history.replaceState(null, "", "/");
}
(async () => {
  const back = new URLSearchParams(location.search);
  if (back.get("link")) await finish(back.get("link"));
  else if (back.get("firebaseError")) rounds.push({ error: back.get("firebaseError") });
  show();
  if (rounds.length < 2 && !rounds.some(r => r.error)) return start();
  document.getElementById("result").textContent = JSON.stringify(rounds);
})();
</script>
</body></html>
"""


def admin(flint, method, path, body):
    request = urllib.request.Request(flint + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    urllib.request.urlopen(request, timeout=10).read()


def main():
    with BrowserRun("redirect browser test", "flint-redirect-browser-") as run:
        args, flint, page_port = run.args, run.flint_url, free_port()
        provider, issuer = stand_in_provider(free_port())
        run.servers.append(provider)
        run.serve_page(PAGE.replace("__FLINT__", flint).encode(), page_port)
        admin(flint, "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
              {"enabled": True, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": issuer, "displayName": "Corp"})
        driver = run.browser("900,600")
        driver.get(f"http://localhost:{page_port}/")
        # The page navigates away and back four times: an element read mid-navigation is stale or missing.
        WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d: d.find_element("id", "result").text != "")
        rounds = json.loads(driver.find_element("id", "result").text)
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        failures = []
        if len(rounds) != 2 or any("error" in r for r in rounds):
            failures.append(f"two sign-ins expected, the page read {rounds}")
        else:
            if rounds[0].get("isNewUser") is not True or rounds[0].get("email") != "ada@corp.example":
                failures.append(f"the first sign-in should make a new account: {rounds[0]}")
            if rounds[1].get("isNewUser") is not False or rounds[1].get("localId") != rounds[0].get("localId"):
                failures.append(f"the second sign-in should find the same account: {rounds[1]}")
        for failure in failures:
            print("FAIL:", failure)
        if failures:
            sys.exit(1)
        print("redirect browser test: a new account through the hosted handler, then the same account again")


if __name__ == "__main__":
    main()

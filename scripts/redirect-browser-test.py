#!/usr/bin/env python3
"""A real browser signs in through the hosted handler: headless Chromium loads a page on another origin
(http://localhost, an authorized domain) that sends the browser to `flint serve`'s /__/auth/handler with
authType=signInViaRedirect, a redirectUrl back to itself and the SHA-256 of a session ID it keeps; Flint sends the
browser to a stand-in OpenID Connect provider on loopback (this script: discovery, keys, an authorization endpoint
where the user signs in at once, a token endpoint checking the PKCE verifier), which sends it back to the handler,
which sends it back to the page with the link. The page calls signInWithIdp with the link and its session ID, twice
(the second time it signs in again from the start) and shows what it read. The test asserts a new account, then the
same account, and saves a screenshot.

Usage: redirect-browser-test.py --flint .build/debug/flint [--screenshot shot.png]
"""
import base64
import hashlib
import http.server
import json
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from headless import BrowserRun, free_port


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def stand_in_provider(port):
    """The stand-in OpenID Connect provider on 127.0.0.1:`port`, in a background thread."""
    issuer = f"http://127.0.0.1:{port}"
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig",
           "n": b64url(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")), "e": b64url(numbers.e.to_bytes(3, "big"))}
    codes = {}

    def sign(claims):
        header = b64url(json.dumps({"alg": "RS256", "kid": "k1", "typ": "JWT"}).encode())
        payload = b64url(json.dumps(claims).encode())
        signature = key.sign(f"{header}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{header}.{payload}.{b64url(signature)}"

    class Provider(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body=None, location=None):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/.well-known/openid-configuration":
                self.answer(200, {"issuer": issuer, "jwks_uri": issuer + "/keys", "authorization_endpoint": issuer + "/authorize",
                                  "token_endpoint": issuer + "/token"})
            elif url.path == "/keys":
                self.answer(200, {"keys": [jwk]})
            elif url.path == "/authorize":
                code = "code-" + uuid.uuid4().hex
                codes[code] = query
                back = urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
                self.answer(302, location=query.get("redirect_uri", "") + "?" + back)
            else:
                self.answer(404, {"error": "not_found"})

        def do_POST(self):
            form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()))
            started = codes.pop(form.get("code", ""), None)
            challenge = b64url(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
            if not started or started.get("redirect_uri") != form.get("redirect_uri") or started.get("code_challenge") != challenge:
                return self.answer(400, {"error": "invalid_grant"})
            now = int(time.time())
            token = sign({"iss": issuer, "aud": started["client_id"], "sub": "browser-user-1", "email": "ada@corp.example",
                          "email_verified": True, "name": "Ada", "iat": now, "exp": now + 300, "nonce": started.get("nonce")})
            self.answer(200, {"id_token": token, "access_token": "stand-in-access", "token_type": "Bearer"})

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, issuer


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

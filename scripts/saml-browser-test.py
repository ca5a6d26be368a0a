#!/usr/bin/env python3
"""The Firebase JS SDK's popup sign-in with a SAML provider against `flint serve --dev`, in headless Chromium, with
pysaml2's IdP (scripts/saml_idp.py) wanting signed AuthnRequests.

The SDK is the real one: firebase 11.3.1 as PyPI's streamlit-firebase-auth 1.1.6 wheel builds it
(streamlit_firebase_auth/frontend/build/static/js/main.*.js, its path in FLINT_JS_SDK_BUNDLE), a Streamlit
component whose app calls getAuth() and, on its "Login with Google" button, signInWithPopup(auth, new
GoogleAuthProvider()). The build is tree-shaken to what that app uses: it has no SAMLAuthProvider, and neither
OAuthProvider nor signInWithRedirect can be reached from a page (nothing is exported). The test therefore serves the
bundle with one change, GoogleAuthProvider's constructor taking its provider ID from `window.__FLINT_PROVIDER_ID__`
(`saml.pysaml2`): everything after it — FederatedAuthProvider, the popup operation, the emulator handler and iframe,
the auth event, signInWithIdp, the user — is the SDK's own code, as SAMLAuthProvider("saml.pysaml2") drives it.

The page sets `window.__FIREBASE_DEFAULTS__ = {emulatorHosts: {auth: "127.0.0.1:PORT"}}` before the bundle loads, so
getAuth() talks to Flint as to the emulator, and includes Flint's gapi stand-in (/__/auth/gapi.js); it plays the
Streamlit host (the component's render message, its value posted back). The popup: Flint's start page, the IdP
(which checks the AuthnRequest's HTTP-Redirect signature with the provider's SP certificate), the IdP's form posted
to Flint's handler, the hand-over to the SDK's iframe. The user must be signed in with providerId saml.pysaml2.

Usage: FLINT_JS_SDK_BUNDLE=…/main.274d6bab.js saml-browser-test.py --flint .build/debug/flint [--screenshot page.png]
"""
import base64
import http.server
import json
import os
import sys
import threading
import urllib.request

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from headless import BrowserRun, free_port
from saml_idp import IDP_ENTITY_ID, SP_ENTITY_ID, USER, IdP

PROVIDER = "saml.pysaml2"
# GoogleAuthProvider's constructor in the minified build, and the same taking the provider ID from the page.
GOOGLE_CONSTRUCTOR = 'super("google.com"),this.addScope("profile")'
HOOKED_CONSTRUCTOR = 'super(window.__FLINT_PROVIDER_ID__||"google.com"),this.addScope("profile")'

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>SAML sign-in with the Firebase JS SDK</title>
<script>
window.__FIREBASE_DEFAULTS__ = {emulatorHosts: {auth: "__HOST__"}};
window.__FLINT_PROVIDER_ID__ = "__PROVIDER__";
// The Streamlit host's part: render the component's login form, keep the value it posts back.
window.addEventListener("message", (event) => {
  const data = event.data || {};
  if (!data.isStreamlitMessage) return;
  if (data.type === "streamlit:componentReady") {
    window.postMessage({type: "streamlit:render", dfs: [], args: {name: "LoginForm", lang: "en", providers: ["google"],
      firebase_config: {apiKey: "test-api-key", authDomain: "__HOST__", projectId: "demo-flint", appId: "1:1:web:1"}}}, "*");
  } else if (data.type === "streamlit:setComponentValue") {
    document.getElementById("result").textContent = JSON.stringify(data.value);
  }
});
</script>
<script src="http://__HOST__/__/auth/gapi.js"></script>
<script defer src="/sdk.js"></script>
</head><body><div id="root"></div><pre id="result"></pre></body></html>
"""


def admin(flint, method, path, body=None):
    request = urllib.request.Request(flint + path, data=None if body is None else json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def serve_app(port, page, bundle):
    """The app on 127.0.0.1:`port`: `/sdk.js` the bundle, anything else the page."""
    class App(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body, kind = (bundle, "text/javascript") if self.path.startswith("/sdk.js") else (page, "text/html")
            self.send_response(200)
            self.send_header("Content-Type", kind + "; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), App)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def main():
    bundle_path = os.environ.get("FLINT_JS_SDK_BUNDLE", "")
    if not os.path.isfile(bundle_path):
        sys.exit("saml browser test: FLINT_JS_SDK_BUNDLE must name the SDK build (scripts/saml-browser-test fetches it)")
    source = open(bundle_path, encoding="utf-8").read()
    if source.count(GOOGLE_CONSTRUCTOR) != 1:
        sys.exit(f"saml browser test: {bundle_path} is not the expected build (GoogleAuthProvider's constructor not found once)")
    bundle = source.replace(GOOGLE_CONSTRUCTOR, HOOKED_CONSTRUCTOR).encode()

    with BrowserRun("saml browser test", "flint-saml-browser-") as run:
        flint = run.flint_url
        host = flint.removeprefix("http://")
        acs = flint + "/__/auth/handler"
        idp = IdP(run.work, acs)
        try:
            admin(flint, "PATCH", "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=authorizedDomains",
                  {"authorizedDomains": ["localhost", "127.0.0.1"]})
            created = admin(flint, "POST", f"/identitytoolkit.googleapis.com/v2/projects/demo-flint/inboundSamlConfigs?inboundSamlConfigId={PROVIDER}", {
                "enabled": True, "displayName": "pysaml2",
                "idpConfig": {"idpEntityId": IDP_ENTITY_ID, "ssoUrl": idp.sso, "idpCertificates": [{"x509Certificate": idp.certificate_pem}],
                              "signRequest": True},
                "spConfig": {"spEntityId": SP_ENTITY_ID, "callbackUri": acs},
            })
            # The operator gives the IdP the provider's SP certificate; the IdP then wants signed requests.
            idp.configure(created["spConfig"]["spCertificates"][0]["x509Certificate"])
            app_port = free_port()
            page = PAGE.replace("__HOST__", host).replace("__PROVIDER__", PROVIDER).encode()
            run.servers.append(serve_app(app_port, page, bundle))

            driver = run.browser("900,820", flags=("--disable-popup-blocking",))
            driver.get(f"http://127.0.0.1:{app_port}/")
            wait = WebDriverWait(driver, 40, ignored_exceptions=(WebDriverException,))
            button = "//button[contains(., 'Login with Google')]"
            wait.until(lambda d: d.find_element("xpath", button).is_enabled())
            driver.find_element("xpath", button).click()
            wait.until(lambda d: d.find_element("id", "result").text != "")
            if run.args.screenshot:
                driver.save_screenshot(run.args.screenshot)
            result = json.loads(driver.find_element("id", "result").text)
        finally:
            idp.stop()

    failures = []

    def check(name, condition, detail):
        print("ok:  " if condition else "FAIL:", name, "" if condition else json.dumps(detail)[:2000])
        if not condition:
            failures.append(name)

    user = result.get("user") or {}
    check("signInWithPopup resolves with a user", result.get("success") is True and user.get("uid"), result)
    providers = [entry.get("providerId") for entry in user.get("providerData", [])]
    check("the user's provider is saml.pysaml2", providers == [PROVIDER] and user.get("email") == USER, user)
    token = (user.get("stsTokenManager") or {}).get("accessToken", "")
    claims = claims_of(token) if token.count(".") == 2 else {}
    firebase = claims.get("firebase", {})
    check("the ID token's sign-in provider is saml.pysaml2, with the assertion's attributes",
          firebase.get("sign_in_provider") == PROVIDER and firebase.get("sign_in_attributes", {}).get("groups") == ["engines", "poets"],
          claims)
    check("the IdP received one AuthnRequest, signed (it wants them signed) and checked", len(idp.requests) == 1, len(idp.requests))
    if failures:
        sys.exit(f"saml browser test: {len(failures)} failed")
    print("saml browser test: all checks passed")


if __name__ == "__main__":
    main()

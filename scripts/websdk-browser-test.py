#!/usr/bin/env python3
"""The Firebase JS SDK's signInWithPopup, signInWithRedirect and getRedirectResult against `flint serve`, in headless
Chromium. The JS SDK and gapi cannot be installed here, so the app page (scripts/websdk/app.html) does what the SDK's
popup/redirect resolver does against an emulator URL, and gapi's loader is a stand-in (scripts/websdk/api.js) served
over TLS *as* https://apis.google.com/js/api.js (Chromium's --host-resolver-rules, --ignore-certificate-errors), so
Flint's iframe page loads it unchanged, from the address it uses in production. Providers: the stand-in OpenID
Connect provider of scripts/standin_provider.py.

Flint is http://127.0.0.1:<port> (its public URL); the authorized domains are localhost and 127.0.0.1. Cases:
- popup, cross-site (the app on http://localhost:<port>): a new account, the event relayed by Flint's iframe,
  webStorageSupport answered;
- popup-error: the provider refuses (access_denied): the SDK gets auth/user-cancelled;
- popup-refused: a provider the project does not have: the SDK gets auth/operation-not-allowed;
- redirect, same-site (the app on http://127.0.0.1:<another port>): getRedirectResult signs in to the same account;
- redirect-error: the provider refuses: getRedirectResult gets auth/user-cancelled;
- no-event: a pending redirect whose event never came: Flint's iframe says auth/no-auth-event, the result is null;
- forged: the app page itself posts a hand-over message to Flint's iframe: ignored (another origin);
- popup and redirect again with Flint's gapi stand-in (/__/auth/gapi.js) included by the app: nothing is loaded from
  apis.google.com;
- outsider (a page on http://outsider.test, not an authorized domain): Chromium refuses to frame Flint's iframe
  (frame-ancestors), so the SDK's ping times out: auth/network-request-failed;
- a start opened at another address of Flint than its public URL stops with a message (the session would be lost);
- redirect-cross-site (the app on http://localhost): the documented limit, the handler's event stays in Flint's
  first-party storage and the iframe under the app's site does not see it: getRedirectResult is null.

Usage: websdk-browser-test.py --flint .build/debug/flint [--screenshot prefix.png]  (saves prefix-popup.png,
prefix-redirect.png, prefix-wrong-origin.png: Flint's start page refusing to go on)
"""
import datetime
import http.server
import json
import os
import ssl
import sys
import threading
import urllib.parse
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from headless import BrowserRun, free_port
from standin_provider import stand_in_provider

HERE = os.path.dirname(os.path.abspath(__file__))


def tls_files(work):
    """A self-signed certificate for apis.google.com and its key, written to `work`; their paths."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "apis.google.com")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName("apis.google.com")]), critical=False)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = os.path.join(work, "gapi.crt"), os.path.join(work, "gapi.key")
    with open(cert_path, "wb") as f:
        f.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


def serve_gapi(port, work):
    """The stand-in gapi loader over TLS on 127.0.0.1:`port` (every path answers api.js); returns the server, whose
    `hits` counts the requests."""
    script = open(os.path.join(HERE, "websdk", "api.js"), "rb").read()

    class Gapi(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.server.hits += 1
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript; charset=utf-8")
            self.send_header("Content-Length", str(len(script)))
            self.end_headers()
            self.wfile.write(script)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Gapi)
    server.hits = 0
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*tls_files(work))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def admin(flint, method, path, body):
    request = urllib.request.Request(flint + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    urllib.request.urlopen(request, timeout=10).read()


def run_case(driver, url, click=False, seconds=40):
    """Opens `url` in a new tab (a fresh sessionStorage), clicks the popup button when `click`, and answers the JSON the
    page reports."""
    driver.switch_to.new_window("tab")
    driver.get(url)
    wait = WebDriverWait(driver, seconds, ignored_exceptions=(WebDriverException,))
    if click:
        wait.until(lambda d: d.find_element("id", "popup").is_enabled())
        driver.find_element("id", "popup").click()
    # A redirect navigates away and back: an element read mid-navigation is stale or missing.
    wait.until(lambda d: d.find_element("id", "result").text != "")
    return json.loads(driver.find_element("id", "result").text)


def main():
    with BrowserRun("websdk browser test", "flint-websdk-browser-") as run:
        args, flint = run.args, run.flint_url
        provider, issuer = stand_in_provider(free_port())
        run.servers.append(provider)
        gapi_port, app_port = free_port(), free_port()
        google = serve_gapi(gapi_port, run.work)
        run.servers.append(google)
        page = open(os.path.join(HERE, "websdk", "app.html")).read().replace("__FLINT__", flint)
        run.serve_page(page.encode(), app_port)
        admin(flint, "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/oauthIdpConfigs?oauthIdpConfigId=oidc.corp",
              {"enabled": True, "clientId": "corp-client", "clientSecret": "corp-secret", "issuer": issuer, "displayName": "Corp"})
        admin(flint, "PATCH", "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=authorizedDomains",
              {"authorizedDomains": ["localhost", "127.0.0.1"]})
        driver = run.browser("900,820", flags=(
            f"--host-resolver-rules=MAP apis.google.com 127.0.0.1:{gapi_port}, MAP outsider.test 127.0.0.1",
            "--ignore-certificate-errors", "--disable-popup-blocking"))
        shot = args.screenshot[:-4] if args.screenshot and args.screenshot.endswith(".png") else args.screenshot
        cross_site, same_site = f"http://localhost:{app_port}/", f"http://127.0.0.1:{app_port}/"
        failures = []

        def check(name, condition, result):
            print("ok:  " if condition else "FAIL:", name, json.dumps(result))
            if not condition:
                failures.append(name)

        popup = run_case(driver, cross_site + "?case=popup", click=True)
        if shot:
            driver.save_screenshot(f"{shot}-popup.png")
        user = popup.get("user") or {}
        check("popup sign-in (cross-site)", user.get("isNewUser") is True and user.get("email") == "ada@corp.example"
              and user.get("idToken") and popup.get("eventIdMatches") is True
              and popup.get("webStorage") == {"status": "ACK", "webStorageSupport": True}
              and popup.get("event", {}).get("sessionId") is True and popup.get("event", {}).get("postBody") is None, popup)
        first = user.get("localId")

        result = run_case(driver, cross_site + "?case=popup-error", click=True)
        check("popup, the provider refuses", result.get("error") == "auth/user-cancelled", result)
        result = run_case(driver, cross_site + "?case=popup-refused", click=True)
        check("popup, a provider the project does not have", result.get("error") == "auth/operation-not-allowed", result)

        redirect = run_case(driver, same_site + "?case=redirect")
        if shot:
            driver.save_screenshot(f"{shot}-redirect.png")
        user = redirect.get("user") or {}
        check("redirect sign-in (same-site)", user.get("isNewUser") is False and user.get("localId") == first
              and redirect.get("event", {}).get("type") == "signInViaRedirect" and redirect.get("event", {}).get("eventId") is None
              and redirect.get("received") == ["signInViaRedirect"], redirect)
        result = run_case(driver, same_site + "?case=redirect-error")
        check("redirect, the provider refuses", result.get("error") == "auth/user-cancelled", result)
        result = run_case(driver, same_site + "?case=no-event")
        check("getRedirectResult without an event", result.get("result") is None and result.get("why") == "auth/no-auth-event"
              and result.get("received") == ["unknown auth/no-auth-event"], result)

        result = run_case(driver, cross_site + "?case=forged")
        check("the iframe ignores a hand-over message from another origin", result.get("received") == ["unknown auth/no-auth-event"], result)
        result = run_case(driver, f"http://outsider.test:{app_port}/?case=outsider")
        check("a page outside the authorized domains cannot frame the iframe", result.get("error") == "auth/network-request-failed"
              and result.get("gapiLoaded") is True and result.get("frames") == 1, result)
        # The documented limit: a redirect from a page cross-site with Flint loses its event to the browser's storage
        # partitioning (Flint's iframe under the app's site does not see what the handler, first-party, stored).
        result = run_case(driver, cross_site + "?case=redirect-cross-site")
        check("a redirect cross-site with Flint: the event is partitioned away, the result null (the documented limit)",
              result.get("result") is None and result.get("why") == "auth/no-auth-event", result)
        # An air-gapped site: the app includes Flint's gapi stand-in (/__/auth/gapi.js), so the SDK and Flint's iframe load
        # nothing from apis.google.com.
        hits = google.hits
        result = run_case(driver, cross_site + "?case=popup&gapi=flint", click=True)
        check("popup with Flint's gapi (cross-site)", (result.get("user") or {}).get("localId") == first
              and result.get("webStorage") == {"status": "ACK", "webStorageSupport": True}, result)
        result = run_case(driver, same_site + "?case=redirect&gapi=flint")
        check("redirect with Flint's gapi (same-site)", (result.get("user") or {}).get("localId") == first, result)
        check("with Flint's gapi nothing was loaded from apis.google.com", google.hits == hits and hits > 0,
              {"before": hits, "after": google.hits})

        # The SDK given another address of Flint than its public URL: the start page stops and says so.
        elsewhere = flint.replace("127.0.0.1", "localhost") + "/emulator/auth/handler?" + urllib.parse.urlencode({
            "apiKey": "k", "appName": "[DEFAULT]", "authType": "signInViaRedirect", "redirectUrl": same_site, "v": "x",
            "providerId": "oidc.corp"})
        driver.switch_to.new_window("tab")
        driver.get(elsewhere)
        status = WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,)).until(
            lambda d: "public URL" in d.find_element("id", "flint-status").text and d.find_element("id", "flint-status").text)
        if shot:
            driver.save_screenshot(f"{shot}-wrong-origin.png")
        check("a start opened at another address than the public URL stops with a message", flint in status
              and driver.current_url.startswith(flint.replace("127.0.0.1", "localhost")), {"status": status})
        policy = urllib.request.urlopen(flint + "/emulator/auth/iframe?apiKey=k&appName=a", timeout=10).headers["Content-Security-Policy"]
        check("the iframe's frame-ancestors", "frame-ancestors http://localhost:* https://localhost:* http://127.0.0.1:* https://127.0.0.1:*;"
              in policy, {"policy": policy})

        if failures:
            sys.exit(f"websdk browser test: {len(failures)} case(s) failed: {', '.join(failures)}")
        print("websdk browser test: popup (cross-site) and redirect (same-site) sign-ins through Flint's iframe, with a stand-in of "
              "Google's gapi and with Flint's; error events, no-auth-event, forged messages ignored, the iframe refused to an outside page")


if __name__ == "__main__":
    main()

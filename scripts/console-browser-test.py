#!/usr/bin/env python3
"""The web console in a real browser: headless Chromium drives /console of a running `flint serve` (dev mode).

An operator added with `flint admin operators add` opens its setup link, chooses a password and enrolls TOTP (the code
is computed here from the secret the page shows), signs in with password + TOTP, reads the dashboard after sign-ins,
wrong codes, emails and a refused text made through the API (24 hours, 30 days and a year, the year's CSV download,
today's SMS by country against the daily budget), imports 3,002 users from a file (two refused) on the import page,
followed by its script to the report of refused rows, downloads the users' export, filters the deliveries by channel
and recipient, finds the usable codes and links on the dev outbox page, finds a user by phone number written
in another format (the users list: sorted by its Created head, filtered by provider and state, two accounts
disabled at once behind one confirmation, a user added with email and password), replaces their custom claims (the next ID token carries them), disables them (their refresh then
fails with USER_DISABLED), reads the audit entries of the sign-in and both actions on the Security page, rotates
the signing key, and on the settings page adds a fictional test number (a sign-in with it then works), turns on
anonymous sign-in (an anonymous sign-up then works), and adds an authorized domain after an invalid one is refused
beside its field (the public project config then lists it) and the app links (then served in the AASA and assetlinks
files), dry-runs a stand-in blocking function against the sign-ins above (its refusals and changes reported, nothing
applied), then saves it (a refused sign-in follows) and clears it, and on the templates page edits the French sign-in email's
subject (the live preview follows the typing) and saves it, then sees an SMS text without {code} refused beside its
field. On the settings page it adds an OpenID Connect provider with its form (an issuer that is no URL refused beside
its field, the secret never sent back), test-signs in with it, sets its second factor, saves the session lifetimes
with the keyboard (an idle timeout under an hour refused first), enforces a password policy, turns email
enumeration protection on, refuses texts to a region and saves an SMS budget (each refusal beside its field, each
effect checked through the API, each put back), and adds a SAML provider with a PEM certificate (a
text that is none refused first), whose page shows what to give the identity provider, then deletes it after a
confirmation. On the tenants page it creates a tenant, picks it with the header's picker, adds a user in it and sees
that the project's users list lacks that user; from the tenant's page it adds an OpenID Connect provider to the
tenant, which the project's providers lack. A screenshot of every page is saved in the screenshots folder.

Usage: console-browser-test.py --flint .build/debug/flint --screenshots docs/console
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import Select, WebDriverWait

from selenium.webdriver.common.action_chains import ActionChains

from headless import chromium_paths, flint_env, free_port, headless_chromium, start_flint, stop_flint, wait_ready
from standin_provider import stand_in_provider

EMAIL = "ops@example.com"
PASSWORD = "console browser test password"
PHONE = "+16505550199"
PROJECT = "demo-flint"
FINGERPRINT = ":".join("%02X" % (i * 7 % 256) for i in range(32))


def totp(secret, at=None):
    """RFC 6238: 6 digits, 30-second steps, HMAC-SHA1, from the base32 secret the setup page shows."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    counter = int((at if at is not None else time.time()) // 30)
    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def next_step():
    """Waits for the next TOTP step, so a code is never one already spent."""
    time.sleep(30 - time.time() % 30 + 1)


def call(base, path, body=None):
    """A JSON call to Flint's API; answers (status, JSON)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


V1 = "/identitytoolkit.googleapis.com/v1"


def sign_in_user(base, phone=PHONE):
    """A phone user signed in through the API (dev mode: the code is read from the emulator's list)."""
    _, sent = call(base, V1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": phone, "recaptchaToken": "dev"})
    _, codes = call(base, f"/emulator/v1/projects/{PROJECT}/verificationCodes")
    code = [c["code"] for c in codes["verificationCodes"] if c["phoneNumber"] == phone][-1]
    status, signed = call(base, V1 + "/accounts:signInWithPhoneNumber?key=console-test", {"sessionInfo": sent["sessionInfo"], "code": code})
    assert status == 200, signed
    return signed["localId"], signed["refreshToken"]


def some_activity(base):
    """Sign-ins of a few kinds, wrong codes, emails and a refused text, for the dashboard: phone users in three
    countries, an email link user, a wrong code (an INVALID_CODE error answer), a text to a refused region."""
    for phone in ("+16505550123", "+447700900123", "+33612345678"):
        sign_in_user(base, phone)
    _, sent = call(base, V1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": "+16505550124", "recaptchaToken": "dev"})
    status, _ = call(base, V1 + "/accounts:signInWithPhoneNumber?key=console-test", {"sessionInfo": sent["sessionInfo"], "code": "000000"})
    assert status == 400
    for email in ("reader@example.com", "writer@example.com"):
        status, answer = call(base, V1 + "/accounts:sendOobCode?key=console-test",
                              {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "http://localhost/done", "canHandleCodeInApp": True})
        assert status == 200, answer
    _, oob = call(base, f"/emulator/v1/projects/{PROJECT}/oobCodes")
    code = [c["oobCode"] for c in oob["oobCodes"] if c["email"] == "reader@example.com"][-1]
    status, signed = call(base, V1 + "/accounts:signInWithEmailLink?key=console-test", {"email": "reader@example.com", "oobCode": code})
    assert status == 200, signed
    # Texts to Germany refused by the project's region policy: SMS refused, by country.
    config = f"/identitytoolkit.googleapis.com/admin/v2/projects/{PROJECT}/config?updateMask=smsRegionConfig"
    request = urllib.request.Request(base + config, method="PATCH", headers={"Content-Type": "application/json", "Authorization": "Bearer owner"},
                                     data=json.dumps({"smsRegionConfig": {"allowByDefault": {"disallowedRegions": ["DE"]}}}).encode())
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    status, _ = call(base, V1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": "+4915112345678", "recaptchaToken": "dev"})
    assert status == 400


def admin_config(base):
    """The project config, as the admin config API shows it (dev mode's `owner` credential)."""
    path = f"/identitytoolkit.googleapis.com/admin/v2/projects/{PROJECT}/config"
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer owner"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def refresh(base, token):
    return call(base, "/securetoken.googleapis.com/v1/token?key=console-test", {"grant_type": "refresh_token", "refresh_token": token})


def id_token_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def screening_function():
    """A stand-in blocking function on loopback: refuses UK numbers (as firebase-functions answers an HttpsError) and
    gives reader@example.com a custom claim; answers (server, URL)."""
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            claims = id_token_claims(body["data"]["jwt"])
            user = claims.get("user_record", {})
            status, answer = 200, {}
            if user.get("phone_number", "").startswith("+44"):
                status, answer = 400, {"error": {"status": "PERMISSION_DENIED", "message": "UK numbers are not accepted here"}}
            elif user.get("email") == "reader@example.com":
                answer = {"userRecord": {"updateMask": "customClaims", "customClaims": {"reviewed": True}}}
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/screen"


def gone(element):
    """Whether the element's page was replaced (Chromium answers a stale element with one error or another)."""
    try:
        element.is_enabled()
        return False
    except WebDriverException:
        return True


class Console:
    def __init__(self, driver, base, shots):
        self.driver, self.base, self.shots = driver, base, shots

    def open(self, path):
        self.driver.get(self.base + path)

    def shot(self, name):
        # The body's height, not the document's scroll height, which is never less than the window's.
        content = "return Math.ceil(document.body.getBoundingClientRect().height)"
        self.driver.set_window_size(1200, max(600, min(self.driver.execute_script(content) + 40, 4400)))
        # The window's height includes the browser's own frame: grow it by what the page still lacks.
        missing = self.driver.execute_script(content + " - window.innerHeight")
        if missing > 0:
            self.driver.set_window_size(1200, min(self.driver.get_window_size()["height"] + missing, 4400))
        self.driver.save_screenshot(os.path.join(self.shots, name + ".png"))

    def shot_section(self, name, element_id):
        """A screenshot of one section of the page (the window grown to the whole page first, so none of it is cut)."""
        self.shot(name)
        self.driver.find_element(By.ID, element_id).screenshot(os.path.join(self.shots, name + ".png"))

    def fill(self, field, text):
        element = self.driver.find_element(By.ID, field)
        element.clear()
        element.send_keys(text)

    def submit(self, text):
        """Clicks the button and waits for the page it leads to."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']").click()
        WebDriverWait(self.driver, 20).until(lambda _: gone(page))

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "main").text


def expect(condition, message):
    if not condition:
        sys.exit("console browser test failed: " + message)


def axe_violations(driver, label):
    """axe-core on the page shown: its serious and critical violations, naming the rule and the elements."""
    from axe_selenium_python import Axe
    axe = Axe(driver)
    axe.inject()
    found = []
    for violation in axe.run()["violations"]:
        if violation.get("impact") in ("serious", "critical"):
            targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
            found.append(f"{label}: {violation['id']} ({violation['impact']}): {violation['help']} — {targets}")
    return found


def axe_here(driver, label):
    """Fails on any serious or critical violation on the page shown (a page reached by a form, not by its address)."""
    found = axe_violations(driver, label)
    expect(not found, "accessibility violations:\n  " + "\n  ".join(found))


def check_accessibility(driver, console, paths, scheme):
    """Runs axe-core on each page; fails on any serious or critical violation, naming the rule and the elements."""
    found = []
    for path in paths:
        console.open(path)
        found += axe_violations(driver, f"{path} [{scheme}]")
    expect(not found, "accessibility violations:\n  " + "\n  ".join(found))


def admin_call(base, method, path, body):
    """An admin API call with dev mode's `owner` credential."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def admin_get(base, path):
    """An admin API read with dev mode's `owner` credential."""
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer owner"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


# A SAML identity provider's certificate (self-signed, EC, CN=idp.flint.test), the Swift tests' SAMLFixture's file.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "saml", "idp-certificate.pem")) as pem:
    SAML_CERTIFICATE = pem.read().strip()


def saml_provider(driver, console, base):
    """A SAML provider added with its form: a certificate that is not one is refused beside its field, then it is saved
    with a PEM certificate, and its page shows the values to give the identity provider."""
    console.open("/console/settings")
    driver.find_element(By.LINK_TEXT, "Add a SAML provider").click()
    console.fill("providerId", "corp")
    console.fill("displayName", "Corp SAML")
    console.fill("idpEntityId", "https://idp.example/entity")
    console.fill("ssoUrl", "https://idp.example/sso")
    console.fill("certificates", "not a certificate")
    console.fill("spEntityId", "flint-console-test")
    console.submit("Add provider")
    error = driver.find_element(By.ID, "certificates-error").text
    expect("X.509 certificate in PEM" in error, "no error beside the certificates: " + console.text())
    axe_here(driver, "a refused SAML form")
    console.fill("certificates", SAML_CERTIFICATE)
    driver.find_element(By.ID, "signRequest").click()
    console.submit("Add provider")
    page = console.text()
    expect("Saved." in page and "For the identity provider" in page and base + "/__/auth/handler" in page and "flint-console-test" in page,
           "the SAML provider's page: " + page)
    saml = admin_get(base, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/inboundSamlConfigs/saml.corp")
    expect(saml["idpConfig"].get("signRequest") is True and len(saml["idpConfig"]["idpCertificates"]) == 1
           and saml["spConfig"]["callbackUri"] == base + "/__/auth/handler", f"the stored SAML provider: {saml}")
    console.shot("provider-saml")


def tenant_provider(driver, console, base, tenant):
    """The tenant's page leads to its identity providers; an OpenID Connect provider added there is the tenant's (its
    admin API path answers it, the project's does not) and its pages keep the tenant."""
    console.open("/console/tenants/" + tenant)
    driver.find_element(By.LINK_TEXT, "Identity providers (OpenID Connect, SAML)").click()
    expect(driver.current_url.endswith("/console/providers?tenant=" + tenant), "the tenant's providers: " + driver.current_url)
    driver.find_element(By.LINK_TEXT, "Add an OpenID Connect provider").click()
    console.fill("providerId", "acme-sso")
    console.fill("displayName", "Acme SSO")
    console.fill("clientId", "acme-client")
    console.fill("clientSecret", "acme-s3cret")
    console.fill("issuer", "https://id.acme.example")
    console.submit("Add provider")
    expect("Saved." in console.text() and driver.current_url.endswith("tenant=" + tenant), "not saved in the tenant: " + driver.current_url)
    expect("acme-s3cret" not in driver.page_source, "the secret is shown back")
    stored = admin_get(base, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants/{tenant}/oauthIdpConfigs/oidc.acme-sso")
    expect(stored.get("clientId") == "acme-client" and stored.get("displayName") == "Acme SSO", f"the tenant's provider: {stored}")
    try:
        admin_get(base, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/oauthIdpConfigs/oidc.acme-sso")
        expect(False, "the tenant's provider is the project's too")
    except urllib.error.HTTPError as error:
        expect(error.code == 404, f"the project's answers {error.code}")
    driver.find_element(By.LINK_TEXT, "Back to the tenant's identity providers").click()
    expect("Acme SSO" in console.text() and "oidc.acme-sso" in console.text(), "the tenant's list: " + console.text())
    axe_here(driver, "the tenant's providers")
    console.shot("tenant-providers")
    driver.find_element(By.LINK_TEXT, "Back to the tenant's settings").click()
    expect(urlparse(driver.current_url).path == "/console/tenants/" + tenant, "back to the tenant: " + driver.current_url)
    console.open("/console/providers")
    expect("oidc.acme-sso" not in console.text(), "the project's list shows the tenant's provider")


def session_lifetimes(driver, console, keyboard):
    """The session lifetimes: an idle timeout under an hour refused beside its field, then a day and 30 days saved
    with the keyboard alone, then cleared (no limit)."""
    base = console.base
    console.open("/console/settings")
    console.fill("idleTimeoutHours", "0")
    console.submit("Save session lifetimes")
    error = driver.find_element(By.ID, "idleTimeoutHours-error").text
    expect("flint.sessions.idleTimeout must be a duration" in error, "no error beside the idle timeout: " + console.text())
    axe_here(driver, "refused session lifetimes")
    keyboard.tab_to("idleTimeoutHours")
    keyboard.press(Keys.BACKSPACE, "24", Keys.TAB, "720")
    keyboard.activate("Save session lifetimes", Keys.SPACE)
    sessions = admin_config(base).get("flint", {}).get("sessions", {})
    expect("Saved." in console.text() and sessions == {"idleTimeout": "86400s", "absoluteLifetime": "2592000s"}, f"session lifetimes: {sessions}")
    expect(driver.find_element(By.ID, "absoluteLifetimeHours").get_attribute("value") == "720", "the saved lifetime is not shown")
    console.fill("idleTimeoutHours", "")
    console.fill("absoluteLifetimeHours", "")
    console.submit("Save session lifetimes")
    expect(not admin_config(base).get("flint", {}).get("sessions"), "the session lifetimes were not cleared")


def policies(driver, console):
    """The settings the issue lists beside the providers, each through its form: the password policy (a minimum length
    out of range refused beside its field, then enforced with a digit required), email enumeration
    protection (createAuthUri then tells nothing), the SMS region policy (a text to France then refused) and the SMS
    limits (a budget that is no number refused beside its field, then saved); each put back afterwards."""
    base = console.base
    console.open("/console/settings")
    Select(driver.find_element(By.ID, "passwordPolicyEnforcement")).select_by_value("ENFORCE")
    console.fill("minPasswordLength", "40")
    console.submit("Save password policy")
    error = driver.find_element(By.ID, "minPasswordLength-error").text
    expect("minPasswordLength must be between" in error, "no error beside the minimum length: " + console.text())
    Select(driver.find_element(By.ID, "passwordPolicyEnforcement")).select_by_value("ENFORCE")
    console.fill("minPasswordLength", "10")
    checkbox = driver.find_element(By.ID, "containsNumericCharacter")
    if not checkbox.is_selected():
        checkbox.click()
    console.submit("Save password policy")
    expect("Saved." in console.text(), "the password policy was not saved: " + console.text())
    policy = admin_config(base).get("passwordPolicyConfig", {})
    options = (policy.get("passwordPolicyVersions") or [{}])[0].get("customStrengthOptions", {})
    expect(policy.get("passwordPolicyEnforcementState") == "ENFORCE" and options.get("minPasswordLength") == 10
           and options.get("containsNumericCharacter") is True, f"the stored password policy: {policy}")
    Select(driver.find_element(By.ID, "passwordPolicyEnforcement")).select_by_value("OFF")
    console.submit("Save password policy")
    expect(admin_config(base)["passwordPolicyConfig"].get("passwordPolicyEnforcementState") == "OFF", "the password policy is still enforced")

    lookup = {"identifier": "added@example.com", "continueUri": "http://localhost/"}
    _, open_answer = call(base, V1 + "/accounts:createAuthUri?key=console-test", lookup)
    expect(open_answer.get("registered") is True, f"createAuthUri before the protection: {open_answer}")
    driver.find_element(By.ID, "emailPrivacy").click()
    console.submit("Save email settings")
    expect(admin_config(base).get("emailPrivacyConfig", {}).get("enableImprovedEmailPrivacy") is True, "the protection was not saved")
    _, protected = call(base, V1 + "/accounts:createAuthUri?key=console-test", lookup)
    expect("registered" not in protected and "signinMethods" not in protected, f"createAuthUri still tells: {protected}")
    driver.find_element(By.ID, "emailPrivacy").click()
    console.submit("Save email settings")

    regions = console.driver.find_element(By.ID, "smsRegions").get_attribute("value")
    console.fill("smsRegions", "DE, FR")
    console.submit("Save SMS regions")
    expect(admin_config(base)["smsRegionConfig"] == {"allowByDefault": {"disallowedRegions": ["DE", "FR"]}}, "the SMS regions were not saved")
    status, _ = call(base, V1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": "+33612345670", "recaptchaToken": "dev"})
    expect(status == 400, f"a text to France was sent: {status}")
    console.fill("smsRegions", regions)
    console.submit("Save SMS regions")

    console.fill("dailyBudget", "lots")
    console.submit("Save SMS limits")
    error = driver.find_element(By.ID, "dailyBudget-error").text
    expect("flint.smsLimits.dailyBudget must be a whole number" in error, "no error beside the budget: " + console.text())
    axe_here(driver, "refused SMS limits")
    console.fill("dailyBudget", "5000")
    console.submit("Save SMS limits")
    expect(admin_config(base)["flint"]["smsLimits"].get("dailyBudget") == 5000, "the budget was not saved")


# What the focused element is, and whether a focus indicator is drawn: an outline (the stylesheet's :focus-visible) or
# a box shadow, and the element in the viewport.
FOCUSED = """
const e = document.activeElement;
if (!e || e === document.body) return null;
const s = getComputedStyle(e), r = e.getBoundingClientRect();
const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
const shadow = s.boxShadow && s.boxShadow !== 'none';
const label = (e.getAttribute('aria-label') || e.innerText || e.value || e.name || e.id || '').replace(/\\s+/g, ' ').trim();
return {tag: e.tagName, id: e.id, name: e.name || '', label: label, indicator: outline || shadow,
        visible: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
        key: e.tagName + '#' + e.id + '@' + e.name + '@' + label + '@' + Math.round(r.top + scrollY) + ',' + Math.round(r.left)};
"""


class Keyboard:
    """The console driven by keys alone: Tab from the top of the page to an element, then Enter or Space."""

    def __init__(self, driver):
        self.driver = driver

    def press(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def focused(self):
        return self.driver.execute_script(FOCUSED)

    def tab_to(self, label, limit=400):
        """Tabs from the top of the page until the focused element reads `label` (or has it as its ID or name); fails
        when it never does."""
        self.driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        for _ in range(limit):
            self.press(Keys.TAB)
            now = self.focused()
            if now and label in (now["label"], now["id"], now["name"]):
                return now
        sys.exit(f"console browser test failed: Tab never reached {label!r} on {self.driver.current_url}")

    def activate(self, label, key=Keys.ENTER):
        """Tabs to `label`, presses `key` and waits for the page it leads to."""
        self.tab_to(label)
        page = self.driver.find_element(By.TAG_NAME, "html")
        self.press(key)
        WebDriverWait(self.driver, 20).until(lambda _: gone(page))

    def walk(self, limit=600):
        """Tabs through the whole page from the top: the elements focused, in order, each with whether a focus
        indicator was visible; stops when focus comes back round."""
        self.driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        seen, order = set(), []
        for _ in range(limit):
            self.press(Keys.TAB)
            now = self.focused()
            if now is None:
                if order:
                    break
                continue
            if order and now["key"] == order[-1]["key"] and now["tag"] == "IFRAME":
                continue  # Tab stops inside a frame: the page sees the frame focused until focus leaves it.
            if now["key"] in seen:
                break
            seen.add(now["key"])
            order.append(now)
        return order


def keyboard_walk(driver, console, paths):
    """Every page Tabbed through from the top: the skip link comes first and shows itself; every element focused
    shows a focus indicator and is on screen."""
    keyboard, failures = Keyboard(driver), []
    for path in paths:
        console.open(path)
        order = keyboard.walk()
        if not order or order[0]["label"] != "Skip to content":
            failures.append(f"{path}: the first Tab stop is not the skip link ({order[:1]})")
        elif not order[0]["visible"]:
            failures.append(f"{path}: the skip link stays off screen when focused")
        for stop in order:
            # Focus inside the templates preview's sandboxed frame (an opaque origin the page cannot read): the frame's
            # own document draws the browser's focus ring on its links; the frame itself must be on screen.
            framed = stop["tag"] == "IFRAME"
            if not (stop["indicator"] or framed) or not stop["visible"]:
                failures.append(f"{path}: {stop['tag']} {stop['label']!r} focused without a visible indicator")
    return failures


IMPORT_JOB = [""]


def session_get(driver, base, path):
    """A GET with the browser's console session: (status, headers, body)."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    request = urllib.request.Request(base + path, headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers, response.read().decode()


def usage_and_budget(driver, console, base):
    """The year at daily resolution, its CSV download, and today's SMS by country against the daily budget."""
    driver.find_element(By.LINK_TEXT, "Last year").click()
    expect("Last year" in driver.find_element(By.CSS_SELECTOR, "nav.periods [aria-current=page]").text, "the year is not the chosen range")
    months = driver.find_element(By.ID, "sign-ins-caption").find_elements(By.XPATH, "..//table/tbody/tr")
    expect(len(months) in (12, 13), f"the year's table has {len(months)} rows, not one per month")
    link = driver.find_element(By.PARTIAL_LINK_TEXT, "as CSV")
    expect(link.get_attribute("href").endswith("/console/usage.csv?range=1y"), "the CSV link is not the chosen range's")
    status, headers, body = session_get(driver, base, "/console/usage.csv?range=1y")
    lines = body.split("\r\n")
    expect(status == 200 and lines[0] == "date,sign_ins,new_users,sms_sent,sms_refused,emails_sent,emails_failed,errors",
           "the CSV's header: " + lines[0])
    expect(len(lines) == 367 and lines[-1] == "", f"the CSV has {len(lines)} lines")
    expect(headers["Content-Disposition"].startswith('attachment; filename="flint-usage-'), "no attachment: " + str(headers))
    today = [int(n) for n in lines[-2].split(",")[1:]]
    expect(today[0] >= 5 and today[2] >= 5, "today's sign-ins and texts are not in the CSV: " + lines[-2])
    console.shot("dashboard-year")
    budget = driver.find_element(By.ID, "sms-budget")
    expect(len(budget.find_elements(By.CSS_SELECTOR, "svg line.limit")) == 1, "no budget line in the SMS chart")
    desc = budget.find_element(By.CSS_SELECTOR, "svg desc").get_attribute("textContent")
    expect("Daily budget: 3000." in desc and "US" in budget.text and "GB" in budget.text, "the SMS chart's text: " + desc)
    expect("Share of the daily budget" in budget.text, "no table under the SMS chart")
    console.shot_section("sms-budget", "sms-budget")


def import_and_export(driver, console, base, work):
    """An import of 3,002 users (two refused) followed on its page to its report; the export downloaded as JSON."""
    users = [{"localId": f"imp{i:05d}", "email": f"imported{i}@example.com", "emailVerified": True} for i in range(3000)]
    users += [{"localId": "bad-email", "email": "not an email"}, {"localId": "imp00001", "email": "again@example.com"}]
    path = os.path.join(work, "users.json")
    with open(path, "w") as f:
        json.dump({"users": users}, f, indent=2)
    console.open("/console/users")
    driver.find_element(By.LINK_TEXT, "Import and export").click()
    driver.find_element(By.ID, "file").send_keys(path)
    console.shot("import")
    console.submit("Import")
    expect("/console/import/" in driver.current_url, "the import did not start: " + console.text())
    IMPORT_JOB[0] = urlparse(driver.current_url).path
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "import-done"))
    done = driver.find_element(By.ID, "import-done").text
    expect("Imported 3000 of 3002 users" in done and "2 refused" in done, "the report: " + done)
    rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#import-failures tbody tr")]
    expect(len(rows) == 2 and "3001" in rows[0] and "bad-email" in rows[0] and "imp00001" in rows[1], f"refused rows: {rows}")
    console.shot("import-report")

    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads, exist_ok=True)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    console.open("/console/import")
    driver.find_element(By.XPATH, "//button[normalize-space()='Download every user']").click()
    WebDriverWait(driver, 60).until(lambda _: [n for n in os.listdir(downloads) if n.endswith(".json")])
    name = [n for n in os.listdir(downloads) if n.endswith(".json")][0]
    with open(os.path.join(downloads, name)) as f:
        exported = json.load(f)["users"]
    expect(len(exported) >= 3005 and any(u["localId"] == "imp02999" for u in exported), f"the export holds {len(exported)} users")



def tenants(driver, console):
    """The tenants page creates a tenant; the header's picker finds it; a user added in it is listed in its users and
    not in the project's. Answers the tenant's ID."""
    console.open("/console/tenants")
    console.fill("displayName", "acme-corp")
    driver.find_element(By.NAME, "allowPasswordSignup").click()
    console.submit("Create")
    expect("Tenant acme-corp-" in console.text() and "/console/tenants/acme-corp-" in driver.current_url, "no tenant: " + console.text())
    tenant = urlparse(driver.current_url).path.rsplit("/", 1)[-1]
    console.shot("tenant")
    console.open("/console/users")
    picker = driver.find_element(By.CSS_SELECTOR, "form.picker input[name=find]")
    picker.send_keys("acme")
    console.submit("Change")
    expect(tenant in console.text(), "the picker did not find the tenant: " + console.text())
    console.shot("tenants")
    driver.find_element(By.LINK_TEXT, tenant).click()
    expect(driver.current_url.endswith("/console/users?tenant=" + tenant), "the picker did not open the tenant's users: " + driver.current_url)
    driver.find_element(By.LINK_TEXT, "Add a user").click()
    console.fill("email", "ada@acme.example")
    console.fill("password", "a password long enough")
    console.submit("Create the account")
    expect("Account created." in console.text() and "tenant=" + tenant in driver.current_url, "not created in the tenant: " + driver.current_url)
    console.open("/console/users?tenant=" + tenant)
    expect("ada@acme.example" in console.text() and "Tenant: acme-corp" in driver.find_element(By.TAG_NAME, "header").text,
           "the tenant's list lacks its user: " + console.text())
    console.shot("users-tenant")
    console.open("/console/users")
    expect("ada@acme.example" not in console.text(), "the project's list shows the tenant's user")
    return tenant


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    chromium, driver_path = chromium_paths("console browser test")
    os.makedirs(args.screenshots, exist_ok=True)

    work = tempfile.mkdtemp(prefix="flint-console-test-")
    data = os.path.join(work, "data")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    added = subprocess.run([args.flint, "admin", "operators", "add", EMAIL, "--data", data, "--public-url", base],
                           env=flint_env(), capture_output=True, text=True, check=True)
    setup_link = added.stdout.strip()
    expect(setup_link.startswith(base + "/console/setup?token="), "unexpected setup link " + setup_link)
    flint, log = start_flint(args.flint, work, port)
    driver = None
    try:
        if not wait_ready(base + "/", flint):
            sys.exit("console browser test: flint serve did not start:\n" + open(os.path.join(work, "flint.log")).read())
        uid, refresh_token = sign_in_user(base)
        some_activity(base)

        driver = headless_chromium(chromium, driver_path, os.path.join(work, "profile"), "1200,800")
        console = Console(driver, base, args.screenshots)

        # Setup: password and TOTP enrolment from the one-time link.
        driver.get(setup_link)
        secret = driver.find_element(By.ID, "secret").text.strip()
        console.shot("setup")
        console.fill("password", PASSWORD)
        console.fill("confirmation", PASSWORD)
        console.fill("code", totp(secret))
        console.submit("Finish setup")
        expect("You can now sign in" in console.text(), "setup did not complete: " + console.text())

        # A page without a session leads to the sign-in page.
        console.open("/console/users")
        expect(driver.current_url.endswith("/console/sign-in"), "no redirect to sign-in: " + driver.current_url)
        # Signed in with the keyboard alone: typed, Tab between the fields, Enter.
        keyboard = Keyboard(driver)
        keyboard.tab_to("email")
        keyboard.press(EMAIL, Keys.TAB, PASSWORD)
        console.shot("sign-in")
        page = driver.find_element(By.TAG_NAME, "html")
        keyboard.press(Keys.ENTER)
        WebDriverWait(driver, 20).until(lambda _: gone(page))
        expect(driver.current_url.endswith("/console/sign-in/totp"), "no TOTP step: " + driver.current_url)
        next_step()
        keyboard.tab_to("code")
        keyboard.press(totp(secret))
        console.shot("sign-in-totp")
        keyboard.activate("Sign in")
        expect(driver.current_url.endswith("/console/dashboard"), "not signed in: " + console.text())

        # The dashboard: the sign-ins above, by method, in charts with their numbers.
        page = console.text()
        for needle in ("Sign-ins by method", "SMS codes sent by country", "Emails sent and failed", "INVALID_CODE"):
            expect(needle in page, f"{needle} missing from the dashboard")
        expect(len(driver.find_elements(By.CSS_SELECTOR, "figure.chart svg rect")) >= 4, "the dashboard draws no bars")
        driver.find_element(By.CSS_SELECTOR, "figure.chart details summary").click()
        console.shot("dashboard")
        driver.find_element(By.LINK_TEXT, "Last 30 days").click()
        console.shot("dashboard-30d")
        usage_and_budget(driver, console, base)
        import_and_export(driver, console, base, work)
        console.open("/console/users")

        # Find the user by their number written another way.
        console.fill("q", "+1 (650) 555-0199")
        console.submit("Search")
        expect(uid in console.text(), "the user was not found by phone number")
        console.shot("users")
        driver.find_element(By.LINK_TEXT, uid).click()
        console.shot("user")

        # Claims: reviewed, confirmed, then in the next ID token.
        console.fill("claims", '{"role":"editor","tier":2}')
        console.submit("Review claims")
        console.shot("confirm-claims")
        console.submit("Confirm")
        expect("Done: replace the custom claims" in console.text(), "claims not saved: " + console.text())
        status, refreshed = refresh(base, refresh_token)
        expect(status == 200 and id_token_claims(refreshed["id_token"]).get("role") == "editor", f"claims not in the ID token: {refreshed}")

        # Disable: confirmed, then the user's refresh fails.
        console.submit("Disable")
        console.shot("confirm-disable")
        console.submit("Confirm")
        expect("Done: disable the account" in console.text(), "not disabled: " + console.text())
        console.shot("user-disabled")
        status, refused = refresh(base, refresh_token)
        expect(status == 400 and refused.get("error", {}).get("message", "").startswith("USER_DISABLED"), f"refresh still works: {refused}")

        # The users list: sorted by a column head, filtered, then a bulk disable behind one confirmation.
        bulk = [sign_in_user(base, phone) for phone in ("+16505550131", "+16505550132")]
        console.open("/console/users")
        expect("enabled" in console.text() and "password" in console.text(), "no state or provider column: " + console.text())
        driver.find_element(By.LINK_TEXT, "Created").click()
        expect("sort=created" in driver.current_url and "dir=desc" in driver.current_url, "not sorted: " + driver.current_url)
        head = driver.find_element(By.CSS_SELECTOR, "th[aria-sort]")
        expect(head.text == "Created" and head.get_attribute("aria-sort") == "descending", "no sorted column head")
        ids = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "td[data-label='User ID'] a")]
        expect(ids[:2] == [bulk[1][0], bulk[0][0]], f"not newest first: {ids}")
        times = driver.find_elements(By.CSS_SELECTOR, "td[data-label='Created'] time")
        expect(times and times[0].get_attribute("title").endswith("Z") and ", " in times[0].text, "no short date with the full time")
        Select(driver.find_element(By.ID, "provider")).select_by_value("phone")
        Select(driver.find_element(By.ID, "state")).select_by_value("enabled")
        console.submit("Apply")
        expect("provider=phone" in driver.current_url and "sort=created" in driver.current_url, "filter lost: " + driver.current_url)
        ids = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "td[data-label='User ID'] a")]
        expect(uid not in ids and bulk[0][0] in ids and "reader@example.com" not in console.text(), f"the filter let others through: {ids}")
        console.shot("users-filtered")
        for localId, _ in bulk:
            driver.find_element(By.CSS_SELECTOR, f"input[name='u:{localId}']").click()
        Select(driver.find_element(By.ID, "bulk-action")).select_by_value("disable")
        console.submit("Review")
        page = console.text()
        expect("Disable these 2 accounts?" in page and all(localId in page for localId, _ in bulk), "no confirmation: " + page)
        console.shot("users-bulk-confirm")
        axe_here(driver, "bulk confirmation")
        console.submit("Confirm")
        expect("2 done, 0 refused" in console.text(), "bulk disable: " + console.text())
        for _, token in bulk:
            status, refused = refresh(base, token)
            expect(status == 400 and refused.get("error", {}).get("message", "").startswith("USER_DISABLED"), f"still enabled: {refused}")

        # Add a user: the operator's create, then the new account's page.
        console.open("/console/users")
        driver.find_element(By.LINK_TEXT, "Add a user").click()
        console.fill("email", "added@example.com")
        console.fill("password", "a password long enough")
        console.shot("new-user")
        console.submit("Create the account")
        expect("Account created." in console.text() and "added@example.com" in console.text(), "not created: " + console.text())
        status, _ = call(base, V1 + "/accounts:signInWithPassword?key=console-test",
                         {"email": "added@example.com", "password": "a password long enough", "returnSecureToken": True})
        expect(status == 200, f"the added user cannot sign in: {status}")

        # A locked account: five wrong passwords in a row lock it (even the right password is refused); its page says
        # until when, the list marks it, and a confirmed unlock lets the right password in again.
        added_page = driver.current_url[len(base):].split("?")[0]
        for _ in range(5):
            call(base, V1 + "/accounts:signInWithPassword?key=console-test",
                 {"email": "added@example.com", "password": "a wrong guess", "returnSecureToken": True})
        status, refused = call(base, V1 + "/accounts:signInWithPassword?key=console-test",
                               {"email": "added@example.com", "password": "a password long enough", "returnSecureToken": True})
        expect(status == 400 and refused["error"]["message"].startswith("TOO_MANY_ATTEMPTS_TRY_LATER"), f"not locked: {refused}")
        console.open("/console/users?q=added%40example.com")
        expect("locked" in console.text(), "the users list does not mark the locked account: " + console.text())
        console.open(added_page)
        expect("Locked until" in console.text(), "the locked account's page does not say so: " + console.text())
        console.shot("user-locked")
        console.submit("Unlock")
        console.submit("Confirm")
        expect("Done: unlock the account" in console.text() and "Locked until" not in console.text(), "not unlocked: " + console.text())
        status, signed_in = call(base, V1 + "/accounts:signInWithPassword?key=console-test",
                                 {"email": "added@example.com", "password": "a password long enough", "returnSecureToken": True})
        expect(status == 200, f"the unlocked user cannot sign in: {status}")

        # That sign-in's session and the first one (after "Add a user") are on the account's page, the latest first; an
        # operator's confirmed "End session" of the latest refuses its refresh token at once and leaves the other.
        console.open(added_page)
        rows = driver.find_elements(By.XPATH, "//h2[normalize-space()='Sessions']/following-sibling::table[1]/tbody/tr")
        expect(len(rows) == 2 and "End session" in rows[0].text, "the sessions are not on the account's page: " + console.text())
        console.shot("user-sessions")
        console.submit("End session")
        console.submit("Confirm")
        expect("Done" in console.text(), "the session was not ended: " + console.text())
        rows = driver.find_elements(By.XPATH, "//h2[normalize-space()='Sessions']/following-sibling::table[1]/tbody/tr")
        expect(len(rows) == 1 and "End session" in rows[0].text, "the ended session is still listed: " + console.text())
        status, refused = refresh(base, signed_in["refreshToken"])
        expect(status == 400 and refused["error"]["message"].startswith("TOKEN_EXPIRED"), f"the ended session still refreshes: {refused}")

        console.open("/console/deliveries")
        expect(PHONE in console.text() and "reader@example.com" in console.text(), "the SMS or the email is not in the deliveries page")
        console.shot("deliveries")
        # Filtered: texts to one number, typed in another format.
        Select(driver.find_element(By.ID, "channel")).select_by_value("sms")
        console.fill("to", "+1 (650) 555-0199")
        console.submit("Filter")
        rows = driver.find_elements(By.CSS_SELECTOR, "main tbody tr")
        expect(len(rows) >= 1 and all(PHONE in row.text for row in rows), "the filter let other messages through: " + console.text())
        expect("channel=sms" in driver.current_url, "the filter is not in the address: " + driver.current_url)
        console.shot("deliveries-filtered")

        # Dev mode's outbox: the codes and links still usable, one click away (the used ones are gone).
        driver.find_element(By.LINK_TEXT, "Outbox").click()
        page = console.text()
        expect("+16505550124" in page and "writer@example.com" in page and "reader@example.com" not in page, "outbox page: " + page)
        link = driver.find_element(By.XPATH, "//tr[td[normalize-space()='writer@example.com']]//a").get_attribute("href")
        _, oob = call(base, f"/emulator/v1/projects/{PROJECT}/oobCodes")
        expect(link in [c["oobLink"] for c in oob["oobCodes"]], "the outbox's link is not the emulator's: " + link)
        console.shot("outbox")

        console.open("/console/security?uid=" + uid)
        page = console.text()
        for needle in ("ADMIN_ACTION", '"action":"claims"', '"action":"disable"', EMAIL):
            expect(needle in page, f"{needle} missing from the audit log page")
        console.shot("security")
        console.open("/console/security?kind=CONSOLE_SIGN_IN")
        expect(EMAIL in console.text(), "the operator's sign-in is not in the audit log")

        # Signing keys: a confirmed rotation schedules a key, published at once, signing once verifiers' caches expired.
        console.open("/console/keys")
        console.submit("Rotate the signing key")
        console.submit("Confirm")
        expect(
            "Rotation scheduled" in console.text() and "scheduled, published" in console.text() and "active" in console.text(),
            "keys not rotated: " + console.text())
        console.shot("keys")

        # A fictional number: added on the settings page, then a sign-in with it works (no SMS, the set code).
        console.open("/console/settings")
        console.fill("number", "+1 650-555-0142")
        console.fill("code", "424242")
        console.submit("Add number")
        expect("+16505550142" in console.text(), "the fictional number was not added: " + console.text())
        # Anonymous sign-in: refused, turned on in its form, then it works.
        status, _ = call(base, V1 + "/accounts:signUp?key=console-test", {"returnSecureToken": True})
        expect(status == 400, f"anonymous sign-in worked before it was turned on: {status}")
        console.driver.find_element(By.ID, "anonymousEnabled").click()
        console.submit("Save anonymous settings")
        expect("Saved." in console.text(), "anonymous sign-in not saved: " + console.text())
        expect(console.driver.find_element(By.ID, "anonymousEnabled").is_selected(), "anonymous sign-in not shown on")
        status, anonymous = call(base, V1 + "/accounts:signUp?key=console-test", {"returnSecureToken": True})
        expect(status == 200 and anonymous.get("idToken"), f"anonymous sign-in failed after it was turned on: {anonymous}")
        # An authorized domain: an invalid one is refused beside its field, a valid one is added.
        console.fill("domain", "not a domain")
        console.submit("Add domain")
        error = console.driver.find_element(By.ID, "domain-error").text
        expect("authorizedDomains has an invalid domain" in error, "no error beside the domain field: " + console.text())
        console.shot("settings-error")
        console.fill("domain", "app.example.com")
        console.submit("Add domain")
        expect("app.example.com" in console.text(), "the domain was not added: " + console.text())
        status, project = call(base, V1 + "/projects?key=console-test")
        expect("app.example.com" in project.get("authorizedDomains", []), f"the public config lacks the domain: {project}")
        # App links: the iOS apps, an Android app and a link domain, then served in the AASA and assetlinks files.
        console.fill("teamId", "ABCDE12345")
        console.fill("bundleIds", "com.example.app")
        console.submit("Save iOS apps")
        console.fill("packageName", "com.example.app")
        console.fill("fingerprints", FINGERPRINT)
        console.submit("Add Android app")
        console.fill("linkDomain", "links.example.com")
        console.submit("Add link domain")
        expect("links.example.com" in console.text() and FINGERPRINT in console.text(), "app links not saved: " + console.text())
        _, aasa = call(base, "/.well-known/apple-app-site-association")
        expect("ABCDE12345.com.example.app" in json.dumps(aasa), f"the AASA file lacks the iOS app: {aasa}")
        _, assetlinks = call(base, "/.well-known/assetlinks.json")
        expect(FINGERPRINT in json.dumps(assetlinks), f"assetlinks.json lacks the Android app: {assetlinks}")
        v1 = V1
        _, sent = call(base, v1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": "+16505550142", "recaptchaToken": "dev"})
        status, fictional = call(base, v1 + "/accounts:signInWithPhoneNumber?key=console-test", {"sessionInfo": sent["sessionInfo"], "code": "424242"})
        expect(status == 200 and fictional.get("idToken"), f"sign-in with the fictional number failed: {fictional}")

        # Blocking functions: a dry run of a stand-in function (refusing UK numbers, tagging reader@example.com)
        # reports the sign-ins above; nothing is applied. Then a bad URL is refused above the form, the function is
        # saved as beforeSignIn (a UK sign-in is then refused with its message), and cleared again.
        function, function_url = screening_function()
        try:
            console.open("/console/settings")
            console.fill("dryRunUri", function_url)
            console.fill("dryRunDays", "7")
            console.submit("Run dry run")
            report = driver.find_element(By.ID, "dry-run-report").text
            expect("UK numbers are not accepted here" in report and "REFUSED" in report and "CHANGED" in report, "dry run report: " + report)
            console.shot_section("blocking-functions", "blocking-functions")
            console.open("/console/settings")
            console.fill("beforeSignIn", "not a url")
            console.submit("Save blocking functions")
            error = driver.find_element(By.ID, "blockingFunctions-error").text
            expect("Expected an absolute URI with valid scheme and host." in error, "no error above the blocking functions form: " + console.text())
            console.fill("beforeSignIn", function_url)
            console.submit("Save blocking functions")
            expect("Saved." in console.text(), "the blocking function was not saved: " + console.text())
            expect(admin_config(base).get("blockingFunctions", {}).get("triggers", {}).get("beforeSignIn", {}).get("functionUri") == function_url,
                   "the config lacks the function")
            _, sent = call(base, V1 + "/accounts:sendVerificationCode?key=console-test", {"phoneNumber": "+447700900123", "recaptchaToken": "dev"})
            _, codes = call(base, f"/emulator/v1/projects/{PROJECT}/verificationCodes")
            code = [c["code"] for c in codes["verificationCodes"] if c["phoneNumber"] == "+447700900123"][-1]
            status, refused = call(base, V1 + "/accounts:signInWithPhoneNumber?key=console-test", {"sessionInfo": sent["sessionInfo"], "code": code})
            expect(status == 400 and "UK numbers are not accepted here" in refused.get("error", {}).get("message", ""),
                   f"the saved function did not refuse: {refused}")
            console.open("/console/settings")
            console.fill("beforeSignIn", "")
            console.submit("Save blocking functions")
            expect(not admin_config(base).get("blockingFunctions", {}).get("triggers"), "the function was not cleared")
        finally:
            function.shutdown()

        # Templates: the French sign-in email's subject typed, the preview following it without a reload (the HTML part
        # in its sandboxed frame too), saved as an override of that part alone.
        console.open("/console/templates?locale=fr&template=email.EMAIL_SIGNIN")
        page = driver.find_element(By.TAG_NAME, "html")
        subject = driver.find_element(By.ID, "subject")
        subject.send_keys(Keys.CONTROL, "a")
        subject.send_keys("Votre lien de connexion à {app}")
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "preview-subject").text == "Votre lien de connexion à demo-flint")
        expect(not gone(page), "the preview reloaded the page")
        driver.switch_to.frame(driver.find_element(By.ID, "preview-html"))
        framed = driver.find_element(By.TAG_NAME, "body").text
        driver.switch_to.default_content()
        expect("oobCode=SAMPLE-CODE" in framed, "the HTML part is not in the preview's frame: " + framed)
        console.shot("templates")
        console.submit("Save template")
        expect("Saved." in console.text(), "the template was not saved: " + console.text())
        expect(driver.find_element(By.ID, "subject-state").text == "overridden", "the subject is not shown overridden")
        stored = admin_config(base).get("flint", {}).get("emailTemplates")
        expect(stored == {"fr": {"EMAIL_SIGNIN": {"subject": "Votre lien de connexion à {app}"}}}, f"stored overrides: {stored}")
        # An SMS text without {code}: the live preview says it would be refused, and the save is refused beside the field.
        console.open("/console/templates?locale=fr&template=sms.signIn")
        message = driver.find_element(By.ID, "text")
        message.send_keys(Keys.CONTROL, "a")
        message.send_keys("Votre code {app} arrive")
        WebDriverWait(driver, 10).until(lambda d: "must contain {code}" in d.find_element(By.ID, "preview").text)
        console.submit("Save template")
        error = driver.find_element(By.ID, "text-error").text
        expect("SMS template fr.signIn must contain {code}" in error, "no error beside the SMS text: " + console.text())
        console.shot("templates-error")

        # A webhook subscription: its signing secret is shown once; the list shows it enabled.
        console.open("/console/webhooks")
        console.fill("url", "http://127.0.0.1:9/hooks")
        driver.find_element(By.NAME, "event:user.created").click()
        console.submit("Add")
        expect("whsec_" in console.text(), "no signing secret after adding a webhook: " + console.text())
        expect("http://127.0.0.1:9/hooks" in console.text(), "the webhook is not listed")
        expect("Recent deliveries of" not in console.text(), "the deliveries' heading names a webhook though none was chosen")
        console.shot("webhooks")

        # Sign-in methods in one grid: email link turned off and on again with its switch; a test sign-in with a stand-in
        # OpenID Connect provider runs through the project's handler and shows its outcome here, creating no account;
        # then the second factor is set per method.
        provider, issuer = stand_in_provider(free_port())
        try:
            console.open("/console/settings")
            console.fill("domain", "127.0.0.1")
            console.submit("Add domain")
            # The OpenID Connect provider added with its form: an issuer that is no URL is refused beside its field (the
            # secret typed is not sent back), then it is added, and its page never shows the secret.
            driver.find_element(By.LINK_TEXT, "Add an OpenID Connect provider").click()
            console.fill("providerId", "standin")
            console.fill("displayName", "Stand-in")
            console.fill("clientId", "corp-client")
            console.fill("clientSecret", "corp-secret")
            console.fill("issuer", "not a url")
            console.submit("Add provider")
            error = driver.find_element(By.ID, "issuer-error").text
            expect("issuer must be an absolute http(s) URL" in error, "no error beside the issuer: " + console.text())
            expect("corp-secret" not in driver.page_source, "the refused form sent the secret back")
            axe_here(driver, "a refused OIDC form")
            console.fill("clientSecret", "corp-secret")
            console.fill("issuer", issuer)
            console.submit("Add provider")
            expect("Saved." in console.text() and "corp-secret" not in driver.page_source, "the OIDC provider's page: " + console.text())
            oidc = admin_get(base, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/oauthIdpConfigs/oidc.standin")
            expect(oidc.get("clientSecret") == "corp-secret" and oidc.get("issuer") == issuer and oidc.get("enabled") is True,
                   f"the stored OIDC provider: {oidc}")
            console.shot("provider-oidc")
            console.open("/console/settings")
            grid = driver.find_element(By.ID, "sign-in-methods").text
            for method in ("Email and password", "Email link", "Phone", "Anonymous", "Google", "Apple", "GitHub", "Microsoft",
                           "X (Twitter)", "Yahoo", "Facebook", "Game Center", "Google Play Games", "Stand-in"):
                expect(method in grid, f"{method} missing from the sign-in methods grid")
            console.submit("Turn off Email link")
            expect(admin_config(base)["signIn"]["email"].get("passwordRequired") is True, "email link not turned off")
            console.submit("Turn on Email link")
            expect(admin_config(base)["signIn"]["email"].get("passwordRequired") is False, "email link not turned on")
            console.submit("Test sign-in with Stand-in")
            WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
                lambda d: "/console/provider-test/result" in d.current_url and "Back to the sign-in methods" in console.text())
            result = console.text()
            expect("The sign-in with oidc.standin works" in result and "ada@corp.example" in result and "created nothing" in result,
                   "test sign-in: " + result)
            console.shot("provider-test")
            console.open("/console/users?q=ada%40corp.example")
            expect("No account matches." in console.text(), "the test sign-in left an account")
            # The second factor by method, with the keyboard alone: the provider's choice moved from "as the project" to
            # "not asked" with an arrow key, saved with Space.
            console.open("/console/settings")
            keyboard.tab_to("mfa-oidc-standin")
            keyboard.press(Keys.DOWN)
            expect(driver.find_element(By.ID, "mfa-oidc-standin").get_attribute("value") == "DISABLED", "the arrow key did not choose Not asked")
            keyboard.activate("Save second factors by method", Keys.SPACE)
            axe_here(driver, "the second factor by method saved")
            expect(admin_config(base).get("flint", {}).get("mfaFirstFactors") == {"oidc.standin": "DISABLED"}, "second factor by method not saved")
            console.shot_section("sign-in-methods", "sign-in-methods")
        finally:
            provider.shutdown()
        session_lifetimes(driver, console, keyboard)
        tenant = tenants(driver, console)
        tenant_provider(driver, console, base, tenant)
        policies(driver, console)
        saml_provider(driver, console, base)
        console.open("/console/settings")
        console.shot("settings")

        # The keyboard alone: search, open a user, save a setting, confirm a bulk action (Tab from the top, Enter/Space).
        console.open("/console/users")
        keyboard.tab_to("q")
        keyboard.press("+1 (650) 555-0199", Keys.ENTER)
        WebDriverWait(driver, 20).until(lambda d: "q=" in d.current_url)
        expect(uid in console.text(), "keyboard search did not find the user")
        keyboard.activate(uid)
        expect(driver.current_url.endswith("/console/users/" + uid), "Enter on the user's link did not open it")
        console.open("/console/settings")
        keyboard.tab_to("anonymousEnabled")
        keyboard.press(Keys.SPACE)
        keyboard.activate("Save anonymous settings", Keys.SPACE)
        expect("Saved." in console.text() and admin_config(base)["signIn"]["anonymous"]["enabled"] is False, "keyboard save failed")
        console.open("/console/users?provider=phone&state=disabled")
        keyboard.tab_to("Select " + bulk[0][0])
        keyboard.press(Keys.SPACE)
        keyboard.tab_to("bulk-action")
        keyboard.press(Keys.DOWN)
        expect(driver.find_element(By.ID, "bulk-action").get_attribute("value") == "enable", "the arrow key did not choose enable")
        keyboard.activate("Review")
        expect("Enable" in console.text() and bulk[0][0] in console.text(), "no bulk confirmation: " + console.text())
        keyboard.activate("Confirm")
        expect("1 done, 0 refused" in console.text(), "keyboard bulk enable: " + console.text())

        # A phone's width (390 px): no page scrolls sideways; wide tables turn into one card per row.
        narrow_pages = ["/console/dashboard", "/console/dashboard?range=30d", "/console/dashboard?range=1y", "/console/import",
                        IMPORT_JOB[0], "/console/users",
                        "/console/users?sort=signin&dir=desc&provider=phone&state=disabled&size=25", "/console/new-user",
                        "/console/users/" + uid,
                        "/console/deliveries", "/console/security", "/console/security?kind=CONSOLE_SIGN_IN", "/console/keys",
                        "/console/settings", "/console/templates?locale=fr&template=email.EMAIL_SIGNIN", "/console/outbox",
                        "/console/webhooks", "/console/providers/oidc.standin", "/console/providers/saml.corp", "/console/providers/oidc",
                        "/console/providers/saml", "/console/tenants", "/console/tenants/" + tenant, "/console/users?tenant=" + tenant,
                        "/console/providers?tenant=" + tenant, "/console/providers/oidc.acme-sso?tenant=" + tenant]
        wide = []
        for path in narrow_pages:
            driver.set_window_size(390, 844)
            console.open(path)
            overflow = driver.execute_script(
                "const w = document.documentElement.clientWidth;"
                "if (document.documentElement.scrollWidth <= w) return null;"
                "const e = [...document.querySelectorAll('body *')].find(e => e.getBoundingClientRect().right > w + 1);"
                "if (e) return e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right);"
                "const s = [...document.querySelectorAll('body *')].filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX == 'visible');"
                "return 'page: ' + s.map(e => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth).join(', ');")
            if overflow:
                wide.append(f"{path} ({overflow})")
        expect(not wide, "pages wider than 390 px: " + ", ".join(wide))
        for name, path in (("narrow-dashboard", "/console/dashboard"), ("narrow-security", "/console/security"),
                           ("narrow-deliveries", "/console/deliveries"), ("narrow-users", "/console/users?sort=created&dir=desc")):
            driver.set_window_size(390, 844)
            console.open(path)
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(390, max(844, min(height + 40, 4400)))
            driver.save_screenshot(os.path.join(args.screenshots, name + ".png"))
        driver.set_window_size(1200, 800)

        # Every page Tabbed through from the top: the skip link first, then a visible focus indicator on every stop.
        failures = keyboard_walk(driver, console, narrow_pages + ["/console/provider-test/result"])
        expect(not failures, "keyboard walk:\n" + "\n".join(failures))

        # axe-core (axe-selenium-python's copy) finds no serious or critical violation on any page, light and dark.
        check_accessibility(driver, console, narrow_pages + ["/console/settings?saved=1"], "light")

        # The same stylesheet in dark mode (prefers-color-scheme).
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        console.open("/console/users/" + uid)
        console.shot("user-dark")
        console.open("/console/dashboard")
        console.shot("dashboard-dark")
        console.open("/console/settings")
        console.shot("settings-dark")
        console.open("/console/templates?locale=fr&template=email.EMAIL_SIGNIN")
        console.shot("templates-dark")
        check_accessibility(driver, console, narrow_pages, "dark")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})

        # A provider deleted behind a confirmation.
        console.open("/console/providers/saml.corp")
        console.submit("Delete saml.corp")
        expect("Delete saml.corp?" in console.text(), "no confirmation of the deletion: " + console.text())
        axe_here(driver, "a provider's deletion")
        console.submit("Confirm")
        expect("saml.corp deleted." in console.text(), "the SAML provider was not deleted: " + console.text())
        try:
            admin_get(base, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/inboundSamlConfigs/saml.corp")
            expect(False, "the deleted SAML provider is still served")
        except urllib.error.HTTPError as error:
            expect(error.code == 404, f"the deleted SAML provider answers {error.code}")
        print("console browser test: setup, password + TOTP sign-in, search by phone, the users list's sort, filter and bulk disable, add a user, a locked account's unlock, a session ended, claims, disable, audit log, key rotation, a fictional number, "
              "anonymous sign-in, an authorized domain, a blocking function's dry run and setting, a template edited with its live preview, "
              "the sign-in methods grid with an OpenID Connect provider added in its form and its test sign-in, the second factor by method, "
              "the session lifetimes, a password policy, email enumeration protection, SMS regions and an SMS budget, a SAML provider added and deleted, "
              "a year of usage with its CSV, today's SMS against the budget, an import's report and the export, a tenant picked and a user added in it, "
              "a tenant's own OpenID Connect provider, "
              "and the keyboard alone on every page all work")
    finally:
        if driver is not None:
            driver.quit()
        stop_flint(flint, log, work)


if __name__ == "__main__":
    main()

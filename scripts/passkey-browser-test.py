#!/usr/bin/env python3
"""Passkeys in a real browser: headless Chromium with a virtual WebAuthn authenticator (CTAP2, internal, resident keys,
user verification) loads a page on http://localhost:PORT (an authorized domain by default) whose script calls a running
`flint serve` with fetch() and navigator.credentials: sign up with email and password, enrol a passkey, sign out, sign in
with the passkey (twice). Then a clone of the credential, given to a second virtual authenticator with the sign count it
had at enrolment, must be refused (its counter does not increase). Saves a screenshot of the page.

Usage: passkey-browser-test.py --flint .build/debug/flint [--screenshot docs/passkey-browser-test.png]
"""
import base64
import os
import sys

from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions

from headless import BrowserRun, free_port

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Flint passkeys test</title>
<style>
 body { font: 14px system-ui, sans-serif; margin: 24px; }
 table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: 4px 8px; text-align: left; }
 .ok { color: #060; } .bad { color: #a00; }
</style></head>
<body>
<h1>Flint passkeys, in a browser</h1>
<p>This page: <code id="self"></code> &mdash; Flint: <code id="flint"></code></p>
<table><thead><tr><th>step</th><th>status</th><th>read from the answer</th></tr></thead><tbody id="rows"></tbody></table>
<script>
const flint = "__FLINT__";
document.getElementById("self").textContent = location.origin;
document.getElementById("flint").textContent = flint;
const v1 = flint + "/identitytoolkit.googleapis.com/v1/accounts";
const v2 = flint + "/identitytoolkit.googleapis.com/v2/accounts";
let session = null;

function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "===".slice((base64.length + 3) % 4)), c => c.charCodeAt(0));
}
function text(buffer) {
  return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
}
async function call(url, body) {
  const response = await fetch(url + "?key=passkey-test", { method: "POST", headers: { "Content-Type": "application/json" },
                                                            body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}
function claims(idToken) {
  return JSON.parse(atob(idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
}
function show(step, status, read) {
  const row = document.createElement("tr");
  row.className = status === 200 ? "ok" : "bad";
  for (const value of [step, String(status), read]) {
    const cell = document.createElement("td");
    cell.textContent = value;
    row.appendChild(cell);
  }
  document.getElementById("rows").appendChild(row);
}
function outcome(step, answer, read) {
  const message = answer.json.error ? answer.json.error.message : read;
  show(step, answer.status, message);
  return { status: answer.status, message: answer.json.error ? answer.json.error.message : null, read: message };
}

const steps = {
  async signUp() {
    const answer = await call(v1 + ":signUp", { email: "passkey@example.com", password: "correct horse battery", returnSecureToken: true });
    session = answer.json;
    return outcome("sign up (email + password)", answer, "localId " + answer.json.localId);
  },
  async enrol() {
    const start = await call(v2 + "/passkeyEnrollment:start", { idToken: session.idToken });
    if (start.status !== 200) return outcome("passkeyEnrollment:start", start, "");
    const options = start.json.credentialCreationOptions;
    const credential = await navigator.credentials.create({ publicKey: {
      ...options, challenge: bytes(options.challenge), user: { ...options.user, id: bytes(options.user.id) },
      excludeCredentials: options.excludeCredentials.map(c => ({ ...c, id: bytes(c.id) })) } });
    const answer = await call(v2 + "/passkeyEnrollment:finalize", { idToken: session.idToken, name: "Virtual authenticator",
      authenticatorRegistrationResponse: { id: credential.id, rawId: text(credential.rawId), type: credential.type,
        authenticatorAttachment: credential.authenticatorAttachment,
        response: { clientDataJSON: text(credential.response.clientDataJSON), attestationObject: text(credential.response.attestationObject),
                    transports: credential.response.getTransports() } } });
    if (answer.status === 200) session = answer.json;
    return outcome("enrol a passkey (rp " + options.rp.id + ")", answer, "credential " + credential.id.slice(0, 12) + "...");
  },
  async lookup() {
    const answer = await call(v1 + ":lookup", { idToken: session.idToken });
    const info = answer.json.users ? answer.json.users[0].passkeyInfo || [] : [];
    const result = outcome("accounts:lookup", answer, "passkeyInfo: " + info.map(p => p.name).join(", "));
    result.passkeys = info.length;
    return result;
  },
  async signOut() {
    const localId = session.localId;
    session = null;
    show("sign out", 200, "tokens forgotten");
    return { status: 200, localId };
  },
  async signIn(label) {
    const start = await call(v2 + "/passkeySignIn:start", {});
    if (start.status !== 200) return outcome("passkeySignIn:start", start, "");
    const options = start.json.credentialRequestOptions;
    const credential = await navigator.credentials.get({ publicKey: {
      challenge: bytes(options.challenge), rpId: options.rpId, userVerification: options.userVerification, allowCredentials: [] } });
    const answer = await call(v2 + "/passkeySignIn:finalize", {
      authenticatorAuthenticationResponse: { id: credential.id, rawId: text(credential.rawId), type: credential.type,
        response: { clientDataJSON: text(credential.response.clientDataJSON), authenticatorData: text(credential.response.authenticatorData),
                    signature: text(credential.response.signature),
                    userHandle: credential.response.userHandle ? text(credential.response.userHandle) : null } } });
    const provider = answer.json.idToken ? claims(answer.json.idToken).firebase.sign_in_provider : null;
    if (answer.status === 200) session = answer.json;
    const result = outcome(label || "sign in with the passkey", answer, "localId " + answer.json.localId + ", sign_in_provider " + provider);
    result.localId = answer.json.localId || null;
    result.provider = provider;
    return result;
  },
};
window.step = async (name, label) => {
  try { return await steps[name](label); } catch (error) { show(name, 0, String(error)); return { status: 0, message: String(error) }; }
};
</script>
</body></html>
"""

CLONE_REFUSED = "INVALID_AUTHENTICATOR_RESPONSE : Signature counter did not increase"


def step(driver, name, label=None):
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.step(arguments[0], arguments[1]).then(done);", name, label)
    print(f"  {name}: {result.get('status')} {result.get('read') or result.get('message') or ''}")
    return result


def virtual_authenticator(driver):
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    driver.add_virtual_authenticator(options)


def decoded(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def main():
    failures = []
    with BrowserRun("passkey browser test", "flint-passkey-test-") as run:
        args, flint_url, page_port = run.args, run.flint_url, free_port()
        run.serve_page(PAGE.replace("__FLINT__", flint_url).encode(), page_port)
        driver = run.browser("1100,700")
        driver.set_script_timeout(30)
        # A secure context: localhost is one over plain http, and it is an authorized domain of a new project.
        driver.get(f"http://localhost:{page_port}/")
        virtual_authenticator(driver)

        def expect(condition, what):
            if not condition:
                failures.append(what)

        signed_up = step(driver, "signUp")
        expect(signed_up["status"] == 200, "sign-up failed")
        enrolled = step(driver, "enrol")
        expect(enrolled["status"] == 200, "enrolment failed")
        credentials = driver.get_credentials()
        expect(len(credentials) == 1 and credentials[0].is_resident_credential, "the authenticator holds no resident credential")
        at_enrolment = credentials[0] if credentials else None
        expect(step(driver, "lookup").get("passkeys") == 1, "accounts:lookup does not list the passkey")
        local_id = step(driver, "signOut")["localId"]
        for attempt in ("first", "second"):
            signed_in = step(driver, "signIn")
            expect(signed_in["status"] == 200, f"{attempt} passkey sign-in failed")
            expect(signed_in.get("localId") == local_id, f"{attempt} passkey sign-in signed in another account")
            expect(signed_in.get("provider") == "passkey", f"{attempt} passkey sign-in: sign_in_provider is not passkey")

        # The clone: the same key in a second authenticator, with the counter it had at enrolment.
        if at_enrolment is not None:
            driver.remove_virtual_authenticator()
            virtual_authenticator(driver)
            driver.add_credential(Credential.create_resident_credential(
                decoded(at_enrolment.id), at_enrolment.rp_id, decoded(at_enrolment.user_handle) if at_enrolment.user_handle else None,
                decoded(at_enrolment.private_key), at_enrolment.sign_count))
            cloned = step(driver, "signIn", "sign in with a clone (counter of enrolment time)")
            expect(cloned["status"] == 400 and (cloned.get("message") or "").startswith(CLONE_REFUSED),
                   f"the cloned authenticator was not refused: {cloned}")

        if args.screenshot:
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            driver.save_screenshot(args.screenshot)
        if failures:
            sys.exit("passkey browser test failed:\n  " + "\n  ".join(failures))
        print("passkey browser test: enrolled, signed in twice with the passkey, and the cloned authenticator was refused")


if __name__ == "__main__":
    main()

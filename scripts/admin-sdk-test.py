#!/usr/bin/env python3
"""Flint against the real Firebase Admin SDK for Python (firebase-admin).

1. `flint admin service-accounts create` writes a service-account file; firebase-admin loads it as its credential and
   `create_custom_token(uid, claims)` signs a custom token with it (RS256, as against Google). A production-mode Flint
   (`--no-dev`) exchanges it for an ID token at `accounts:signInWithCustomToken`; the ID token verifies with Flint's
   published x509 keys through google-auth, the code firebase-admin's verify_id_token runs.
2. Against a dev-mode Flint through FIREBASE_AUTH_EMULATOR_HOST (the only way the SDK addresses another host):
   `create_session_cookie`, then `verify_session_cookie(check_revoked=True)`, which also looks the user up, and after
   `revoke_refresh_tokens` the cookie is refused as revoked. The cookie's RS256 signature is checked with google-auth
   against Flint's session-cookie key URL (`identitytoolkit/v3/relyingparty/publicKeys`), since the SDK skips
   signatures in emulator mode. The SDK's unsigned emulator custom tokens sign in too.
3. The README's recipe for the SDK against a production Flint: named admin credentials (`flint admin tokens create`)
   sent instead of the emulator's `owner`; a read credential reads and is refused writes; calls are logged by name.

Usage: admin-sdk-test.py --flint .build/debug/flint
"""
import argparse
import base64
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

PROJECT = "demo-flint"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def check(condition, message, detail=None):
    """Prints `message` when `condition` holds; fails with it (and `detail`, an answer) otherwise."""
    if not condition:
        raise AssertionError(message if detail is None else f"{message}: {detail}")
    print("ok:", message)


class Flint:
    """`flint serve` on a free loopback port with its own data directory."""

    def __init__(self, binary, data, *flags):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(data, f"flint-{self.port}.log"), "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--data", data, "--project", PROJECT, "--password-hash-cost", "10", *flags],
            stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if self.process.poll() is not None:
                raise RuntimeError("flint serve exited; see " + self.log.name)
            try:
                urllib.request.urlopen(self.base + "/", timeout=1)
                return
            except urllib.error.HTTPError:
                return  # production mode answers / with 404: it listens
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("flint serve did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def signed_custom_tokens(binary, work):
    import firebase_admin
    from firebase_admin import auth, credentials
    import google.auth.transport.requests
    import google.oauth2.id_token

    data = os.path.join(work, "production")
    os.makedirs(data)
    account_file = os.path.join(work, "service-account.json")
    subprocess.run(
        [binary, "admin", "service-accounts", "create", "py-backend", "--project", PROJECT, "--data", data, "--output", account_file],
        check=True)
    flint = Flint(binary, data, "--no-dev", "--admin-token", "bootstrap-secret-for-tests")
    try:
        app = firebase_admin.initialize_app(credentials.Certificate(account_file), name="signed")
        token = auth.create_custom_token("py-user", {"premium": True, "plan": "gold"}, app=app).decode()
        check(claims_of(token)["iss"] == f"py-backend@{PROJECT}.iam.gserviceaccount.com", "the SDK signs as the file's client_email")
        status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                              {"token": token, "returnSecureToken": True})
        check(status == 200, "production Flint accepts the SDK's signed custom token", (status, answer))
        check(answer["isNewUser"] is True, "the account is created")
        request = google.auth.transport.requests.Request()
        certs = f"{flint.base}/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
        claims = google.oauth2.id_token.verify_token(answer["idToken"], request, audience=PROJECT, certs_url=certs)
        check(claims["sub"] == "py-user" and claims["premium"] is True and claims["plan"] == "gold",
              "the ID token verifies with Flint's keys and carries the developer claims")
        check(claims["firebase"]["sign_in_provider"] == "custom", "the session's provider is custom")
        status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                              {"token": token.replace(token[-8:], "AAAAAAAA")})
        check(status == 400 and answer["error"]["message"].startswith("INVALID_CUSTOM_TOKEN"), "a tampered token is INVALID_CUSTOM_TOKEN",
              (status, answer))
        firebase_admin.delete_app(app)
    finally:
        flint.stop()


def session_cookies(binary, work):
    import firebase_admin
    import firebase_admin.exceptions
    from firebase_admin import auth
    import google.auth.transport.requests
    import google.oauth2.id_token

    data = os.path.join(work, "dev")
    os.makedirs(data)
    flint = Flint(binary, data, "--dev")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{flint.port}"
    try:
        app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="emulated")
        unsigned = auth.create_custom_token("cookie-user", app=app).decode()
        status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                              {"token": unsigned, "returnSecureToken": True})
        check(status == 200, "dev-mode Flint accepts the SDK's unsigned emulator custom token", (status, answer))
        id_token = answer["idToken"]

        cookie = auth.create_session_cookie(id_token, expires_in=datetime.timedelta(days=5), app=app)
        cookie = cookie.decode() if isinstance(cookie, bytes) else cookie
        claims = claims_of(cookie)
        check(claims["iss"] == f"https://session.firebase.google.com/{PROJECT}", "create_session_cookie answers a session cookie")
        check(claims["exp"] - claims["iat"] == 5 * 86400, "it lives as long as asked")
        verified = auth.verify_session_cookie(cookie, check_revoked=True, app=app)
        check(verified["uid"] == "cookie-user", "verify_session_cookie(check_revoked=True) accepts it")
        request = google.auth.transport.requests.Request()
        keys = f"{flint.base}/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"
        checked = google.oauth2.id_token.verify_token(cookie, request, audience=PROJECT, certs_url=keys)
        check(checked["sub"] == "cookie-user", "its RS256 signature verifies with Flint's session-cookie keys")

        time.sleep(1.1)  # the SDK compares whole seconds: iat * 1000 < validSince * 1000
        auth.revoke_refresh_tokens("cookie-user", app=app)
        try:
            auth.verify_session_cookie(cookie, check_revoked=True, app=app)
            check(False, "a revoked session's cookie is refused")
        except auth.RevokedSessionCookieError:
            check(True, "after revoke_refresh_tokens, verify_session_cookie(check_revoked=True) says revoked")
        try:
            auth.create_session_cookie(id_token, expires_in=datetime.timedelta(days=5), app=app)
            check(False, "a revoked ID token gets no cookie")
        except firebase_admin.exceptions.FirebaseError as error:
            check("TOKEN_EXPIRED" in str(error), f"a revoked session's ID token gets no cookie: {error}")
        firebase_admin.delete_app(app)
    finally:
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        flint.stop()


def named_admin_credentials(binary, work):
    """The README's recipe for the SDK against a production Flint: emulator mode for the host, a named credential
    instead of `owner` (firebase-admin internals, 7.x)."""
    import firebase_admin
    import firebase_admin.exceptions
    from firebase_admin import _utils, auth

    data = os.path.join(work, "credentials")
    os.makedirs(data)
    secrets = {}
    for name, scope in (("py-writer", "write"), ("py-reader", "read")):
        done = subprocess.run([binary, "admin", "tokens", "create", name, "--scope", scope, "--data", data],
                              check=True, capture_output=True, text=True)
        secrets[name] = done.stdout.strip()
    flint = Flint(binary, data, "--no-dev", "--admin-token", "bootstrap-secret-for-tests")
    original = _utils.EmulatorAdminCredentials
    current = {}

    class FlintAdminCredential(original):
        """Sends a named Flint admin credential instead of the emulator's `owner`."""

        def __init__(self):
            super().__init__()
            self.token = current["secret"]

    _utils.EmulatorAdminCredentials = FlintAdminCredential
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{flint.port}"
    try:
        current["secret"] = secrets["py-writer"]
        writer = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="writer")
        created = auth.create_user(uid="managed", email="managed@example.com", app=writer)
        check(created.uid == "managed", "a write credential creates a user through the SDK against production Flint")
        current["secret"] = secrets["py-reader"]
        reader = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="reader")
        check(auth.get_user("managed", app=reader).email == "managed@example.com", "a read credential reads")
        try:
            auth.update_user("managed", display_name="Nope", app=reader)
            check(False, "a read credential cannot write")
        except auth.InsufficientPermissionError:
            check(True, "a read credential's write is InsufficientPermissionError")
        with open(flint.log.name) as log:
            text = log.read()
        check("credential=py-writer" in text and "credential=py-reader" in text, "Flint logs each call with the credential's name")
        check(all(secret not in text for secret in secrets.values()), "and never its secret")
        firebase_admin.delete_app(writer)
        firebase_admin.delete_app(reader)
    finally:
        _utils.EmulatorAdminCredentials = original
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        flint.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flint-admin-sdk-")
    try:
        signed_custom_tokens(os.path.abspath(args.flint), work)
        session_cookies(os.path.abspath(args.flint), work)
        named_admin_credentials(os.path.abspath(args.flint), work)
    except Exception:
        for name in sorted(os.listdir(work)):
            for root, _, files in os.walk(os.path.join(work, name)):
                for file in files:
                    if file.endswith(".log"):
                        print(f"--- {os.path.join(root, file)}", file=sys.stderr)
                        print(open(os.path.join(root, file)).read()[-4000:], file=sys.stderr)
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("admin SDK test passed")


if __name__ == "__main__":
    main()

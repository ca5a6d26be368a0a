#!/usr/bin/env python3
"""`flint admin-bridge` end to end: the real firebase-admin for Python, unpatched, against a production-mode Flint
behind TLS.

A certificate authority and a server certificate for 127.0.0.1 are made with openssl; `flint serve --no-dev` sits
behind a TLS terminator (Flint serves plain HTTP and is put behind a TLS proxy in production; here a small Python one)
that presents that certificate. `flint admin tokens create bridge-writer` makes a named admin credential whose secret
the bridge reads from a file; `flint admin-bridge --upstream https://127.0.0.1:PORT --ca-file ca.pem` listens on
loopback, and the SDK, with FIREBASE_AUTH_EMULATOR_HOST pointed at the bridge, creates, gets, updates, lists and
deletes users, sets custom claims, revokes refresh tokens, and a custom token (signed with a Flint service-account
file) signs in and refreshes through the bridge. Firebase's errors arrive as the SDK's own exceptions; the emulator's
dev-only routes are refused; Flint's log and audit log name the credential; a bridge without the CA file refuses the
upstream's certificate; a non-loopback listener is refused without --allow-non-loopback.

Usage: admin-bridge-test.py --flint .build/debug/flint
"""
import argparse
import json
import os
import select
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from flint_testkit import PROJECT, Flint, check, free_port, post


def make_certificates(work):
    """A CA and a server certificate for 127.0.0.1 / localhost signed by it (openssl)."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    ca_key, ca, key, csr, cert = (os.path.join(work, name) for name in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=Flint test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1")
    extensions = os.path.join(work, "server.ext")
    with open(extensions, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", extensions)
    return ca, cert, key


class TLSTerminator:
    """Accepts TLS on a free loopback port and relays each connection's bytes to Flint's plain HTTP port."""

    def __init__(self, cert, key, target_port):
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert, key)
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.relay, args=(raw,), daemon=True).start()

    def relay(self, raw):
        try:
            client = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()  # a client that does not trust the certificate gives up in the handshake
            return
        upstream = socket.create_connection(("127.0.0.1", self.target_port))
        sockets = [client, upstream]
        try:
            while True:
                readable = [client] if client.pending() else select.select(sockets, [], [], 30)[0]
                if not readable:
                    return
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is client else client).sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def stop(self):
        self.listener.close()


class Bridge:
    """`flint admin-bridge` on a free loopback port."""

    def __init__(self, binary, work, name, *flags, env=None):
        self.port = free_port()
        self.log = open(os.path.join(work, f"bridge-{name}.log"), "w")
        self.process = subprocess.Popen([binary, "admin-bridge", "--port", str(self.port), *flags], stdout=self.log,
                                        stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        for _ in range(300):
            if self.process.poll() is not None:
                raise RuntimeError("flint admin-bridge exited; see " + self.log.name)
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("flint admin-bridge did not start")

    def get(self, path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()
        with open(self.log.name) as f:
            return f.read()


def run(binary, work):
    import firebase_admin
    from firebase_admin import auth, credentials

    ca, cert, key = make_certificates(work)
    data = os.path.join(work, "production")
    os.makedirs(data)
    secret = subprocess.run([binary, "admin", "tokens", "create", "bridge-writer", "--data", data],
                            check=True, capture_output=True, text=True).stdout.strip()
    secret_file = os.path.join(work, "bridge-writer.secret")
    with open(os.open(secret_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
        f.write(secret + "\n")
    account_file = os.path.join(work, "service-account.json")
    subprocess.run([binary, "admin", "service-accounts", "create", "bridge-backend", "--project", PROJECT, "--data", data,
                    "--output", account_file], check=True, capture_output=True)

    # Custom tokens are signed outside emulator mode: under FIREBASE_AUTH_EMULATOR_HOST the SDKs make unsigned ones,
    # which a production Flint refuses.
    signer = firebase_admin.initialize_app(credentials.Certificate(account_file), name="signer")
    custom_token = auth.create_custom_token("bridge-custom", {"plan": "gold"}, app=signer).decode()

    flint = Flint(binary, data, "--no-dev", "--admin-token", "bootstrap-secret-for-tests")
    tls = TLSTerminator(cert, key, flint.port)
    upstream = f"https://127.0.0.1:{tls.port}"
    bridge = Bridge(binary, work, "main", "--upstream", upstream, "--ca-file", ca, "--credential-file", secret_file,
                    "--log-level", "debug")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{bridge.port}"
    try:
        app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="bridged")

        created = auth.create_user(uid="bridged-1", email="ada@example.com", password="correct horse", display_name="Ada", app=app)
        check(created.uid == "bridged-1" and created.email == "ada@example.com", "create_user through the bridge")
        auth.create_user(uid="bridged-2", email="grace@example.com", app=app)
        check(auth.get_user("bridged-1", app=app).display_name == "Ada", "get_user")
        check(auth.get_user_by_email("grace@example.com", app=app).uid == "bridged-2", "get_user_by_email")
        updated = auth.update_user("bridged-1", display_name="Ada L.", email_verified=True, app=app)
        check(updated.display_name == "Ada L." and updated.email_verified, "update_user")
        auth.set_custom_user_claims("bridged-1", {"admin": True, "level": 3}, app=app)
        check(auth.get_user("bridged-1", app=app).custom_claims == {"admin": True, "level": 3}, "set_custom_user_claims")
        try:
            auth.create_user(uid="bridged-1", app=app)
            check(False, "a taken uid is refused")
        except auth.UidAlreadyExistsError:
            check(True, "Flint's DUPLICATE_LOCAL_ID arrives unchanged: the SDK raises UidAlreadyExistsError")

        status, answer = post(f"http://127.0.0.1:{bridge.port}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                              {"token": custom_token, "returnSecureToken": True})
        check(status == 200 and answer["isNewUser"], "a signed custom token signs in through the bridge (a client call, no credential added)",
              (status, answer))
        claims = auth.verify_id_token(answer["idToken"], app=app)
        check(claims["uid"] == "bridge-custom" and claims["plan"] == "gold", "verify_id_token reads it (emulator mode: no signature check)")
        status, refreshed = post(f"http://127.0.0.1:{bridge.port}/securetoken.googleapis.com/v1/token?key=k",
                                 {"grant_type": "refresh_token", "refresh_token": answer["refreshToken"]})
        check(status == 200 and refreshed["user_id"] == "bridge-custom", "the refresh token works through the bridge's securetoken path",
              (status, refreshed))

        page = auth.list_users(max_results=2, app=app)
        check(len(page.users) == 2 and page.has_next_page, "list_users pages (2 per page)")
        listed = sorted(user.uid for user in page.iterate_all())
        check(listed == ["bridge-custom", "bridged-1", "bridged-2"], f"list_users walks every page: {listed}")

        # (Whether the session's refresh tokens end is Flint's rule, tested with Flint; here: the SDK's call went through.)
        revoked_at = time.time()
        auth.revoke_refresh_tokens("bridge-custom", app=app)
        after = auth.get_user("bridge-custom", app=app).tokens_valid_after_timestamp
        check(after is not None and abs(after / 1000 - revoked_at) < 60, "revoke_refresh_tokens sets tokensValidAfterTime to now", after)

        auth.delete_user("bridged-2", app=app)
        try:
            auth.get_user("bridged-2", app=app)
            check(False, "a deleted user is gone")
        except auth.UserNotFoundError:
            check(True, "delete_user; then Flint's USER_NOT_FOUND arrives as the SDK's UserNotFoundError")

        status, answer = bridge.get(f"/emulator/v1/projects/{PROJECT}/verificationCodes")
        check(status == 404 and answer["error"]["message"].startswith("EMULATOR_ONLY_ROUTE : "), "dev-only /emulator routes are refused", answer)
        status, answer = bridge.get("/console")
        check(status == 404, "paths outside the API are not forwarded", answer)
        firebase_admin.delete_app(app)
    finally:
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        bridge_log = bridge.stop()

    try:
        check("forwarded" in bridge_log and "status=200" in bridge_log, "the bridge logs each forwarded call at debug")
        check(secret not in bridge_log, "the bridge never logs the secret")
        with open(flint.log.name) as f:
            flint_log = f.read()
        check("credential=bridge-writer" in flint_log and secret not in flint_log, "Flint logs the calls under the credential's name")
        listing = subprocess.run([binary, "audit", "list", "--kind", "ADMIN_ACTION", "--json", "--data", data],
                                 check=True, capture_output=True, text=True).stdout
        events = json.loads(listing).get("auditEvents", [])
        check(events and all(event.get("actor") == "bridge-writer" for event in events),
              f"the audit log's ADMIN_ACTION events name the credential ({len(events)} events)", listing[:400])
        check(all(event.get("ip") == "127.0.0.1" for event in events), "and record the bridge host's address (no X-Forwarded-For)")

        # No CA file: the upstream's private certificate does not verify against the system's roots.
        untrusting = Bridge(binary, work, "untrusting", "--upstream", upstream, "--timeout", "3", env={"FLINT_ADMIN_SECRET": secret})
        status, answer = untrusting.get(f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/config")
        untrusting.stop()
        check(status == 502 and answer["error"]["message"].startswith("UPSTREAM_UNAVAILABLE : "),
              "without --ca-file the private CA's certificate is refused (502 UPSTREAM_UNAVAILABLE)", answer)

        refused = subprocess.run([binary, "admin-bridge", "--host", "0.0.0.0", "--port", str(free_port()), "--upstream", upstream],
                                 capture_output=True, text=True, env={**os.environ, "FLINT_ADMIN_SECRET": secret}, timeout=60)
        check(refused.returncode != 0 and "--allow-non-loopback" in refused.stderr, "a non-loopback listener is refused without --allow-non-loopback",
              refused.stderr)
        missing = subprocess.run([binary, "admin-bridge", "--port", str(free_port()), "--upstream", upstream], capture_output=True, text=True,
                                 env={k: v for k, v in os.environ.items() if not k.startswith("FLINT_ADMIN_SECRET")}, timeout=60)
        check(missing.returncode != 0 and "FLINT_ADMIN_SECRET" in missing.stderr, "no credential: the bridge says where to give it",
              missing.stderr)
    finally:
        tls.stop()
        flint.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    args = parser.parse_args()
    binary = os.path.abspath(args.flint)
    work = tempfile.mkdtemp(prefix="flint-admin-bridge-")
    try:
        run(binary, work)
    except Exception:
        print(f"admin bridge test FAILED; logs in {work}", file=sys.stderr)
        raise
    shutil.rmtree(work, ignore_errors=True)
    print("admin bridge test passed")


if __name__ == "__main__":
    main()

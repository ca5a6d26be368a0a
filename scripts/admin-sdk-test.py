#!/usr/bin/env python3
"""The real Firebase Admin SDK for Python (`firebase-admin`) manages Flint's users: a `flint serve --dev` on a free
port, FIREBASE_AUTH_EMULATOR_HOST pointing at it, then create_user, list_users paging, get_users by every identifier
kind, update_user with custom claims, second factors set through the SDK's own HTTP client (the Python SDK has no
MFA API), revoke_refresh_tokens, an email sign-in link, delete_users with and without force, and an unknown admin
path, each checked the way the SDK reads Flint's answers.

Usage: admin-sdk-test.py --flint .build/debug/flint
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import firebase_admin
from firebase_admin import auth, exceptions

PROJECT = "demo-flint"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, process, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"flint exited early with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("flint did not become ready")


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok - {what}")


def sign_in_with_password(host, email, password):
    """A client's password sign-in over REST (what an app does), so the account gets lastRefreshAt."""
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=admin-sdk-test",
        data=json.dumps({"email": email, "password": password, "returnSecureToken": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def run(host):
    app = firebase_admin.initialize_app(options={"projectId": PROJECT})
    client = auth._get_client(app)  # the SDK's own authorized HTTP client, for calls the Python SDK has no method for

    uids = [f"user{i:02d}" for i in range(25)]
    for i, uid in enumerate(uids):
        fields = {"uid": uid, "display_name": f"User {i}"}
        if i % 2 == 0:
            fields.update(email=f"{uid}@example.com", password="correct horse")
        if i % 5 == 0:
            fields["phone_number"] = f"+1650555{1000 + i}"
        auth.create_user(**fields)
    check(True, "create_user made 25 accounts")

    page = auth.list_users(max_results=10)
    check(len(page.users) == 10 and page.has_next_page, "list_users answers a first page of 10 with a next page")
    listed = [user.uid for user in page.iterate_all()]
    check(listed == sorted(uids), "iterate_all pages through every account once, in uid order")
    with_password = [user for user in auth.list_users(max_results=1000).users if user.email]
    check(
        all(user.password_hash and user.password_salt for user in with_password),
        "listed password accounts carry password_hash and password_salt",
    )

    result = auth.get_users(
        [
            auth.UidIdentifier("user01"),
            auth.EmailIdentifier("user02@example.com"),
            auth.PhoneIdentifier("+16505551005"),
            auth.ProviderIdentifier("google.com", "nobody-there"),
            auth.UidIdentifier("no-such-user"),
        ]
    )
    check(sorted(user.uid for user in result.users) == ["user01", "user02", "user05"], "get_users finds by uid, email and phone")
    check(len(result.not_found) == 2, "get_users reports the provider identity and the unknown uid as not found")

    auth.update_user("user03", custom_claims={"admin": True, "level": 3}, display_name="Ada", disabled=True)
    user = auth.get_user("user03")
    check(user.custom_claims == {"admin": True, "level": 3} and user.display_name == "Ada" and user.disabled, "update_user sets claims, name, disabled")
    auth.set_custom_user_claims("user03", None)
    check(auth.get_user("user03").custom_claims is None, "set_custom_user_claims(None) removes the claims")
    try:
        auth.set_custom_user_claims("user03", {"n": "é" * 600})
        check(False, "claims over 1000 bytes are refused")
    except (ValueError, exceptions.InvalidArgumentError):
        check(True, "claims over 1000 bytes are refused")

    enrollments = [{"mfaEnrollmentId": "mfaUid1", "phoneInfo": "+16505550001", "displayName": "Work", "enrolledAt": "2016-10-12T01:31:45Z"}]
    client._user_manager._make_request("post", "/accounts:update", json={"localId": "user04", "mfa": {"enrollments": enrollments}})
    factors = auth.get_user("user04")._data.get("mfaInfo", [])
    check([f["mfaEnrollmentId"] for f in factors] == ["mfaUid1"] and factors[0]["phoneInfo"] == "+16505550001", "update with mfa.enrollments sets second factors")
    client._user_manager._make_request("post", "/accounts:update", json={"localId": "user04", "mfa": {}})
    check("mfaInfo" not in auth.get_user("user04")._data, "update with mfa: {} removes them")

    sign_in_with_password(host, "user06@example.com", "correct horse")
    check(auth.get_user("user06").user_metadata.last_refresh_timestamp is not None, "a sign-in sets lastRefreshAt at once")
    auth.revoke_refresh_tokens("user06")
    check(auth.get_user("user06").tokens_valid_after_timestamp > 0, "revoke_refresh_tokens moves validSince")

    link = auth.generate_sign_in_with_email_link("user08@example.com", auth.ActionCodeSettings(url="http://localhost/done"))
    check("oobCode=" in link, "generate_sign_in_with_email_link works without handle_code_in_app")

    # auth.delete_users always forces; the batchDelete call without force is the SDK's user manager's.
    refused = client._user_manager.delete_users(["user10", "user11"], force_delete=False)
    check(len(refused.errors) == 2 and refused.errors[0].index == 0, "batchDelete without force refuses enabled accounts, per user")
    deleted = auth.delete_users(uids[10:])
    check(deleted.success_count == 15 and deleted.failure_count == 0, "delete_users (which forces) deletes enabled accounts")
    check(len(list(auth.list_users().iterate_all())) == 10, "the deleted accounts are gone from list_users")

    try:
        client._user_manager._make_request("get", "/accounts:nothingHere")
        check(False, "an unknown admin path is an error")
    except exceptions.NotFoundError as error:
        check("Not Found" in str(error) or error.http_response.status_code == 404, "an unknown admin path is a NotFoundError the SDK reads")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flint-admin-sdk-")
    port = free_port()
    log = open(os.path.join(work, "flint.log"), "w")
    flint = subprocess.Popen(
        [args.flint, "serve", "--port", str(port), "--data", os.path.join(work, "data"), "--dev"], stdout=log, stderr=subprocess.STDOUT
    )
    try:
        wait_ready(f"http://127.0.0.1:{port}/", flint)
        host = f"127.0.0.1:{port}"
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
        run(host)
        print("admin SDK test: all checks passed")
    except BaseException:
        log.flush()
        with open(os.path.join(work, "flint.log")) as f:
            sys.stderr.write(f.read()[-4000:])
        raise
    finally:
        flint.terminate()
        flint.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

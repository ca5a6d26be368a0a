#!/usr/bin/env python3
"""Flint's blocking functions against the real firebase-functions handlers (PyPI's `firebase-functions`).

Two functions written as a Firebase app writes them — `identity_fn.before_user_created` refuses one domain and names
and tags the others, `identity_fn.before_user_signed_in` adds a session claim — are served by Flask on loopback and
set as the project's beforeCreate and beforeSignIn triggers. Sign-ups and sign-ins then go through a built `flint`:

1. in emulator mode (FIREBASE_AUTH_EMULATOR_HOST set: the library skips the JWT's signature, as against the Firebase
   emulator);
2. with signature checks on: the library verifies the JWT (RS256, `kid`, `iss`, an `aud` holding `run.app`, as it
   demands) against Flint's x509 key URL in place of Google's.

Usage: blocking-functions-test.py --flint .build/debug/flint
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import urllib.error
import urllib.request

from flint_testkit import PROJECT, Flint, check, claims_of, free_port, post

import firebase_admin
from firebase_admin import _token_gen
from firebase_functions import https_fn, identity_fn
from flask import Flask, request
from werkzeug.serving import make_server


@identity_fn.before_user_created()
def before_create(event: identity_fn.AuthBlockingEvent) -> identity_fn.BeforeCreateResponse | None:
    email = event.data.email or ""
    if email.endswith("@blocked.example"):
        raise https_fn.HttpsError(code=https_fn.FunctionsErrorCode.INVALID_ARGUMENT, message="Unauthorized email")
    return identity_fn.BeforeCreateResponse(display_name="Checked " + email, custom_claims={"role": "staff"})


@identity_fn.before_user_signed_in()
def before_sign_in(event: identity_fn.AuthBlockingEvent) -> identity_fn.BeforeSignInResponse | None:
    return identity_fn.BeforeSignInResponse(
        session_claims={"signedInWith": event.additional_user_info.provider_id, "wasNamed": event.data.display_name or ""})


def serve_functions():
    """The functions on a free loopback port (paths hold `run.app`, which the library wants in `aud`)."""
    app = Flask("functions")
    app.add_url_rule("/run.app/beforeCreate", "beforeCreate", lambda: before_create(request), methods=["POST"])
    app.add_url_rule("/run.app/beforeSignIn", "beforeSignIn", lambda: before_sign_in(request), methods=["POST"])
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/run.app"


def configure(flint, functions):
    """Sets the two functions as the project's triggers."""
    status, answer = flint_admin(flint, "PATCH", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/config?updateMask=blockingFunctions", {
        "blockingFunctions": {"triggers": {
            "beforeCreate": {"functionUri": functions + "/beforeCreate"},
            "beforeSignIn": {"functionUri": functions + "/beforeSignIn"},
        }}})
    check(status == 200, "blocking functions configured", answer)


def flint_admin(flint, method, path, body):
    """An operator call with dev mode's `Bearer owner`."""
    req = urllib.request.Request(flint.base + path, data=json.dumps(body).encode(), method=method,
                                 headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def sign_ups(flint, label, domain):
    """A refused sign-up, an allowed one with both functions' changes, and a returning sign-in."""
    signup = f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test"
    status, refused = post(signup, {"email": "eve@blocked.example", "password": "correct horse", "returnSecureToken": True})
    message = refused.get("error", {}).get("message", "")
    check(status == 400 and message.startswith("BLOCKING_FUNCTION_ERROR_RESPONSE") and "Unauthorized email" in message,
          f"{label}: before_user_created's HttpsError refuses the sign-up with its message", refused)
    email = f"ada@{domain}"
    status, created = post(signup, {"email": email, "password": "correct horse", "returnSecureToken": True})
    check(status == 200, f"{label}: an allowed sign-up succeeds", created)
    claims = claims_of(created["idToken"])
    check(claims.get("name") == "Checked " + email and claims.get("role") == "staff",
          f"{label}: before_user_created's display name and custom claims are in the ID token", claims)
    check(claims.get("signedInWith") == "password" and claims.get("wasNamed") == "Checked " + email,
          f"{label}: before_user_signed_in ran after it, told of the account as before_user_created left it", claims)
    status, signed_in = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=test",
                             {"email": email, "password": "correct horse", "returnSecureToken": True})
    check(status == 200 and claims_of(signed_in["idToken"]).get("signedInWith") == "password",
          f"{label}: a returning sign-in calls before_user_signed_in", signed_in)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flint-blocking-")
    server, functions = serve_functions()
    flint = Flint(args.flint, work, "--dev")
    try:
        configure(flint, functions)
        firebase_admin.initialize_app(options={"projectId": PROJECT})
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{flint.port}"
        sign_ups(flint, "emulator mode", "emulated.example")
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        _token_gen.ID_TOKEN_CERT_URI = (
            f"{flint.base}/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")
        sign_ups(flint, "signatures checked", "signed.example")
        print("blocking functions test passed")
    except Exception:
        print("flint log:", open(flint.log.name).read()[-4000:], file=sys.stderr)
        raise
    finally:
        flint.stop()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

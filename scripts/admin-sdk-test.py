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
3. The recipe (docs/admin.md) for the SDK against a production Flint: named admin credentials (`flint admin tokens create`)
   sent instead of the emulator's `owner`; a read credential reads and is refused writes; calls are logged by name.
4. User management through FIREBASE_AUTH_EMULATOR_HOST: list_users paging, get_users by every identifier kind,
   update_user with custom claims, second factors through the SDK's own HTTP client, revoke_refresh_tokens, an email
   sign-in link, delete_users with and without force, an unknown admin path; import_users of users with federated
   providers (provider_data, get_users by ProviderIdentifier, a taken raw ID), linkProviderUserInfo through the SDK's
   HTTP client (the Python SDK has no provider_to_link) and update_user(providers_to_delete=...).

Usage: admin-sdk-test.py --flint .build/debug/flint
"""
import argparse
import base64
import datetime
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from flint_testkit import PROJECT, Flint, check, claims_of, free_port, post  # noqa: E402,F401


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
        # The PyJWT recipe for backends (docs/moving-from-firebase.md), as written there.
        import jwt
        jwks = jwt.PyJWKClient(f"{flint.base}/.well-known/jwks.json")
        key = jwks.get_signing_key_from_jwt(answer["idToken"])
        decoded = jwt.decode(answer["idToken"], key.key, algorithms=["RS256"], audience=PROJECT,
                             issuer=f"https://securetoken.google.com/{PROJECT}")
        check(decoded["sub"] == "py-user", "the PyJWT recipe of docs/moving-from-firebase.md verifies the ID token with Flint's JWKS")
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
    """The recipe (docs/admin.md) for the SDK against a production Flint: emulator mode for the host, a named credential
    instead of `owner` (firebase-admin internals, 7.x)."""
    import firebase_admin
    import firebase_admin.exceptions
    from firebase_admin import _utils, auth, credentials, tenant_mgt

    data = os.path.join(work, "credentials")
    os.makedirs(data)
    secrets = {}
    for name, scope in (("py-writer", "write"), ("py-reader", "read")):
        done = subprocess.run([binary, "admin", "tokens", "create", name, "--scope", scope, "--data", data],
                              check=True, capture_output=True, text=True)
        secrets[name] = done.stdout.strip()
    # A credential limited to one tenant (flint admin tokens create --tenant): auth_for_tenant of it, and nothing else.
    made = subprocess.run([binary, "tenants", "create", "py-limited", "--allow-password-signup", "--data", data],
                          check=True, capture_output=True, text=True)
    tenant = re.search(r"tenants/(py-limited-[a-z0-9]{5})", made.stdout).group(1)
    done = subprocess.run([binary, "admin", "tokens", "create", "py-tenant", "--tenant", tenant, "--data", data],
                          check=True, capture_output=True, text=True)
    secrets["py-tenant"] = done.stdout.strip()
    flint = Flint(binary, data, "--no-dev", "--admin-token", "bootstrap-secret-for-tests")
    original = _utils.EmulatorAdminCredentials
    current = {}

    class FlintAdminCredential(original):
        """Sends a named Flint admin credential instead of the emulator's `owner`."""

        def __init__(self):
            super().__init__()
            self.token = current["secret"]

    class NamedCredential(credentials.Base):
        def get_credential(self):
            return FlintAdminCredential()

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
        current["secret"] = secrets["py-tenant"]
        # tenant_mgt's service wants the app's own credential (7.x): the same named one.
        limited = firebase_admin.initialize_app(NamedCredential(), options={"projectId": PROJECT}, name="limited")
        in_tenant = tenant_mgt.auth_for_tenant(tenant, app=limited)
        in_tenant.create_user(uid="tenant-user", email="tenant-user@example.com")
        check(in_tenant.get_user("tenant-user").tenant_id == tenant, "a credential limited to a tenant manages its users (auth_for_tenant)")
        try:
            auth.get_user("managed", app=limited)
            check(False, "a credential limited to a tenant cannot read the project's users")
        except auth.InsufficientPermissionError:
            check(True, "a credential limited to a tenant is refused the project's users (InsufficientPermissionError)")
        firebase_admin.delete_app(writer)
        firebase_admin.delete_app(reader)
        firebase_admin.delete_app(limited)
    finally:
        _utils.EmulatorAdminCredentials = original
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        flint.stop()


def sign_in_with_password(host, email, password, tenant=None):
    """A client's password sign-in over REST (what an app does), so the account gets lastRefreshAt; in `tenant` if given."""
    body = {"email": email, "password": password, "returnSecureToken": True}
    if tenant:
        body["tenantId"] = tenant
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=admin-sdk-test",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def user_management(binary, work):
    """list_users paging, get_users by every identifier kind, update_user with claims and second factors,
    revoke_refresh_tokens, an email sign-in link, delete_users with and without force, an unknown admin path; through
    FIREBASE_AUTH_EMULATOR_HOST against a dev-mode Flint."""
    data = os.path.join(work, "users")
    os.makedirs(data)
    flint = Flint(binary, data, "--dev")
    host = f"127.0.0.1:{flint.port}"
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
    try:
        manage_users(host)
    finally:
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        flint.stop()


def manage_users(host):
    import firebase_admin
    from firebase_admin import auth, exceptions

    app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="users")
    client = auth._get_client(app)  # the SDK's own authorized HTTP client, for calls the Python SDK has no method for

    uids = [f"user{i:02d}" for i in range(25)]
    for i, uid in enumerate(uids):
        fields = {"uid": uid, "display_name": f"User {i}"}
        if i % 2 == 0:
            fields.update(email=f"{uid}@example.com", password="correct horse")
        if i % 5 == 0:
            fields["phone_number"] = f"+1650555{1000 + i}"
        auth.create_user(**fields, app=app)
    check(True, "create_user made 25 accounts")

    page = auth.list_users(max_results=10, app=app)
    check(len(page.users) == 10 and page.has_next_page, "list_users answers a first page of 10 with a next page")
    listed = [user.uid for user in page.iterate_all()]
    check(listed == sorted(uids), "iterate_all pages through every account once, in uid order")
    with_password = [user for user in auth.list_users(max_results=1000, app=app).users if user.email]
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
        ],
        app=app,
    )
    check(sorted(user.uid for user in result.users) == ["user01", "user02", "user05"], "get_users finds by uid, email and phone")
    check(len(result.not_found) == 2, "get_users reports the provider identity and the unknown uid as not found")

    auth.update_user("user03", custom_claims={"admin": True, "level": 3}, display_name="Ada", disabled=True, app=app)
    user = auth.get_user("user03", app=app)
    check(user.custom_claims == {"admin": True, "level": 3} and user.display_name == "Ada" and user.disabled, "update_user sets claims, name, disabled")
    auth.set_custom_user_claims("user03", None, app=app)
    check(auth.get_user("user03", app=app).custom_claims is None, "set_custom_user_claims(None) removes the claims")
    try:
        auth.set_custom_user_claims("user03", {"n": "é" * 600}, app=app)
        check(False, "claims over 1000 bytes are refused")
    except (ValueError, exceptions.InvalidArgumentError):
        check(True, "claims over 1000 bytes are refused")

    enrollments = [{"mfaEnrollmentId": "mfaUid1", "phoneInfo": "+16505550001", "displayName": "Work", "enrolledAt": "2016-10-12T01:31:45Z"}]
    client._user_manager._make_request("post", "/accounts:update", json={"localId": "user04", "mfa": {"enrollments": enrollments}})
    factors = auth.get_user("user04", app=app)._data.get("mfaInfo", [])
    check([f["mfaEnrollmentId"] for f in factors] == ["mfaUid1"] and factors[0]["phoneInfo"] == "+16505550001", "update with mfa.enrollments sets second factors")
    client._user_manager._make_request("post", "/accounts:update", json={"localId": "user04", "mfa": {}})
    check("mfaInfo" not in auth.get_user("user04", app=app)._data, "update with mfa: {} removes them")

    sign_in_with_password(host, "user06@example.com", "correct horse")
    check(auth.get_user("user06", app=app).user_metadata.last_refresh_timestamp is not None, "a sign-in sets lastRefreshAt at once")
    auth.revoke_refresh_tokens("user06", app=app)
    check(auth.get_user("user06", app=app).tokens_valid_after_timestamp > 0, "revoke_refresh_tokens moves validSince")

    link = auth.generate_sign_in_with_email_link("user08@example.com", auth.ActionCodeSettings(url="http://localhost/done"), app=app)
    check("oobCode=" in link, "generate_sign_in_with_email_link works without handle_code_in_app")

    # auth.delete_users always forces; the batchDelete call without force is the SDK's user manager's.
    refused = client._user_manager.delete_users(["user10", "user11"], force_delete=False)
    check(len(refused.errors) == 2 and refused.errors[0].index == 0, "batchDelete without force refuses enabled accounts, per user")
    deleted = auth.delete_users(uids[10:], app=app)
    check(deleted.success_count == 15 and deleted.failure_count == 0, "delete_users (which forces) deletes enabled accounts")
    check(len(list(auth.list_users(app=app).iterate_all())) == 10, "the deleted accounts are gone from list_users")

    try:
        client._user_manager._make_request("get", "/accounts:nothingHere")
        check(False, "an unknown admin path is an error")
    except exceptions.NotFoundError as error:
        check("Not Found" in str(error) or error.http_response.status_code == 404, "an unknown admin path is a NotFoundError the SDK reads")

    remove_phone_and_provider(app, auth)
    import_and_sign_in(host, app, auth)
    federated_identities(app, auth, exceptions)
    firebase_admin.delete_app(app)


def remove_phone_and_provider(app, auth):
    """update_user(phone_number=DELETE_ATTRIBUTE) and providers_to_delete, as the SDK sends them."""
    auth.create_user(uid="phoned", phone_number="+16505550177", email="phoned@example.com", app=app)
    auth.update_user("phoned", phone_number=auth.DELETE_ATTRIBUTE, app=app)
    user = auth.get_user("phoned", app=app)
    check(user.phone_number is None and all(p.provider_id != "phone" for p in user.provider_data), "phone_number=DELETE_ATTRIBUTE removes the number")
    auth.update_user("phoned", phone_number="+16505550178", app=app)
    auth.update_user("phoned", providers_to_delete=["phone"], app=app)
    check(auth.get_user("phoned", app=app).phone_number is None, "providers_to_delete=['phone'] removes it too")


def firebase_scrypt(password, salt, key, separator, rounds, mem_cost):
    """Firebase's modified scrypt, computed here with hashlib and `cryptography` (AES-256-CTR, zero IV)."""
    import hashlib
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    derived = hashlib.scrypt(password.encode(), salt=salt + separator, n=2**mem_cost, r=rounds, p=1, dklen=64, maxmem=2**26)
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CTR(b"\0" * 16)).encryptor()
    return encryptor.update(key) + encryptor.finalize()


def import_and_sign_in(host, app, auth):
    """import_users with Firebase scrypt hashes and with PBKDF2-SHA256 ones, made here independently of Flint; the
    users then sign in with their passwords (twice: the first sign-in re-hashes with Flint's own scrypt)."""
    import hashlib

    key, separator = b"flint-admin-sdk-signer-key-0123", b"\x01"
    users = [
        auth.ImportUserRecord(
            uid=f"scrypt{i}", email=f"scrypt{i}@example.com", password_salt=f"salt-{i}".encode(),
            password_hash=firebase_scrypt(f"imported password {i}", f"salt-{i}".encode(), key, separator, 8, 14))
        for i in range(3)
    ]
    result = auth.import_users(
        users, hash_alg=auth.UserImportHash.scrypt(key=key, salt_separator=separator, rounds=8, memory_cost=14), app=app)
    check(result.success_count == 3 and result.failure_count == 0, "import_users with Firebase scrypt hashes")
    pbkdf2 = [
        auth.ImportUserRecord(
            uid="pbkdf2", email="pbkdf2@example.com", password_salt=b"pepper",
            password_hash=hashlib.pbkdf2_hmac("sha256", b"another password", b"pepper", 1000, 32)),
        auth.ImportUserRecord(uid="scrypt0", email="clash@example.com"),
    ]
    result = auth.import_users(pbkdf2, hash_alg=auth.UserImportHash.pbkdf2_sha256(rounds=1000), app=app)
    check(result.success_count == 1 and [e.index for e in result.errors] == [1], f"a taken uid is a per-user error: {[e.reason for e in result.errors]}")
    for email, password in (("scrypt1@example.com", "imported password 1"), ("pbkdf2@example.com", "another password")):
        for attempt in ("first", "second"):
            answer = sign_in_with_password(host, email, password)
            check(bool(answer.get("idToken")), f"{email} signs in with the imported hash ({attempt} time)")
    try:
        sign_in_with_password(host, "scrypt2@example.com", "wrong password")
        check(False, "a wrong password is refused")
    except urllib.error.HTTPError as error:
        check(error.code == 400 and b"INVALID_LOGIN_CREDENTIALS" in error.read(), "a wrong password against an imported hash is refused")


def federated_identities(app, auth, exceptions):
    """import_users with Google, Apple and GitHub providers (a user may have nothing else); get_user's provider_data,
    lookups by ProviderIdentifier, a raw ID taken by another account, update_user with provider_to_link and
    providers_to_delete."""
    users = [
        auth.ImportUserRecord(
            uid="googler", email="googler@example.com",
            provider_data=[
                auth.UserProvider(uid="g-1093", provider_id="google.com", email="googler@gmail.com", display_name="Googler", photo_url="https://example.com/g.png"),
            ]),
        auth.ImportUserRecord(uid="appler", provider_data=[auth.UserProvider(uid="001.apple", provider_id="apple.com")]),
    ]
    result = auth.import_users(users, app=app)
    check(result.success_count == 2 and result.failure_count == 0, f"import_users with federated providers: {[e.reason for e in result.errors]}")
    google = [p for p in auth.get_user("googler", app=app).provider_data if p.provider_id == "google.com"]
    check(
        len(google) == 1 and google[0].uid == "g-1093" and google[0].email == "googler@gmail.com" and google[0].display_name == "Googler"
        and google[0].photo_url == "https://example.com/g.png",
        "get_user(...).provider_data lists the imported google.com identity",
    )
    check([p.provider_id for p in auth.get_user("appler", app=app).provider_data] == ["apple.com"], "a user with only an apple.com identity is imported")
    found = auth.get_users([auth.ProviderIdentifier("google.com", "g-1093"), auth.ProviderIdentifier("apple.com", "001.apple")], app=app)
    check(sorted(user.uid for user in found.users) == ["appler", "googler"], "get_users by ProviderIdentifier finds them")
    clash = auth.import_users([auth.ImportUserRecord(uid="copycat", provider_data=[auth.UserProvider(uid="g-1093", provider_id="google.com")])], app=app)
    check(
        [e.reason for e in clash.errors] == ["raw id exists in other account in database"],
        f"a raw ID another account holds is a per-user error: {[e.reason for e in clash.errors]}",
    )

    # The Python SDK has no provider_to_link (the Node SDK's providerToLink): its HTTP client sends the same body.
    client = auth._get_client(app)

    def link(uid, provider):
        return client._user_manager._make_request("post", "/accounts:update", json={"localId": uid, "linkProviderUserInfo": provider})

    link("googler", {"providerId": "github.com", "rawId": "gh-7", "displayName": "gh"})
    providers = sorted(p.provider_id for p in auth.get_user("googler", app=app).provider_data)
    check(providers == ["github.com", "google.com"], f"update with linkProviderUserInfo (providerToLink) links github.com: {providers}")
    try:
        link("appler", {"providerId": "google.com", "rawId": "g-1093"})
        check(False, "linking an identity another account holds is refused")
    except exceptions.FirebaseError as error:
        check("FEDERATED_USER_ID_ALREADY_LINKED" in str(error) or isinstance(error, exceptions.AlreadyExistsError),
              f"linking an identity another account holds is refused: {error}")
    auth.update_user("googler", providers_to_delete=["google.com"], app=app)
    providers = [p.provider_id for p in auth.get_user("googler", app=app).provider_data]
    check(providers == ["github.com"], f"update_user(providers_to_delete=['google.com']) unlinks it: {providers}")
    gone = auth.get_users([auth.ProviderIdentifier("google.com", "g-1093")], app=app)
    check(not gone.users and len(gone.not_found) == 1, "the unlinked identity no longer finds the user")


def tenant_management(binary, work):
    """firebase-admin's tenant_mgt (create_tenant, get_tenant, list_tenants paging, update_tenant, delete_tenant,
    auth_for_tenant) against a dev-mode Flint, as its integration tests call them. tenant_mgt addresses the production
    host even under FIREBASE_AUTH_EMULATOR_HOST (7.x), so its base URL is pointed at Flint and its credential sends the
    emulator's `owner`."""
    import firebase_admin
    from firebase_admin import _utils, credentials, tenant_mgt

    data = os.path.join(work, "tenants")
    os.makedirs(data)
    flint = Flint(binary, data, "--dev")
    original = tenant_mgt._TenantManagementService.TENANT_MGT_URL

    class OwnerCredential(credentials.Base):
        def get_credential(self):
            return _utils.EmulatorAdminCredentials()

    tenant_mgt._TenantManagementService.TENANT_MGT_URL = f"{flint.base}/identitytoolkit.googleapis.com/v2"
    try:
        app = firebase_admin.initialize_app(OwnerCredential(), options={"projectId": PROJECT}, name="tenants")
        sample = tenant_mgt.create_tenant(display_name="admin-python-tenant", allow_password_sign_up=True,
                                          enable_email_link_sign_in=True, app=app)
        check(sample.tenant_id.startswith("admin-python-tenant-"), f"create_tenant answers a server-made ID: {sample.tenant_id}")
        got = tenant_mgt.get_tenant(sample.tenant_id, app=app)
        check(got.display_name == "admin-python-tenant" and got.allow_password_sign_up is True and got.enable_email_link_sign_in is True,
              "get_tenant answers its fields")
        others = [tenant_mgt.create_tenant(display_name=f"py-list-{i}", app=app) for i in range(3)]
        listed = [t.tenant_id for t in tenant_mgt.list_tenants(max_results=2, app=app).iterate_all()]
        check(sorted(listed) == listed and {sample.tenant_id, *[t.tenant_id for t in others]} <= set(listed),
              "list_tenants pages through every tenant (two a page)")
        updated = tenant_mgt.update_tenant(sample.tenant_id, display_name="updated-py-tenant", allow_password_sign_up=False,
                                           enable_email_link_sign_in=False, app=app)
        check(updated.display_name == "updated-py-tenant" and updated.allow_password_sign_up is False
              and updated.enable_email_link_sign_in is False, "update_tenant changes the fields it names")
        # auth_for_tenant keeps its client, which takes its host from FIREBASE_AUTH_EMULATOR_HOST when it is made.
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{flint.port}"
        try:
            check(tenant_mgt.auth_for_tenant(sample.tenant_id, app=app).tenant_id == sample.tenant_id, "auth_for_tenant scopes a client")
            provider_configs(app, sample.tenant_id)
            tenant_users(app, flint)
        finally:
            del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        for tenant in [sample, *others]:
            tenant_mgt.delete_tenant(tenant.tenant_id, app=app)
        try:
            tenant_mgt.get_tenant(sample.tenant_id, app=app)
            check(False, "a deleted tenant is gone")
        except tenant_mgt.TenantNotFoundError:
            check(True, "after delete_tenant, get_tenant raises TenantNotFoundError")
        firebase_admin.delete_app(app)
    finally:
        tenant_mgt._TenantManagementService.TENANT_MGT_URL = original
        flint.stop()


def tenant_users(app, flint):
    """Users in tenants through tenant_mgt.auth_for_tenant, as firebase-admin's tenant integration tests use them: user
    CRUD, list_users, custom tokens that sign into the tenant, email links that name it, import_users, deletes; and the
    same email in two tenants is two accounts that never see each other."""
    from firebase_admin import auth, tenant_mgt

    tenant = tenant_mgt.create_tenant(display_name="py-users", allow_password_sign_up=True, enable_email_link_sign_in=True, app=app)
    other = tenant_mgt.create_tenant(display_name="py-others", allow_password_sign_up=True, app=app)
    client = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=app)
    others = tenant_mgt.auth_for_tenant(other.tenant_id, app=app)

    user = client.create_user(email="py-tenant@example.com", password="password-1", display_name="Tenant User")
    check(user.tenant_id == tenant.tenant_id, "create_user in a tenant answers the tenant's user", user.tenant_id)
    check(client.get_user(user.uid).email == "py-tenant@example.com", "get_user in the tenant")
    check(client.get_user_by_email("py-tenant@example.com").uid == user.uid, "get_user_by_email in the tenant")
    twin = others.create_user(email="py-tenant@example.com", password="password-2")
    check(twin.uid != user.uid, "the same email in another tenant is another account")
    try:
        others.get_user(user.uid)
        check(False, "another tenant's client does not see the user")
    except auth.UserNotFoundError:
        check(True, "another tenant's client does not see the user")
    try:
        auth.get_user(user.uid, app=app)
        check(False, "the project's client does not see a tenant's user")
    except auth.UserNotFoundError:
        check(True, "the project's client does not see a tenant's user")
    updated = client.update_user(user.uid, display_name="Renamed", custom_claims={"role": "admin"})
    check(updated.display_name == "Renamed" and updated.custom_claims == {"role": "admin"}, "update_user in the tenant")
    check([u.uid for u in client.list_users().iterate_all()] == [user.uid], "list_users lists the tenant's users only")

    token = client.create_custom_token(user.uid).decode()
    status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                          {"token": token, "tenantId": tenant.tenant_id, "returnSecureToken": True})
    check(status == 200 and claims_of(answer["idToken"])["firebase"].get("tenant") == tenant.tenant_id,
          "a tenant's custom token signs into the tenant; its ID token names it", answer)
    status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=k",
                          {"token": token, "tenantId": other.tenant_id, "returnSecureToken": True})
    check(status == 400 and answer["error"]["message"].startswith("TENANT_ID_MISMATCH"), "not into another tenant", answer)
    decoded = client.verify_id_token(sign_in_with_password(flint.base.removeprefix("http://"), "py-tenant@example.com", "password-1",
                                                           tenant=tenant.tenant_id)["idToken"])
    check(decoded["firebase"]["tenant"] == tenant.tenant_id and decoded["uid"] == user.uid, "verify_id_token in the tenant")

    settings = auth.ActionCodeSettings(url="https://localhost/finish", handle_code_in_app=True)
    link = client.generate_sign_in_with_email_link("py-tenant@example.com", settings)
    check(f"tenantId={tenant.tenant_id}" in link, "generate_sign_in_with_email_link names the tenant", link)
    reset = client.generate_password_reset_link("py-tenant@example.com")
    check(f"tenantId={tenant.tenant_id}" in reset, "generate_password_reset_link names the tenant", reset)

    result = client.import_users([auth.ImportUserRecord(uid="py-imported", email="imported@example.com")])
    check(result.success_count == 1 and result.failure_count == 0, "import_users into the tenant")
    check(client.get_user("py-imported").tenant_id == tenant.tenant_id, "an imported user is the tenant's")
    try:
        others.get_user("py-imported")
        check(False, "an imported user is not another tenant's")
    except auth.UserNotFoundError:
        check(True, "an imported user is not another tenant's")

    client.delete_user(user.uid)
    deleted = client.delete_users(["py-imported", twin.uid])
    check(deleted.success_count == 2, "delete_users in the tenant (another tenant's uid is simply not there)")
    check(others.get_user(twin.uid).email == "py-tenant@example.com", "another tenant's user outlives the tenant's deletes")
    tenant_mgt.delete_tenant(tenant.tenant_id, app=app)
    tenant_mgt.delete_tenant(other.tenant_id, app=app)


def saml_certificate():
    """A self-signed certificate in PEM, made with openssl, for the SAML provider configs."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                        "-keyout", os.path.join(folder, "key.pem"), "-out", os.path.join(folder, "cert.pem"), "-days", "2",
                        "-subj", "/CN=idp.admin-sdk.test"], check=True, capture_output=True)
        return open(os.path.join(folder, "cert.pem")).read().strip()


SAML_CERTIFICATE = saml_certificate()


def saml_lifecycle(client, where):
    """create/get/list/update/delete_saml_provider_config on `client` (the project's auth or a tenant's), as
    firebase-admin's integration tests call them."""
    from firebase_admin import auth
    created = client.create_saml_provider_config(
        "saml.py-corp", idp_entity_id="IDP_ENTITY_ID", sso_url="https://example.com/login",
        x509_certificates=[SAML_CERTIFICATE], rp_entity_id="RP_ENTITY_ID",
        callback_url="https://projectId.firebaseapp.com/__/auth/handler", display_name="SAML_DISPLAY_NAME", enabled=True)
    check(created.provider_id == "saml.py-corp" and created.x509_certificates == [SAML_CERTIFICATE]
          and created.rp_entity_id == "RP_ENTITY_ID" and created.enabled, f"create_saml_provider_config ({where})")
    got = client.get_saml_provider_config("saml.py-corp")
    check(got.idp_entity_id == "IDP_ENTITY_ID" and got.sso_url == "https://example.com/login"
          and got.callback_url == "https://projectId.firebaseapp.com/__/auth/handler", f"get_saml_provider_config ({where})")
    client.create_saml_provider_config(
        "saml.py-other", idp_entity_id="OTHER", sso_url="https://example.com/other", x509_certificates=[SAML_CERTIFICATE],
        rp_entity_id="RP", callback_url="https://example.com/cb")
    listed = [c.provider_id for c in client.list_saml_provider_configs(max_results=1).iterate_all()]
    check(listed == ["saml.py-corp", "saml.py-other"], f"list_saml_provider_configs pages one at a time ({where}): {listed}")
    updated = client.update_saml_provider_config(
        "saml.py-corp", idp_entity_id="UPDATED_IDP", sso_url="https://example.com/login2", rp_entity_id="UPDATED_RP",
        callback_url="https://updated.example/cb", display_name=auth.DELETE_ATTRIBUTE, enabled=False)
    check(updated.idp_entity_id == "UPDATED_IDP" and updated.rp_entity_id == "UPDATED_RP" and updated.display_name is None
          and updated.enabled is False and updated.x509_certificates == [SAML_CERTIFICATE], f"update_saml_provider_config ({where})")
    for provider in ["saml.py-corp", "saml.py-other"]:
        client.delete_saml_provider_config(provider)
    try:
        client.get_saml_provider_config("saml.py-corp")
        check(False, f"a deleted SAML provider is gone ({where})")
    except auth.ConfigurationNotFoundError:
        check(True, f"after delete_saml_provider_config, get raises ConfigurationNotFoundError ({where})")


def provider_configs(app, tenant_id):
    """SAML provider configs on the project, and OIDC + SAML provider configs on a tenant through
    tenant_mgt.auth_for_tenant, through FIREBASE_AUTH_EMULATOR_HOST."""
    import firebase_admin
    from firebase_admin import auth, tenant_mgt
    project = firebase_admin.initialize_app(options={"projectId": PROJECT}, name="providers")
    saml_lifecycle(auth.Client(project), "project")
    tenant = tenant_mgt.auth_for_tenant(tenant_id, app=app)
    saml_lifecycle(tenant, "tenant")
    oidc = tenant.create_oidc_provider_config(
        "oidc.py-corp", client_id="CLIENT_ID", issuer="https://oidc.example.com", display_name="OIDC", enabled=True)
    check(oidc.provider_id == "oidc.py-corp" and oidc.client_id == "CLIENT_ID", "a tenant's create_oidc_provider_config")
    oidc = tenant.update_oidc_provider_config("oidc.py-corp", client_id="NEW_ID", enabled=False)
    check(oidc.client_id == "NEW_ID" and oidc.enabled is False and tenant.get_oidc_provider_config("oidc.py-corp").client_id == "NEW_ID",
          "a tenant's update_oidc_provider_config and get_oidc_provider_config")
    check([c.provider_id for c in tenant.list_oidc_provider_configs().iterate_all()] == ["oidc.py-corp"],
          "a tenant's list_oidc_provider_configs")
    try:
        auth.Client(project).get_oidc_provider_config("oidc.py-corp")
        check(False, "a tenant's provider is not the project's")
    except auth.ConfigurationNotFoundError:
        check(True, "a tenant's OIDC provider is not among the project's")
    tenant.delete_oidc_provider_config("oidc.py-corp")
    check(list(tenant.list_oidc_provider_configs().iterate_all()) == [], "a tenant's delete_oidc_provider_config")
    firebase_admin.delete_app(project)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flint-admin-sdk-")
    try:
        signed_custom_tokens(os.path.abspath(args.flint), work)
        session_cookies(os.path.abspath(args.flint), work)
        named_admin_credentials(os.path.abspath(args.flint), work)
        user_management(os.path.abspath(args.flint), work)
        tenant_management(os.path.abspath(args.flint), work)
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

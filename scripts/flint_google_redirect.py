"""A pytest plugin that points firebase-admin-python's integration tests at a local `flint serve`, unedited.

Loaded by scripts/admin-sdk-integration-test.py with `-p flint_google_redirect`. The tests, their conftest and the SDK
are left as they are; what changes is `requests`' transport (every HTTP call of the tests, of firebase-admin and of
google-auth goes through `requests.adapters.HTTPAdapter.send`):

- `https://identitytoolkit.googleapis.com/…`, `https://securetoken.googleapis.com/…` and `https://www.googleapis.com/…`
  become `$FLINT_BASE/<host>/…` (Flint serves Google's hosts as the first path segment), method, query, headers and
  body unchanged. That covers the tests' own REST calls (v3 `relyingparty/verifyCustomToken`, `verifyPassword`,
  `resetPassword`, `setAccountInfo`, `emailLinkSignin`), `tenant_mgt`'s v2 tenant calls (which ignore
  FIREBASE_AUTH_EMULATOR_HOST) and, without the emulator variable, all of the SDK's calls and its key downloads.
- `POST https://oauth2.googleapis.com/token` (google-auth exchanging the service-account file's signed JWT for an
  access token) is answered here, not by Flint: `{"access_token": $FLINT_ACCESS_TOKEN, ...}`, the admin credential
  Flint takes as `Authorization: Bearer` (dev mode's `owner`, or a named credential from `flint admin tokens create`).
  The JWT is not checked. Flint has no OAuth2 token endpoint.
- Any other non-loopback host is refused with a ConnectionError naming it, so nothing reaches the internet.

Every rewrite is counted by host and written to $FLINT_REDIRECT_LOG (JSON) when the session ends.
"""
import collections
import json
import os
import urllib.parse

import requests
import requests.adapters

REWRITTEN_HOSTS = ("identitytoolkit.googleapis.com", "securetoken.googleapis.com", "www.googleapis.com")
TOKEN_HOST = "oauth2.googleapis.com"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")

counts = collections.Counter()
_original_send = requests.adapters.HTTPAdapter.send


def _token_response(request):
    response = requests.Response()
    response.status_code = 200
    response.headers["Content-Type"] = "application/json"
    response._content = json.dumps({"access_token": os.environ["FLINT_ACCESS_TOKEN"], "expires_in": 3600,
                                    "token_type": "Bearer"}).encode()
    response.url = request.url
    response.request = request
    response.reason = "OK"
    return response


def _send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
    # HTTPAdapter.send's own signature: subclasses (cachecontrol's, which google-auth's key fetches use) pass it positionally.
    url = urllib.parse.urlsplit(request.url)
    host = url.hostname or ""
    if url.scheme == "https" and host in REWRITTEN_HOSTS:
        base = os.environ["FLINT_BASE"].rstrip("/")
        request.url = urllib.parse.urlunsplit(urllib.parse.urlsplit(f"{base}/{host}{url.path}")._replace(query=url.query))
        proxies = {}
        counts[host] += 1
    elif host == TOKEN_HOST and url.path == "/token" and request.method == "POST":
        counts[f"{TOKEN_HOST} (answered locally)"] += 1
        return _token_response(request)
    elif host not in LOOPBACK:
        counts[f"{host} (refused)"] += 1
        raise requests.exceptions.ConnectionError(f"flint_google_redirect: {request.url} is not redirected to Flint")
    return _original_send(self, request, stream, timeout, verify, cert, proxies)


requests.adapters.HTTPAdapter.send = _send


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("FLINT_REDIRECT_LOG")
    if path:
        with open(path, "w") as file:
            json.dump(dict(counts), file, indent=1, sort_keys=True)

"""The stand-in OpenID Connect provider the browser tests sign in with (scripts/redirect-browser-test.py,
scripts/websdk-browser-test.py), on loopback in a background thread: discovery, keys, an authorization endpoint where
the user signs in at once (or, with `login_hint=deny`, refuses: `error=access_denied`), and a token endpoint that
checks the code, the redirect URI and the PKCE verifier and answers an ID token with the authorization request's
nonce."""
import base64
import hashlib
import http.server
import json
import threading
import time
import urllib.parse
import uuid

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def stand_in_provider(port):
    """The stand-in OpenID Connect provider on 127.0.0.1:`port`, in a background thread."""
    issuer = f"http://127.0.0.1:{port}"
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "RSA", "kid": "k1", "alg": "RS256", "use": "sig",
           "n": b64url(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")), "e": b64url(numbers.e.to_bytes(3, "big"))}
    codes = {}

    def sign(claims):
        header = b64url(json.dumps({"alg": "RS256", "kid": "k1", "typ": "JWT"}).encode())
        payload = b64url(json.dumps(claims).encode())
        signature = key.sign(f"{header}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{header}.{payload}.{b64url(signature)}"

    class Provider(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body=None, location=None):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/.well-known/openid-configuration":
                self.answer(200, {"issuer": issuer, "jwks_uri": issuer + "/keys", "authorization_endpoint": issuer + "/authorize",
                                  "token_endpoint": issuer + "/token"})
            elif url.path == "/keys":
                self.answer(200, {"keys": [jwk]})
            elif url.path == "/authorize" and query.get("login_hint") == "deny":
                back = urllib.parse.urlencode({"error": "access_denied", "state": query.get("state", "")})
                self.answer(302, location=query.get("redirect_uri", "") + "?" + back)
            elif url.path == "/authorize":
                code = "code-" + uuid.uuid4().hex
                codes[code] = query
                back = urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
                self.answer(302, location=query.get("redirect_uri", "") + "?" + back)
            else:
                self.answer(404, {"error": "not_found"})

        def do_POST(self):
            form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()))
            started = codes.pop(form.get("code", ""), None)
            challenge = b64url(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
            if not started or started.get("redirect_uri") != form.get("redirect_uri") or started.get("code_challenge") != challenge:
                return self.answer(400, {"error": "invalid_grant"})
            now = int(time.time())
            token = sign({"iss": issuer, "aud": started["client_id"], "sub": "browser-user-1", "email": "ada@corp.example",
                          "email_verified": True, "name": "Ada", "iat": now, "exp": now + 300, "nonce": started.get("nonce")})
            self.answer(200, {"id_token": token, "access_token": "stand-in-access", "token_type": "Bearer"})

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, issuer

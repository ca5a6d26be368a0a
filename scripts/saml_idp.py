"""pysaml2's IdP (PyPI's `pysaml2`, signing through Debian's `xmlsec1`) on loopback for Flint's SAML tests
(scripts/saml-sign-in-test.py over HTTP, scripts/saml-browser-test.py in Chromium): HTTP-Redirect AuthnRequests in,
checked as an IdP checks them (and their signature, once it wants signed requests), HTTP-POST responses out."""
import html.parser
import os
import shutil
import subprocess
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from flint_testkit import free_port

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.response import IncorrectlySigned
from saml2.s_utils import UnknownPrincipal, UnsupportedBinding
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.sigver import SignatureError
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

SP_ENTITY_ID = "https://flint.test/saml-sp"
IDP_ENTITY_ID = "https://pysaml2-idp.test/metadata"
USER = "ada@example.com"


class FormReader(html.parser.HTMLParser):
    """The action and hidden fields of pysaml2's HTTP-POST form."""

    def __init__(self):
        super().__init__()
        self.action, self.fields = None, {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.action = attributes.get("action")
        if tag == "input" and attributes.get("name"):
            self.fields[attributes["name"]] = attributes.get("value", "")


class IdP:
    """pysaml2's IdP for Flint's SP, at http://127.0.0.1:PORT/sso (HTTP-Redirect in, HTTP-POST out)."""

    def __init__(self, directory, acs_url, name="idp"):
        self.port = free_port()
        self.sso = f"http://127.0.0.1:{self.port}/sso"
        self.key = os.path.join(directory, f"{name}.key")
        self.certificate = os.path.join(directory, f"{name}.crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", self.key, "-out", self.certificate,
                        "-days", "2", "-subj", f"/CN=pysaml2 {name}"], check=True, capture_output=True)
        with open(self.certificate) as file:
            self.certificate_pem = file.read()
        self.acs_url = acs_url
        self.configure()
        # How the next response is made: `sign` (assertion and response), `response_only`, `unsigned`.
        self.mode = "sign"
        self.requests = []
        idp = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
                if "SAMLRequest" not in query:  # a browser's favicon.ico
                    self.send_error(404)
                    return
                try:
                    status, page = 200, idp.answer(query["SAMLRequest"], query.get("RelayState"), query.get("SigAlg"), query.get("Signature"))
                except (IncorrectlySigned, SignatureError, UnknownPrincipal, UnsupportedBinding) as refusal:
                    status, page = 403, f"refused: {type(refusal).__name__}: {refusal}"
                self.send_response(status)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(page.encode())

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def configure(self, sp_certificate=None):
        """pysaml2's IdP with Flint's SP in its metadata; with `sp_certificate` (PEM, or a list of them during a key
        rollover: pysaml2 accepts a request any of them verifies) as the SP's signing key, and AuthnRequests wanted
        signed (`want_authn_requests_signed`)."""
        key_descriptor = ""
        for pem in [sp_certificate] if isinstance(sp_certificate, str) else sp_certificate or []:
            body = "".join(line for line in pem.strip().splitlines() if "CERTIFICATE" not in line)
            key_descriptor += f"""<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
      <ds:X509Data><ds:X509Certificate>{body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>"""
        sp_metadata = f"""<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="{SP_ENTITY_ID}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"{' AuthnRequestsSigned="true"' if sp_certificate else ""}>
    {key_descriptor}
    <md:AssertionConsumerService Binding="{BINDING_HTTP_POST}" Location="{self.acs_url}" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>"""
        config = IdPConfig()
        config.load({
            "entityid": IDP_ENTITY_ID,
            "key_file": self.key,
            "cert_file": self.certificate,
            "xmlsec_binary": shutil.which("xmlsec1"),
            "metadata": {"inline": [sp_metadata]},
            "service": {"idp": {
                "endpoints": {"single_sign_on_service": [(self.sso, BINDING_HTTP_REDIRECT)]},
                "policy": {"default": {"lifetime": {"minutes": 5}, "attribute_restrictions": None}},
                "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                "want_authn_requests_signed": bool(sp_certificate),
            }},
        })
        self.server = Server(config=config)

    def answer(self, saml_request, relay_state, sigalg=None, signature=None):
        """Parses the AuthnRequest as an IdP does (its Destination, issuer and ACS checked against the metadata, and,
        when it wants signed requests, the HTTP-Redirect signature with the SP's certificate) and answers the form that
        posts its response to the ACS."""
        message = self.server.parse_authn_request(
            saml_request, BINDING_HTTP_REDIRECT, relay_state=relay_state, sigalg=sigalg, signature=signature).message
        self.requests.append(message)
        return self.respond(message.id, message.assertion_consumer_service_url, message.issuer.text, relay_state)

    def respond(self, request_id, acs_url, sp_entity_id, relay_state):
        """The HTTP-POST form of a response to `request_id`, signed as `mode` says."""
        response = self.server.create_authn_response(
            identity={"mail": [USER], "displayName": ["Ada Lovelace"], "groups": ["engines", "poets"]},
            in_response_to=request_id, destination=acs_url, sp_entity_id=sp_entity_id,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=USER),
            authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password", "authn_auth": IDP_ENTITY_ID},
            sign_response=self.mode in ("sign", "response_only"), sign_assertion=self.mode == "sign",
            sign_alg=SIG_RSA_SHA256, digest_alg=DIGEST_SHA256)
        binding = self.server.apply_binding(BINDING_HTTP_POST, str(response), destination=acs_url, relay_state=relay_state, response=True)
        return binding["data"]

    def stop(self):
        self.http.shutdown()

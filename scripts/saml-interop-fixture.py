#!/usr/bin/env python3
"""Writes Tests/FlintSAMLTests/Fixtures/pysaml2-response.json: a SAMLResponse made and signed by pysaml2's IdP
(assertion and response signed, RSA-SHA256, exclusive C14N), which FlintSAMLTests verifies with FlintSAML.

Run once, by hand, when the fixture needs remaking (the committed output is what the tests use):
    apt-get install xmlsec1            # pysaml2 signs through the xmlsec1 command
    python3 -m venv /tmp/saml-venv && /tmp/saml-venv/bin/pip install pysaml2
    /tmp/saml-venv/bin/python scripts/saml-interop-fixture.py
"""
import base64
import datetime
import json
import os
import subprocess
import tempfile

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

SP_ENTITY_ID = "https://flint.test/sp"
ACS_URL = "https://flint.test/__/auth/handler"
IDP_ENTITY_ID = "https://pysaml2-idp.test/metadata"
REQUEST_ID = "_pysaml2-interop-request"
OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "FlintSAMLTests", "Fixtures", "pysaml2-response.json")

SP_METADATA = f"""<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="{SP_ENTITY_ID}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:AssertionConsumerService Binding="{BINDING_HTTP_POST}" Location="{ACS_URL}" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>"""


def main():
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "idp.key")
        certificate = os.path.join(directory, "idp.crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                        "-days", "36500", "-subj", "/CN=pysaml2 interop IdP"], check=True, capture_output=True)
        config = IdPConfig()
        config.load({
            "entityid": IDP_ENTITY_ID,
            "key_file": key,
            "cert_file": certificate,
            "xmlsec_binary": "/usr/bin/xmlsec1",
            "metadata": {"inline": [SP_METADATA]},
            "service": {"idp": {
                "endpoints": {"single_sign_on_service": [("https://pysaml2-idp.test/sso", BINDING_HTTP_REDIRECT)]},
                "policy": {"default": {"lifetime": {"minutes": 15}, "attribute_restrictions": None}},
                "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
            }},
        })
        idp = Server(config=config)
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        response = idp.create_authn_response(
            identity={"mail": ["interop@example.com"], "displayName": ["Interop User"]},
            in_response_to=REQUEST_ID, destination=ACS_URL, sp_entity_id=SP_ENTITY_ID,
            name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text="interop@example.com"),
            authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password", "authn_auth": IDP_ENTITY_ID},
            sign_response=True, sign_assertion=True, sign_alg=SIG_RSA_SHA256, digest_alg=DIGEST_SHA256,
        )
        with open(certificate) as file:
            certificate_pem = file.read()
    fixture = {
        "samlResponse": base64.b64encode(str(response).encode()).decode(),
        "certificate": certificate_pem,
        "requestID": REQUEST_ID,
        "now": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "spEntityID": SP_ENTITY_ID,
        "acsURL": ACS_URL,
        "idpEntityID": IDP_ENTITY_ID,
        "nameID": "interop@example.com",
    }
    with open(OUTPUT, "w") as file:
        json.dump(fixture, file, indent=2)
        file.write("\n")


if __name__ == "__main__":
    main()

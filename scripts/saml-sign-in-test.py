#!/usr/bin/env python3
"""SAML sign-in end to end: a built `flint` as the service provider, pysaml2's IdP (PyPI's `pysaml2`, signing through
Debian's `xmlsec1`) as the identity provider, served on loopback; no browser: the script follows the HTTP itself.

1. The operator configures `saml.pysaml2` (inboundSamlConfigs: the IdP's entity ID, SSO URL and certificate; Flint's
   SP entity ID and its handler as the ACS URL).
2. A page's sign-in through the hosted handler: the handler's 303 to the IdP with an AuthnRequest (HTTP-Redirect) and
   the sealed RelayState; the IdP (pysaml2 parses the request, answers a signed response for its ID) answers its
   HTTP-POST form; the form is posted to the handler, which sends the page its link; `signInWithIdp` with that link and
   the session ID signs the user in: the ID token's `firebase.sign_in_provider` and `firebase.sign_in_attributes`.
3. The same POST again, and the first link again: the assertion is spent (`INVALID_IDP_RESPONSE`).
4. `createAuthUri` with the SAML provider: its `authUri` to the IdP, the IdP's post to the handler, which sends the
   browser on to the `continueUri` with the response; `signInWithIdp` with that URL finds the same account.
5. The verifier's refusals over HTTP: a wrapped assertion (XSW), an unsigned assertion altered inside a signed
   response, a response signed by a key the config does not hold.
6. A tenant: the same IdP configured as the tenant's `saml.pysaml2`; the handler's start names the tenant (`tid`), the
   sealed RelayState carries it; `signInWithIdp` refuses the link without the tenant and signs the same NameID in as
   the tenant's own account (`firebase.tenant`) with it.
7. Signed AuthnRequests: the operator turns `idpConfig.signRequest` on and gives the IdP the provider's SP certificate
   (`spConfig.spCertificates`, from the admin API's GET); pysaml2's IdP then wants signed requests
   (`want_authn_requests_signed`) and checks their HTTP-Redirect signature with that certificate: the handler's and
   createAuthUri's requests sign in; the same request unsigned, with an altered RelayState, or signed by the key of
   another provider is refused by the IdP.
8. An SP key rollover (`flint providers saml rotate-sp-key`) while the IdP checks signed requests: the new key is
   published beside the old one, which goes on signing (the IdP, given only the old certificate, still accepts the
   requests); the operator gives the IdP both; after `--activate` the new key signs (an IdP with only the old
   certificate would refuse) and requests are accepted; `--retire` leaves the new certificate alone.

Usage: saml-sign-in-test.py --flint .build/debug/flint
"""
import argparse
import base64
import hashlib
import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import zlib

from flint_testkit import PROJECT, Flint, check, claims_of, post
from saml_idp import IDP_ENTITY_ID, SP_ENTITY_ID, USER, FormReader, IdP

from saml2.xmldsig import SIG_RSA_SHA256

PROVIDER = "saml.pysaml2"


def request(method, url, body=None, content_type=None):
    """One HTTP exchange, redirects not followed: (status, headers, body text)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + ("?" + parts.query if parts.query else "")
    headers = {"Content-Type": content_type} if content_type else {}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, text


def visit_idp(location):
    """The browser at the IdP: its form's action and fields."""
    status, _, page = request("GET", location)
    check(status == 200, "the IdP answers its POST form", page[:300])
    form = FormReader()
    form.feed(page)
    check("SAMLResponse" in form.fields and "RelayState" in form.fields, "the form carries SAMLResponse and RelayState")
    return form.action, form.fields


def post_form(action, fields):
    """The browser posts the IdP's form (HTTP-POST binding)."""
    return request("POST", action, urllib.parse.urlencode(fields), "application/x-www-form-urlencoded")


def sign_in_with_idp(flint, request_uri, session_id, post_body=None, tenant=None):
    body = {"requestUri": request_uri, "sessionId": session_id, "returnSecureToken": True}
    if post_body is not None:
        body["postBody"] = post_body
    if tenant:
        body["tenantId"] = tenant
    return post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=test", body)


def handler_start(flint, session_id, tenant=None):
    """A plain page's start through the hosted handler (in `tenant`, if any); the IdP URL it answers."""
    fields = {
        "apiKey": "test", "authType": "signInViaRedirect", "providerId": PROVIDER, "redirectUrl": "http://localhost/back",
        "sessionId": hashlib.sha256(session_id.encode()).hexdigest(), "eventId": "event-1",
    }
    if tenant:
        fields["tid"] = tenant
    query = urllib.parse.urlencode(fields)
    status, headers, text = request("GET", f"{flint.base}/__/auth/handler?{query}")
    check(status == 303 and headers.get("location", "").startswith(idp_sso + "?SAMLRequest="), "the handler sends the browser to the IdP", text)
    return headers["location"]


def link_of(location):
    """The link in the page's redirect (`redirectUrl?link=…`), or its firebaseError."""
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    return query.get("link"), query.get("firebaseError")


def expect_refused(flint, name, action, fields, session_id, words):
    """A response the verifier refuses: the handler sends the page the error, and signInWithIdp refuses it too."""
    status, headers, _ = post_form(action, fields)
    link, error = link_of(headers.get("location", ""))
    check(status == 303 and link is None and error and words in error, f"{name}: the handler answers the page an error", headers)
    post_body = urllib.parse.urlencode({"providerId": PROVIDER, **fields})
    status, answer = sign_in_with_idp(flint, "http://localhost/back", session_id, post_body)
    message = answer.get("error", {}).get("message", "")
    check(status == 400 and message.startswith("INVALID_IDP_RESPONSE") and words in message, f"{name}: signInWithIdp refuses it", answer)


def tampered(fields, change):
    """The form with its SAMLResponse's XML changed by `change`."""
    xml = base64.b64decode(fields["SAMLResponse"]).decode()
    changed = change(xml)
    check(changed != xml, "the response was altered")
    return {**fields, "SAMLResponse": base64.b64encode(changed.encode()).decode()}


def wrapped(xml):
    """XSW: an unsigned copy of the assertion, for another user, beside the signed one."""
    match = re.search(r"<(\w+:)?Assertion[\s>].*?</\1?Assertion>", xml, re.S)
    original = match.group(0)
    evil = re.sub(r"<(\w+:)?Signature[\s>].*?</\1?Signature>", "", original, flags=re.S)
    evil = re.sub(r'ID="[^"]+"', 'ID="_evil-assertion"', evil, count=1).replace(USER, "mallory@example.com")
    return xml.replace(original, evil + original)


def main():
    global idp_sso
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    arguments = parser.parse_args()
    data = tempfile.mkdtemp(prefix="flint-saml-")
    flint = Flint(arguments.flint, data, "--dev")
    acs = f"{flint.base}/__/auth/handler"
    idp = IdP(data, acs)
    stranger = IdP(data, acs, name="stranger")
    idp_sso = idp.sso
    try:
        resource = {
            "enabled": True, "displayName": "pysaml2",
            "idpConfig": {"idpEntityId": IDP_ENTITY_ID, "ssoUrl": idp.sso, "idpCertificates": [{"x509Certificate": idp.certificate_pem}]},
            "spConfig": {"spEntityId": SP_ENTITY_ID, "callbackUri": acs},
        }
        url = f"{flint.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/inboundSamlConfigs?inboundSamlConfigId={PROVIDER}"
        status, headers, text = request_json(url, resource)
        check(status == 200, "the operator configures the SAML provider", text)

        # 2. The hosted handler's flow.
        location = handler_start(flint, "session-one")
        action, fields = visit_idp(location)
        check(action == acs and len(idp.requests) == 1, "pysaml2 accepted the AuthnRequest and posts to Flint's handler")
        check(idp.requests[0].issuer.text == SP_ENTITY_ID, "the request names Flint's SP entity ID")
        status, headers, _ = post_form(action, fields)
        link, error = link_of(headers.get("location", ""))
        check(status == 303 and headers["location"].startswith("http://localhost/back?") and link and not error,
              "the handler sends the page its link", headers)
        status, answer = sign_in_with_idp(flint, link, "session-one")
        check(status == 200 and answer.get("isNewUser") is True and answer.get("providerId") == PROVIDER, "signInWithIdp signs a new user in", answer)
        check(answer.get("federatedId") == USER and answer.get("email") == USER and answer.get("displayName") == "Ada Lovelace",
              "the NameID is the identity; the email and name come from the assertion", answer)
        claims = claims_of(answer["idToken"])
        check(claims["firebase"]["sign_in_provider"] == PROVIDER, "the ID token's sign_in_provider is the provider ID", claims)
        # pysaml2 names attributes by their OIDs (mail, displayName), as Shibboleth does; the ID token keeps the names sent.
        attributes = claims["firebase"].get("sign_in_attributes", {})
        check(attributes.get("urn:oid:0.9.2342.19200300.100.1.3") == USER and attributes.get("urn:oid:2.16.840.1.113730.3.1.241") == "Ada Lovelace"
              and attributes.get("groups") == ["engines", "poets"], "the ID token carries the assertion's attributes", claims)
        local_id = answer["localId"]

        # 3. Replays.
        status, headers, _ = post_form(action, fields)
        again, _ = link_of(headers.get("location", ""))
        status, answer = sign_in_with_idp(flint, again, "session-one")
        check(status == 400 and answer["error"]["message"].startswith("INVALID_IDP_RESPONSE"), "the same POST again is refused at signInWithIdp", answer)
        status, answer = sign_in_with_idp(flint, link, "session-one")
        check(status == 400 and answer["error"]["message"].startswith("INVALID_IDP_RESPONSE"), "the first link again is refused", answer)

        # 4. createAuthUri.
        status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=test",
                              {"providerId": PROVIDER, "continueUri": "http://localhost/done", "sessionId": "app-session"})
        check(status == 200 and answer.get("authUri", "").startswith(idp.sso + "?SAMLRequest="), "createAuthUri answers the IdP's URL", answer)
        action, fields = visit_idp(answer["authUri"])
        status, headers, _ = post_form(action, fields)
        done = headers.get("location", "")
        check(status == 303 and done.startswith("http://localhost/done?SAMLResponse="), "the handler sends the browser on to the continueUri", headers)
        status, answer = sign_in_with_idp(flint, done, "app-session")
        check(status == 200 and answer.get("localId") == local_id and answer.get("isNewUser") is False,
              "signInWithIdp with the continueUri signs the same user in", answer)

        # 5. Refusals over HTTP.
        action, fields = visit_idp(handler_start(flint, "session-xsw"))
        expect_refused(flint, "a wrapped assertion (XSW)", action, tampered(fields, wrapped), "session-xsw", "2 Assertion elements")
        idp.mode = "response_only"
        action, fields = visit_idp(handler_start(flint, "session-alter"))
        altered = tampered(fields, lambda xml: xml.replace("Ada Lovelace", "Mallory"))
        expect_refused(flint, "an unsigned assertion altered inside a signed response", action, altered, "session-alter", "does not verify")
        idp.mode = "sign"
        location = handler_start(flint, "session-stranger")
        saml_request = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        # Another IdP (its own key, the same entity ID) answers the request it was never sent.
        request_xml = zlib.decompress(base64.b64decode(saml_request["SAMLRequest"]), -15).decode()
        request_id = re.search(r' ID="([^"]+)"', request_xml).group(1)
        stranger_page = stranger.respond(request_id, acs, SP_ENTITY_ID, saml_request["RelayState"])
        form = FormReader()
        form.feed(stranger_page)
        expect_refused(flint, "a response signed by a key not in the config", form.action, form.fields, "session-stranger", "does not verify")

        # 6. A tenant with the same IdP.
        status, _, text = request_json(f"{flint.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants", {"displayName": "saml-tenant"})
        check(status == 200, "the operator creates a tenant", text)
        tenant = json.loads(text)["name"].split("/")[-1]
        url = (f"{flint.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants/{tenant}/inboundSamlConfigs"
               f"?inboundSamlConfigId={PROVIDER}")
        status, _, text = request_json(url, resource)
        check(status == 200, "the operator configures the tenant's SAML provider", text)
        action, fields = visit_idp(handler_start(flint, "session-tenant", tenant))
        status, headers, _ = post_form(action, fields)
        link, error = link_of(headers.get("location", ""))
        check(status == 303 and link and not error, "the handler checks the response with the tenant's provider and sends the page its link", headers)
        status, answer = sign_in_with_idp(flint, link, "session-tenant")
        message = answer.get("error", {}).get("message", "")
        check(status == 400 and message.startswith("INVALID_IDP_RESPONSE") and "another tenant" in message,
              "the tenant's sign-in is refused outside the tenant", answer)
        status, answer = sign_in_with_idp(flint, link, "session-tenant", tenant=tenant)
        check(status == 200 and answer.get("isNewUser") is True and answer.get("localId") != local_id,
              "in the tenant, the same NameID is the tenant's own new account", answer)
        claims = claims_of(answer["idToken"])
        check(claims["firebase"].get("tenant") == tenant and claims["firebase"].get("sign_in_attributes", {}).get("groups") == ["engines", "poets"],
              "the tenant's ID token names the tenant and carries the attributes", claims)
        # 7. Signed AuthnRequests.
        signed_requests(flint, idp, acs, local_id)
        # 8. An SP key rollover.
        rollover(flint, idp, arguments.flint, data, local_id)
        print("saml sign-in test: all checks passed")
    finally:
        idp.stop()
        stranger.stop()
        flint.stop()
        shutil.rmtree(data, ignore_errors=True)


def signed_requests(flint, idp, acs, local_id):
    """The IdP wants signed AuthnRequests and checks them with the SP certificate the admin API answers."""
    base = f"{flint.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/inboundSamlConfigs"
    status, _, text = request_json(f"{base}/{PROVIDER}?updateMask=idpConfig.signRequest", {"idpConfig": {"signRequest": True}}, "PATCH")
    check(status == 200, "the operator turns signRequest on", text)
    status, _, text = request_json(f"{base}/{PROVIDER}", None, "GET")
    certificates = json.loads(text).get("spConfig", {}).get("spCertificates", [])
    check(status == 200 and len(certificates) == 1 and certificates[0]["x509Certificate"].startswith("-----BEGIN CERTIFICATE-----"),
          "the provider's GET answers its SP certificate (spConfig.spCertificates)", text)
    sp_certificate = certificates[0]["x509Certificate"]
    # Another provider's certificate, to sign a request with a key the IdP was not given.
    other = {"idpConfig": {"idpEntityId": IDP_ENTITY_ID, "ssoUrl": idp.sso, "idpCertificates": [{"x509Certificate": idp.certificate_pem}],
                           "signRequest": True},
             "spConfig": {"spEntityId": SP_ENTITY_ID, "callbackUri": acs}, "enabled": True}
    status, _, text = request_json(f"{base}?inboundSamlConfigId=saml.other", other)
    check(status == 200, "a second provider with the same IdP", text)
    idp.configure(sp_certificate)

    location = handler_start(flint, "session-signed")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    check(query.get("SigAlg") == SIG_RSA_SHA256 and query.get("Signature"), "the handler's AuthnRequest carries SigAlg and Signature", location)
    check(list(query) == ["SAMLRequest", "RelayState", "SigAlg", "Signature"], "in the binding's order", list(query))
    action, fields = visit_idp(location)
    status, headers, _ = post_form(action, fields)
    link, error = link_of(headers.get("location", ""))
    status, answer = sign_in_with_idp(flint, link, "session-signed")
    check(status == 200 and answer.get("localId") == local_id, "the IdP checked the signed request; the user signs in", answer)

    def refused(url, name):
        status, _, page = request("GET", url)
        check(status == 403 and "IncorrectlySigned" in page, f"the IdP refuses {name}", f"{status} {page[:300]}")

    unsigned = location.split("&SigAlg=")[0]
    refused(unsigned, "the same request unsigned")
    altered = location.replace("&SigAlg=", "x&SigAlg=", 1)
    refused(altered, "the signed request with an altered RelayState")
    tampered_request = re.sub(r"SAMLRequest=([^&]+)", lambda m: "SAMLRequest=" + urllib.parse.quote(
        base64.b64encode(zlib.compress(zlib.decompress(base64.b64decode(urllib.parse.unquote(m.group(1))), -15)
                                       .replace(b'AllowCreate="true"', b'AllowCreate="false"'))[2:-4]).decode(), safe=""), location, count=1)
    refused(tampered_request, "a request altered after signing")
    query = urllib.parse.urlencode({
        "apiKey": "test", "authType": "signInViaRedirect", "providerId": "saml.other", "redirectUrl": "http://localhost/back",
        "sessionId": hashlib.sha256(b"session-other").hexdigest(), "eventId": "event-2",
    })
    status, headers, text = request("GET", f"{flint.base}/__/auth/handler?{query}")
    check(status == 303 and "Signature=" in headers.get("location", ""), "the other provider's request is signed with its own key", text)
    refused(headers["location"], "a request signed by a key it was not given")

    status, answer = post(f"{flint.base}/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=test",
                          {"providerId": PROVIDER, "continueUri": "http://localhost/done", "sessionId": "app-signed"})
    check(status == 200 and "&Signature=" in answer.get("authUri", ""), "createAuthUri's authUri is signed", answer)
    action, fields = visit_idp(answer["authUri"])
    status, headers, _ = post_form(action, fields)
    status, answer = sign_in_with_idp(flint, headers.get("location", ""), "app-signed")
    check(status == 200 and answer.get("localId") == local_id, "createAuthUri's signed request signs in too", answer)


def idp_refuses(url, name):
    status, _, page = request("GET", url)
    check(status == 403 and "IncorrectlySigned" in page, f"the IdP refuses {name}", f"{status} {page[:300]}")


def signed_sign_in(flint, session_id, local_id, name):
    """A signed start through the handler, the IdP's answer posted back, signInWithIdp: the same user."""
    location = handler_start(flint, session_id)
    check("&Signature=" in location, f"{name}: the request is signed", location)
    action, fields = visit_idp(location)
    status, headers, _ = post_form(action, fields)
    link, error = link_of(headers.get("location", ""))
    status, answer = sign_in_with_idp(flint, link, session_id)
    check(status == 200 and answer.get("localId") == local_id, f"{name}: the IdP accepted the signed request; the user signs in", answer)


def rollover(flint, idp, binary, data, local_id):
    """The provider's SP key rolled over in three steps while the IdP checks signed requests."""
    def published():
        status, _, text = request_json(
            f"{flint.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/inboundSamlConfigs/{PROVIDER}", None, "GET")
        check(status == 200, "the provider's GET", text)
        return [c["x509Certificate"] for c in json.loads(text).get("spConfig", {}).get("spCertificates", [])]

    def rotate(*flags):
        done = subprocess.run([binary, "providers", "saml", "rotate-sp-key", PROVIDER, *flags, "--data", data, "--project", PROJECT],
                              capture_output=True, text=True, timeout=60)
        check(done.returncode == 0, f"flint providers saml rotate-sp-key {' '.join(flags)}", done.stdout + done.stderr)

    [old] = published()
    rotate()
    certificates = published()
    check(len(certificates) == 2 and certificates[0] == old, "the new key is published beside the old one, which comes first: it signs",
          certificates)
    new = certificates[1]
    signed_sign_in(flint, "session-overlap", local_id, "during the overlap, the IdP knowing only the old certificate")
    idp.configure([old, new])
    signed_sign_in(flint, "session-both", local_id, "the IdP given both certificates")
    rotate("--activate")
    check(published() == [new, old], "after the activation the new key comes first; the old one stays published", published())
    location = handler_start(flint, "session-activated")
    idp.configure(old)
    idp_refuses(location, "the new key's request when it knows only the old certificate")
    idp.configure([old, new])
    signed_sign_in(flint, "session-activated", local_id, "after the activation, the new key signing")
    rotate("--retire")
    check(published() == [new], "the old key is retired", published())
    idp.configure(new)
    signed_sign_in(flint, "session-retired", local_id, "after the retirement, the IdP knowing only the new certificate")


def request_json(url, body, method="POST"):
    """An operator call with dev mode's `Bearer owner`."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request(method, parts.path + "?" + parts.query, body=None if body is None else json.dumps(body),
                       headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, dict(response.getheaders()), text


idp_sso = ""

if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print("FAILED:", failure, file=sys.stderr)
        sys.exit(1)

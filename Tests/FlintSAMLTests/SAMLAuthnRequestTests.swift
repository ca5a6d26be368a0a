import CXMLSec
import Crypto
import CryptoExtras
import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

@Suite struct SAMLAuthnRequestTests {
    static let idp = SAMLIdentityProvider(
        entityID: ResponseTemplate.idpEntityID, singleSignOnURL: "https://idp.test/sso?tenant=a", certificates: [])

    /// The query items of a URL, percent-decoded.
    static func query(_ url: String) throws -> [String: String] {
        let components = try #require(URLComponents(string: url))
        return Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    }

    @Test func theRequestNamesTheSPAndTheIdP() throws {
        let request = SAMLAuthnRequest(
            serviceProvider: ResponseTemplate.sp, identityProvider: Self.idp, issueInstant: ResponseTemplate.now + 0.7, id: "_fixed")
        #expect(request.issueInstant == ResponseTemplate.now)
        #expect(
            request.xml
                == #"<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion""#
                + #" ID="_fixed" Version="2.0" IssueInstant="2026-03-01T12:00:00Z" Destination="https://idp.test/sso?tenant=a""#
                + #" AssertionConsumerServiceURL="https://flint.test/__/auth/handler""#
                + #" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"><saml:Issuer>https://flint.test/sp</saml:Issuer>"#
                + #"<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/></samlp:AuthnRequest>"#)
    }

    @Test func idsAreFreshAndStartWithAnUnderscore() {
        let first = SAMLAuthnRequest.makeID()
        #expect(first.count == 41 && first.hasPrefix("_"))
        #expect(first != SAMLAuthnRequest.makeID())
    }

    @Test func textIsEscaped() {
        let sp = SAMLServiceProvider(entityID: "urn:a&b<c>", assertionConsumerServiceURL: "https://flint.test/acs?a=1&b=\"2\"")
        let request = SAMLAuthnRequest(serviceProvider: sp, identityProvider: Self.idp, issueInstant: ResponseTemplate.now, id: "_x")
        #expect(request.xml.contains("<saml:Issuer>urn:a&amp;b&lt;c&gt;</saml:Issuer>"))
        #expect(request.xml.contains(#"AssertionConsumerServiceURL="https://flint.test/acs?a=1&amp;b=&quot;2&quot;""#))
    }

    @Test func theRedirectURLCarriesTheDeflatedRequestAndRelayState() throws {
        let request = SAMLAuthnRequest(serviceProvider: ResponseTemplate.sp, identityProvider: Self.idp, issueInstant: ResponseTemplate.now)
        let url = try request.redirectURL(identityProvider: Self.idp, relayState: "state/with+odd=chars&", signingKey: nil)
        #expect(url.hasPrefix("https://idp.test/sso?tenant=a&SAMLRequest="))
        #expect(url.contains("&RelayState=state%2Fwith%2Bodd%3Dchars%26"))
        let items = try Self.query(url)
        #expect(try TestSigner.inflate(try #require(items["SAMLRequest"])) == request.xml)
        #expect(items["RelayState"] == "state/with+odd=chars&")
        #expect(items["Signature"] == nil)
    }

    @Test func anIdPThatWantsSignedRequestsGetsThem() throws {
        var idp = Self.idp
        idp.signRequest = true
        let request = SAMLAuthnRequest(serviceProvider: ResponseTemplate.sp, identityProvider: idp, issueInstant: ResponseTemplate.now)
        #expect(throws: SAMLError.signingKeyRequired) { try request.redirectURL(identityProvider: idp, relayState: "s", signingKey: nil) }
        let spKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let url = try request.redirectURL(
            identityProvider: idp, relayState: "s", signingKey: SAMLSigningKey(pemRepresentation: spKey.pemRepresentation))
        let items = try Self.query(url)
        #expect(items["SigAlg"] == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
        // The signature covers the parameters exactly as sent, up to and including SigAlg.
        let query = try #require(url.split(separator: "?", maxSplits: 1).last).split(separator: "&")
            .filter { !$0.hasPrefix("tenant=") && !$0.hasPrefix("Signature=") }.joined(separator: "&")
        let encodedSignature = try #require(items["Signature"])
        let signature = _RSA.Signing.RSASignature(rawRepresentation: try #require(Data(base64Encoded: encodedSignature)))
        #expect(spKey.publicKey.isValidSignature(signature, for: SHA256.hash(data: Data(query.utf8)), padding: .insecurePKCS1v1_5))
        #expect(throws: SAMLError.invalidSigningKey("not an RSA private key of at least 2048 bits in PEM")) {
            try SAMLSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
        }
    }
}

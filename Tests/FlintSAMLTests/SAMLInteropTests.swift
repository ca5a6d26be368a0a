import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

/// A response made and signed by another implementation, pysaml2 (through the xmlsec1 command), verified by FlintSAML.
/// scripts/saml-interop-fixture.py wrote the fixture once; it records the instant it was made.
@Suite struct SAMLInteropTests {
    struct InteropFixture: Decodable {
        let samlResponse, certificate, requestID, now, spEntityID, acsURL, idpEntityID, nameID: String
    }

    static func load() throws -> InteropFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pysaml2-response.json")
        return try JSONDecoder().decode(InteropFixture.self, from: Data(contentsOf: url))
    }

    static func verifier(_ fixture: InteropFixture, certificates: [String]) -> SAMLResponseVerifier {
        SAMLResponseVerifier(
            serviceProvider: SAMLServiceProvider(entityID: fixture.spEntityID, assertionConsumerServiceURL: fixture.acsURL),
            identityProvider: SAMLIdentityProvider(
                entityID: fixture.idpEntityID, singleSignOnURL: "https://pysaml2-idp.test/sso", certificates: certificates))
    }

    @Test func aPysaml2ResponseVerifies() throws {
        let fixture = try Self.load()
        let now = try #require(SAMLTime.parse(fixture.now))
        let assertion = try Self.verifier(fixture, certificates: [fixture.certificate])
            .verify(encodedResponse: fixture.samlResponse, expectedRequestID: fixture.requestID, now: now)
        #expect(assertion.nameID == fixture.nameID)
        #expect(assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress")
        #expect(assertion.issuer == fixture.idpEntityID)
        // pysaml2 names attributes by OID (FriendlyName mail, displayName); attributes are keyed by Name.
        #expect(assertion.attributes["urn:oid:0.9.2342.19200300.100.1.3"] == ["interop@example.com"])
        #expect(assertion.attributes["urn:oid:2.16.840.1.113730.3.1.241"] == ["Interop User"])
        #expect(assertion.inResponseTo == fixture.requestID)
        #expect(assertion.notOnOrAfter > now)
    }

    @Test func aPysaml2ResponseIsRefusedWithAnotherCertificateThoughItCarriesItsOwn() throws {
        let fixture = try Self.load()
        let now = try #require(SAMLTime.parse(fixture.now))
        #expect(throws: SAMLError.signatureInvalid) {
            try Self.verifier(fixture, certificates: [try TestKey.stranger.get().certificatePEM])
                .verify(encodedResponse: fixture.samlResponse, expectedRequestID: fixture.requestID, now: now)
        }
        #expect(throws: SAMLError.expired("SubjectConfirmationData NotOnOrAfter")) {
            try Self.verifier(fixture, certificates: [fixture.certificate])
                .verify(encodedResponse: fixture.samlResponse, expectedRequestID: fixture.requestID, now: now + 3600)
        }
    }
}

import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

/// The checks on what a signed response says: each test breaks one thing in an otherwise valid, signed response.
@Suite struct SAMLResponseVerifierTests {
    @Test func aSignedAssertionIsReadWhole() throws {
        let assertion = try Fixture.verify(Fixture.signedAssertion())
        #expect(assertion.id == "_assertion1")
        #expect(assertion.issuer == ResponseTemplate.idpEntityID)
        #expect(assertion.nameID == "alice@example.com")
        #expect(assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress")
        #expect(assertion.attributes == ["email": ["alice@example.com"], "groups": ["admins", "staff"]])
        #expect(assertion.sessionIndex == "_session42")
        #expect(assertion.authnInstant == SAMLTime.parse("2026-03-01T11:59:30Z"))
        #expect(assertion.inResponseTo == ResponseTemplate.requestID)
        // The bearer confirmation ends before the Conditions do: the earlier bound is the one to remember the ID until.
        #expect(assertion.notOnOrAfter == SAMLTime.parse("2026-03-01T12:05:00Z"))
    }

    @Test func verificationsRunConcurrently() async throws {
        let encoded = TestSigner.encode(try Fixture.signedAssertion())
        let verifier = ResponseTemplate.verifier(certificates: [try Fixture.idp.certificatePEM])
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try verifier.verify(encodedResponse: encoded, expectedRequestID: ResponseTemplate.requestID, now: ResponseTemplate.now).id
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ids == Array(repeating: "_assertion1", count: 8))
    }

    @Test func theConditionsEndCountsWhenItIsEarlier() throws {
        var template = ResponseTemplate()
        template.conditionsNotOnOrAfter = "2026-03-01T12:03:00Z"
        #expect(try Fixture.verify(Fixture.signedAssertion(template)).notOnOrAfter == SAMLTime.parse("2026-03-01T12:03:00Z"))
    }

    @Test func aFailedStatusIsReportedWithItsCodes() throws {
        var template = ResponseTemplate()
        template.statusCode = "urn:oasis:names:tc:SAML:2.0:status:Responder"
        template.statusExtra = "<samlp:StatusMessage>no such user</samlp:StatusMessage>"
        let xml = template.xml(assertion: "").replacingOccurrences(
            of: "<samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Responder\"/>",
            with: "<samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Responder\">"
                + "<samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:AuthnFailed\"/></samlp:StatusCode>")
        #expect(
            try Fixture.refusal(xml)
                == .statusNotSuccess(
                    code: "urn:oasis:names:tc:SAML:2.0:status:Responder / urn:oasis:names:tc:SAML:2.0:status:AuthnFailed",
                    message: "no such user"))
    }

    @Test func anotherAssertionIssuerIsRefused() throws {
        var template = ResponseTemplate()
        template.assertionIssuer = "https://evil.test"
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .issuerMismatch("https://evil.test"))
    }

    @Test func anotherResponseIssuerIsRefused() throws {
        var template = ResponseTemplate()
        template.responseIssuer = "https://evil.test"
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .issuerMismatch("https://evil.test"))
    }

    @Test func anAudienceWithoutTheSPIsRefused() throws {
        var template = ResponseTemplate()
        template.audiences = ["https://other-sp.test"]
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .audienceMismatch)
        template.audiences = ["https://other-sp.test", ResponseTemplate.sp.entityID]
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == nil)
    }

    @Test func aRecipientOtherThanTheACSIsRefused() throws {
        var template = ResponseTemplate()
        template.recipient = "https://evil.test/acs"
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(template))
                == .recipientMismatch("the bearer confirmation's Recipient https://evil.test/acs is not the ACS URL"))
        template.recipient = nil
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(template))
                == .recipientMismatch("the bearer confirmation's Recipient (none) is not the ACS URL"))
    }

    @Test func aDestinationOtherThanTheACSIsRefusedAndAnAbsentOneIsFine() throws {
        var template = ResponseTemplate()
        template.destination = "https://evil.test/acs"
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(template))
                == .recipientMismatch("the Response's Destination https://evil.test/acs is not the ACS URL"))
        template.destination = nil
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == nil)
    }

    @Test func aConfirmationThatIsNotBearerIsRefused() throws {
        var template = ResponseTemplate()
        template.confirmationMethod = "urn:oasis:names:tc:SAML:2.0:cm:holder-of-key"
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .noBearerConfirmation)
    }

    @Test func theBearerConfirmationMustEndAndNotHaveEnded() throws {
        var template = ResponseTemplate()
        template.confirmationNotOnOrAfter = nil
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .malformedMessage("SubjectConfirmationData NotOnOrAfter is missing"))
        template.confirmationNotOnOrAfter = "2026-03-01T11:58:59Z"
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .expired("SubjectConfirmationData NotOnOrAfter"))
        // Within the skew (60 s by default) it still holds.
        template.confirmationNotOnOrAfter = "2026-03-01T11:59:30Z"
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == nil)
    }

    @Test func inResponseToMustBeTheIssuedRequest() throws {
        var template = ResponseTemplate()
        template.confirmationInResponseTo = "_another"
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(template))
                == .inResponseToMismatch("_another is not the request this sign-in issued"))
        template.confirmationInResponseTo = nil
        #expect(try Fixture.refusal(Fixture.signedAssertion(template)) == .inResponseToMismatch("missing, and a request was issued"))
        template = ResponseTemplate()
        template.responseInResponseTo = "_another"
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(template))
                == .inResponseToMismatch("_another is not the request this sign-in issued"))
    }

    @Test func anUnsolicitedResponseNeedsTheFlagAndNoInResponseTo() throws {
        var template = ResponseTemplate()
        template.responseInResponseTo = nil
        template.confirmationInResponseTo = nil
        let xml = try Fixture.signedAssertion(template)
        #expect(try Fixture.refusal(xml, expectedRequestID: nil) == .unsolicitedResponse)
        #expect(try Fixture.verify(xml, expectedRequestID: nil, unsolicited: true).inResponseTo == nil)
        #expect(
            try Fixture.refusal(Fixture.signedAssertion(), expectedRequestID: nil, unsolicited: true)
                == .inResponseToMismatch("present in an unsolicited response"))
    }

    @Test func theConditionsWindowHoldsWithABoundedSkew() throws {
        var template = ResponseTemplate()
        template.conditionsNotBefore = "2026-03-01T12:02:00Z"
        let early = try Fixture.signedAssertion(template)
        #expect(try Fixture.refusal(early) == .notYetValid("Conditions NotBefore"))
        #expect(try Fixture.refusal(early, clockSkew: .seconds(180)) == nil)
        template = ResponseTemplate()
        template.conditionsNotOnOrAfter = "2026-03-01T11:50:00Z"
        let late = try Fixture.signedAssertion(template)
        #expect(try Fixture.refusal(late) == .expired("Conditions NotOnOrAfter"))
        // A skew of an hour is clamped to five minutes: ten minutes late stays refused.
        #expect(try Fixture.refusal(late, clockSkew: .seconds(3600)) == .expired("Conditions NotOnOrAfter"))
        #expect(ResponseTemplate.verifier(certificates: [], clockSkew: .seconds(3600)).clockSkew == .seconds(300))
    }

    @Test func aNameIDIsRequired() throws {
        let xml = ResponseTemplate().xml().replacingOccurrences(
            of: #"<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">alice@example.com</saml:NameID>"#, with: "")
        let signed = try TestSigner.sign(xml, ids: ["_assertion1"], key: Fixture.idp)
        #expect(try Fixture.refusal(signed) == .malformedMessage("Subject has no NameID"))
    }

    @Test func anEncryptedAssertionIsRefusedAsNotSupported() throws {
        let encrypted =
            #"<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></saml:EncryptedAssertion>"#
        let xml = try TestSigner.sign(ResponseTemplate().xml(assertion: encrypted), ids: ["_response1"], key: Fixture.idp)
        #expect(try Fixture.refusal(xml) == .encryptedAssertionNotSupported)
    }

    @Test func aResponseWithoutAssertionIsRefused() throws {
        let xml = try TestSigner.sign(ResponseTemplate().xml(assertion: ""), ids: ["_response1"], key: Fixture.idp)
        #expect(try Fixture.refusal(xml) == .malformedMessage("0 Assertion elements; exactly one is accepted"))
    }

    @Test func notBase64IsRefused() throws {
        let verifier = ResponseTemplate.verifier(certificates: [try Fixture.idp.certificatePEM])
        #expect(throws: SAMLError.malformedEncoding("not base64")) {
            try verifier.verify(encodedResponse: "%%%", expectedRequestID: ResponseTemplate.requestID, now: ResponseTemplate.now)
        }
        #expect(throws: SAMLError.malformedXML) {
            try verifier.verify(
                encodedResponse: TestSigner.encode("<samlp:Response"), expectedRequestID: ResponseTemplate.requestID, now: ResponseTemplate.now)
        }
    }

    @Test func lineBreaksInTheBase64AreAccepted() throws {
        let encoded = TestSigner.encode(try Fixture.signedAssertion())
        var wrapped = ""
        for (index, character) in encoded.enumerated() {
            if index > 0, index % 76 == 0 { wrapped += "\r\n" }
            wrapped.append(character)
        }
        let verifier = ResponseTemplate.verifier(certificates: [try Fixture.idp.certificatePEM])
        #expect(
            try verifier.verify(encodedResponse: wrapped, expectedRequestID: ResponseTemplate.requestID, now: ResponseTemplate.now).id
                == "_assertion1")
    }
}

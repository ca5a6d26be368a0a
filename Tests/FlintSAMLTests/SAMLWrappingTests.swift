import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

/// Signature wrapping (XSW1–XSW8 of Somorovsky et al., "On Breaking SAML") and its cousins: a signed element kept
/// somewhere the signature still verifies while the verifier reads an unsigned one. Each is refused.
@Suite struct SAMLWrappingTests {
    /// An assertion for mallory, unsigned, with its own ID.
    static func evilAssertion(id: String = "_evil") -> String {
        var template = ResponseTemplate()
        template.nameID = "mallory@example.com"
        return template.assertionXML(id: id)
    }

    static func signedResponseParts() throws -> (document: String, signature: String) {
        let document = try Fixture.signedResponse()
        let signature = try #require(Fixture.element("<Signature xmlns", "</Signature>", in: document))
        return (document, signature)
    }

    static func signedAssertion() throws -> String {
        try #require(Fixture.element("<saml:Assertion", "</saml:Assertion>", in: Fixture.signedAssertion()))
    }

    @Test func xsw1TheSignedResponseHiddenInANewResponsesSignature() throws {
        let (document, signature) = try Self.signedResponseParts()
        let original = document.replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: "")
        let wrapped = signature.replacingOccurrences(of: "</Signature>", with: "<Object>\(original)</Object></Signature>")
        var template = ResponseTemplate()
        template.responseID = "_forged"
        template.responseExtra = wrapped
        let xml = template.xml(assertion: Self.evilAssertion())
        #expect(try Fixture.refusal(xml) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func xsw2TheSignedResponseBesideTheForgedOnesSignature() throws {
        let (document, signature) = try Self.signedResponseParts()
        let original = document.replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: "")
        var template = ResponseTemplate()
        template.responseID = "_forged"
        template.responseExtra = signature + "<samlp:Extensions>\(original)</samlp:Extensions>"
        #expect(
            try Fixture.refusal(template.xml(assertion: Self.evilAssertion())) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func aSignedResponsesSignatureCopiedIntoAForgedResponseAlone() throws {
        // The forged response keeps one (evil) assertion and the original signature, which names the original ID.
        let (_, signature) = try Self.signedResponseParts()
        var template = ResponseTemplate()
        template.responseID = "_forged"
        template.responseExtra = signature
        #expect(
            try Fixture.refusal(template.xml(assertion: Self.evilAssertion()))
                == .signatureReference("the reference #_response1 does not name its Response #_forged"))
        // Under the original ID, the signature no longer matches what it covers.
        template.responseID = "_response1"
        #expect(try Fixture.refusal(template.xml(assertion: Self.evilAssertion())) == .signatureInvalid)
    }

    @Test func xsw3AnUnsignedAssertionBeforeTheSignedOne() throws {
        let xml = try ResponseTemplate().xml(assertion: Self.evilAssertion() + Self.signedAssertion())
        #expect(try Fixture.refusal(xml) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func xsw3WithTheSignedAssertionsOwnID() throws {
        let xml = try ResponseTemplate().xml(assertion: Self.evilAssertion(id: "_assertion1") + Self.signedAssertion())
        #expect(try Fixture.refusal(xml) == .duplicateID("_assertion1"))
    }

    @Test func xsw4TheSignedAssertionInsideTheForgedOne() throws {
        let evil = Self.evilAssertion().replacingOccurrences(of: "</saml:Assertion>", with: try Self.signedAssertion() + "</saml:Assertion>")
        #expect(try Fixture.refusal(ResponseTemplate().xml(assertion: evil)) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func xsw5TheSignatureMovedToTheForgedAssertionAndTheOriginalAfterIt() throws {
        let original = try Self.signedAssertion()
        let signature = try #require(Fixture.element("<Signature xmlns", "</Signature>", in: original))
        let unsignedOriginal = original.replacingOccurrences(of: signature, with: "")
        let evil = Self.evilAssertion().replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + signature)
        let xml = ResponseTemplate().xml(assertion: evil + unsignedOriginal)
        #expect(try Fixture.refusal(xml) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func xsw6TheOriginalInsideTheForgedAssertionsSignatureObject() throws {
        let original = try Self.signedAssertion()
        let signature = try #require(Fixture.element("<Signature xmlns", "</Signature>", in: original))
        let wrapped = signature.replacingOccurrences(of: "</Signature>", with: "<Object>\(original)</Object></Signature>")
        let evil = Self.evilAssertion().replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + wrapped)
        #expect(try Fixture.refusal(ResponseTemplate().xml(assertion: evil)) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
    }

    @Test func xsw7TheSignedAssertionInExtensions() throws {
        var template = ResponseTemplate()
        template.responseExtra = "<samlp:Extensions>\(try Self.signedAssertion())</samlp:Extensions>"
        #expect(
            try Fixture.refusal(template.xml(assertion: Self.evilAssertion())) == .malformedMessage("2 Assertion elements; exactly one is accepted"))
        // Moved there alone, it is not the Response's assertion.
        #expect(try Fixture.refusal(template.xml(assertion: "")) == .malformedMessage("the Assertion is not a child of the Response"))
    }

    @Test func xsw8TheOriginalWithoutItsSignatureInTheForgedSignaturesObject() throws {
        let original = try Self.signedAssertion()
        let signature = try #require(Fixture.element("<Signature xmlns", "</Signature>", in: original))
        let stripped = original.replacingOccurrences(of: signature, with: "")
        let wrapped = signature.replacingOccurrences(of: "</Signature>", with: "<Object>\(stripped)</Object></Signature>")
        let evil = Self.evilAssertion(id: "_assertion1").replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + wrapped)
        let refusal = try Fixture.refusal(ResponseTemplate().xml(assertion: evil))
        #expect(refusal == .duplicateID("_assertion1"))
    }

    @Test func theSignatureOfAnotherAssertionCopiedIntoAForgedOne() throws {
        // One assertion only, carrying a signature whose reference names an ID that is not its own.
        let original = try Self.signedAssertion()
        let signature = try #require(Fixture.element("<Signature xmlns", "</Signature>", in: original))
        let evil = Self.evilAssertion().replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + signature)
        #expect(
            try Fixture.refusal(ResponseTemplate().xml(assertion: evil))
                == .signatureReference("the reference #_assertion1 does not name its Assertion #_evil"))
        // Same ID, different content: the digest no longer matches.
        let sameID = Self.evilAssertion(id: "_assertion1").replacingOccurrences(of: "</saml:Issuer>", with: "</saml:Issuer>" + signature)
        #expect(try Fixture.refusal(ResponseTemplate().xml(assertion: sameID)) == .signatureInvalid)
    }

    @Test func aSignedAssertionMovedIntoAnotherResponseStillAnswersOnlyItsRequest() throws {
        // An assertion signed for one sign-in, replayed inside a response forged for another: its own InResponseTo.
        var other = ResponseTemplate()
        other.responseInResponseTo = "_other-request"
        let xml = other.xml(assertion: try Self.signedAssertion())
        #expect(
            try Fixture.refusal(xml, expectedRequestID: "_other-request")
                == .inResponseToMismatch("\(ResponseTemplate.requestID) is not the request this sign-in issued"))
    }
}

import CXMLSec
import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

/// Who signed, over what, with which algorithms: only the configured certificates, only RSA-SHA2 with exclusive C14N.
@Suite struct SAMLSignatureTests {
    @Test func aSignedResponseCoversItsUnsignedAssertion() throws {
        #expect(try Fixture.verify(Fixture.signedResponse()).nameID == "alice@example.com")
    }

    @Test func aResponseAndAssertionBothSignedVerify() throws {
        let xml = try TestSigner.sign(ResponseTemplate().xml(), ids: ["_assertion1", "_response1"], key: Fixture.idp)
        #expect(try Fixture.verify(xml).id == "_assertion1")
    }

    @Test func anUnsignedResponseWithAnUnsignedAssertionIsRefused() throws {
        #expect(try Fixture.refusal(ResponseTemplate().xml()) == .unsigned)
    }

    @Test func anUnsignedAssertionAlteredInsideASignedResponseIsRefused() throws {
        let signed = try Fixture.signedResponse()
        let altered = signed.replacingOccurrences(of: ">alice@example.com</saml:NameID>", with: ">mallory@example.com</saml:NameID>")
        #expect(altered != signed)
        #expect(try Fixture.refusal(altered) == .signatureInvalid)
    }

    @Test func aSignatureByAKeyNotConfiguredIsRefused() throws {
        let xml = try TestSigner.sign(ResponseTemplate().xml(), ids: ["_assertion1"], key: Fixture.stranger)
        #expect(try Fixture.refusal(xml) == .signatureInvalid)
    }

    @Test func theCertificateInKeyInfoIsNeverTrusted() throws {
        var options = TestSigner.Options()
        options.keyInfoCertificate = try Fixture.stranger.certificatePEM
        let xml = try TestSigner.sign(ResponseTemplate().xml(), ids: ["_assertion1"], key: Fixture.stranger, options: options)
        #expect(xml.contains("<ds:X509Certificate>") || xml.contains("<X509Certificate>"))
        #expect(try Fixture.refusal(xml) == .signatureInvalid)
    }

    @Test func anyConfiguredCertificateVerifies() throws {
        let certificates = [try Fixture.stranger.certificatePEM, try Fixture.idp.certificatePEM]
        #expect(try Fixture.verify(Fixture.signedAssertion(), certificates: certificates).id == "_assertion1")
        #expect(try Fixture.refusal(Fixture.signedAssertion(), certificates: []) == .invalidCertificate("no IdP certificate is configured"))
        #expect(try Fixture.refusal(Fixture.signedAssertion(), certificates: ["garbage"]) == .invalidCertificate("not a PEM certificate"))
    }

    @Test(arguments: [384, 512])
    func rsaWithSHA384AndSHA512Verify(bits: Int) throws {
        let options =
            bits == 384
            ? TestSigner.Options(method: xmlSecOpenSSLTransformRsaSha384GetKlass(), digest: xmlSecOpenSSLTransformSha384GetKlass())
            : TestSigner.Options(method: xmlSecOpenSSLTransformRsaSha512GetKlass(), digest: xmlSecOpenSSLTransformSha512GetKlass())
        #expect(try Fixture.verify(Fixture.signedAssertion(options: options)).id == "_assertion1")
    }

    @Test func sha1IsRefusedWithAClearReason() throws {
        let rsaSHA1 = try Fixture.signedAssertion(options: TestSigner.Options(method: xmlSecOpenSSLTransformRsaSha1GetKlass()))
        #expect(try Fixture.refusal(rsaSHA1) == .unsupportedAlgorithm("RSA-SHA1: SHA-1 signatures are refused; use RSA-SHA256"))
        let sha1Digest = try Fixture.signedAssertion(options: TestSigner.Options(digest: xmlSecOpenSSLTransformSha1GetKlass()))
        #expect(try Fixture.refusal(sha1Digest) == .unsupportedAlgorithm("SHA-1 digests are refused; use SHA-256"))
    }

    @Test func onlyExclusiveCanonicalizationIsAccepted() throws {
        let inclusive = try Fixture.signedAssertion(options: TestSigner.Options(canonicalization: xmlSecTransformInclC14NGetKlass()))
        #expect(
            try Fixture.refusal(inclusive)
                == .unsupportedAlgorithm("canonicalization http://www.w3.org/TR/2001/REC-xml-c14n-20010315; only exclusive C14N is accepted"))
        let withComments = try Fixture.signedAssertion(
            options: TestSigner.Options(transforms: [xmlSecTransformEnvelopedGetKlass(), xmlSecTransformExclC14NWithCommentsGetKlass()]))
        #expect(
            try Fixture.refusal(withComments)
                == .unsupportedAlgorithm(
                    "transform http://www.w3.org/2001/10/xml-exc-c14n#WithComments; only enveloped-signature and exclusive C14N are accepted"))
        let envelopedOnly = try Fixture.signedAssertion(options: TestSigner.Options(transforms: [xmlSecTransformEnvelopedGetKlass()]))
        #expect(
            try Fixture.refusal(envelopedOnly)
                == .unsupportedAlgorithm(
                    "transforms [\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"]; exactly enveloped-signature and exclusive C14N are required"
                ))
    }

    @Test func aSignatureMustReferenceTheElementItSitsIn() throws {
        // The response's signature referencing the assertion: valid XML-DSig, but not the element it envelops.
        var options = TestSigner.Options()
        options.placeIn = "_response1"
        let xml = try TestSigner.sign(ResponseTemplate().xml(), ids: ["_assertion1"], key: Fixture.idp, options: options)
        #expect(try Fixture.refusal(xml) == .signatureReference("the reference #_assertion1 does not name its Response #_response1"))
    }

    @Test func duplicateIDsAreRefused() throws {
        // An element elsewhere with the signed assertion's ID: whichever one a resolver picks, the document is refused.
        var template = ResponseTemplate()
        template.responseExtra = #"<samlp:Extensions><x:Decoy xmlns:x="urn:x" ID="_assertion1"/></samlp:Extensions>"#
        let xml = try TestSigner.sign(template.xml(), ids: ["_assertion1"], key: Fixture.idp)
        #expect(try Fixture.refusal(xml) == .duplicateID("_assertion1"))
        // xml:id is an ID to libxml2 as well.
        template.responseExtra = #"<samlp:Extensions><x:Decoy xmlns:x="urn:x" xml:id="_assertion1"/></samlp:Extensions>"#
        #expect(try Fixture.refusal(TestSigner.sign(template.xml(), ids: ["_assertion1"], key: Fixture.idp)) == .duplicateID("_assertion1"))
    }

    @Test func aCommentInTheNameIDDoesNotCutItShort() throws {
        // The IdP signs user@evil.com.good.com; a comment added afterwards leaves the exclusive-C14N signature valid
        // and splits the text in two nodes. The whole text is read, never the first node alone.
        var template = ResponseTemplate()
        template.nameID = "user@evil.com.good.com"
        let signed = try Fixture.signedAssertion(template)
        let injected = signed.replacingOccurrences(of: "user@evil.com.good.com", with: "user@evil.com<!---->.good.com")
        #expect(injected != signed)
        #expect(try Fixture.verify(injected).nameID == "user@evil.com.good.com")
        let attributeInjected = signed.replacingOccurrences(of: "<saml:AttributeValue>admins<", with: "<saml:AttributeValue>adm<!-- x -->ins<")
        #expect(try Fixture.verify(attributeInjected).attributes["groups"] == ["admins", "staff"])
    }
}

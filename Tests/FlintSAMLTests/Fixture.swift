import FlintSAMLTestSupport
import Foundation

@testable import FlintSAML

/// Signed responses for the tests and the verification call they share.
enum Fixture {
    static var idp: TestKey { get throws { try TestKey.idp.get() } }
    static var stranger: TestKey { get throws { try TestKey.stranger.get() } }

    /// The template's response with its assertion signed by the IdP.
    static func signedAssertion(_ template: ResponseTemplate = ResponseTemplate(), options: TestSigner.Options = .init()) throws -> String {
        try TestSigner.sign(template.xml(), ids: [template.assertionID], key: idp, options: options)
    }

    /// The template's response signed as a whole by the IdP, its assertion unsigned.
    static func signedResponse(_ template: ResponseTemplate = ResponseTemplate(), options: TestSigner.Options = .init()) throws -> String {
        try TestSigner.sign(template.xml(), ids: [template.responseID], key: idp, options: options)
    }

    /// Verifies a response document as the ACS would receive it, against the IdP's certificate by default.
    static func verify(
        _ xml: String, certificates: [String]? = nil, expectedRequestID: String? = ResponseTemplate.requestID,
        now: Date = ResponseTemplate.now, clockSkew: Duration = .seconds(60), unsolicited: Bool = false
    ) throws -> SAMLAssertion {
        let verifier = ResponseTemplate.verifier(
            certificates: try certificates ?? [idp.certificatePEM], clockSkew: clockSkew, unsolicited: unsolicited)
        return try verifier.verify(encodedResponse: TestSigner.encode(xml), expectedRequestID: expectedRequestID, now: now)
    }

    /// The SAMLError a verification throws, nil if it succeeds.
    static func refusal(
        _ xml: String, certificates: [String]? = nil, expectedRequestID: String? = ResponseTemplate.requestID,
        now: Date = ResponseTemplate.now, clockSkew: Duration = .seconds(60), unsolicited: Bool = false
    ) throws -> SAMLError? {
        do {
            _ = try verify(
                xml, certificates: certificates, expectedRequestID: expectedRequestID, now: now, clockSkew: clockSkew,
                unsolicited: unsolicited)
            return nil
        } catch let error as SAMLError {
            return error
        }
    }

    /// The text of the first element that starts with `open` (e.g. `<saml:Assertion`) through its `close` tag.
    static func element(_ open: String, _ close: String, in xml: String) -> String? {
        guard let start = xml.range(of: open), let end = xml.range(of: close, range: start.upperBound..<xml.endIndex) else { return nil }
        return String(xml[start.lowerBound..<end.upperBound])
    }
}

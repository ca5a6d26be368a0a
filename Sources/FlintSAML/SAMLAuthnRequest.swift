import CXMLSec

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An SP-initiated AuthnRequest and its HTTP-Redirect binding URL. The caller keeps ``id`` to check the response's
/// InResponseTo (``SAMLResponseVerifier/verify(encodedResponse:expectedRequestID:now:)``).
public struct SAMLAuthnRequest: Sendable, Hashable {
    /// The request's `ID`: `_` and 40 hex digits of system randomness.
    public let id: String
    /// The request's `IssueInstant`, whole seconds.
    public let issueInstant: Date
    /// The IdP's SSO URL, the request's `Destination`.
    public let destination: String
    /// The request's XML, as it is deflated into `SAMLRequest`.
    public let xml: String

    /// Builds the request: Destination the IdP's SSO URL, AssertionConsumerServiceURL and Issuer the SP's, responses
    /// by HTTP-POST, `NameIDPolicy` unspecified with `AllowCreate`.
    /// - Parameters:
    ///   - id: the request ID; a fresh random one unless a test fixes it.
    ///   - issueInstant: now.
    public init(
        serviceProvider: SAMLServiceProvider, identityProvider: SAMLIdentityProvider, issueInstant: Date,
        id: String = SAMLAuthnRequest.makeID()
    ) {
        self.id = id
        self.issueInstant = Date(timeIntervalSince1970: issueInstant.timeIntervalSince1970.rounded(.down))
        self.destination = identityProvider.singleSignOnURL
        self.xml =
            #"<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion""#
            + #" ID="\#(Self.escape(id))" Version="2.0" IssueInstant="\#(SAMLTime.format(issueInstant))""#
            + #" Destination="\#(Self.escape(identityProvider.singleSignOnURL))""#
            + #" AssertionConsumerServiceURL="\#(Self.escape(serviceProvider.assertionConsumerServiceURL))""#
            + #" ProtocolBinding="\#(SAMLNames.postBinding)">"#
            + #"<saml:Issuer>\#(Self.escape(serviceProvider.entityID))</saml:Issuer>"#
            + #"<samlp:NameIDPolicy Format="\#(SAMLNames.unspecifiedNameIDFormat)" AllowCreate="true"/>"#
            + "</samlp:AuthnRequest>"
    }

    /// A fresh request ID: `_` (an ID must not start with a digit) and 160 random bits in hex.
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "_" + (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }.map(hexByte).joined()
    }

    /// The HTTP-Redirect binding URL: the SSO URL with `SAMLRequest` (raw DEFLATE, base64, URL-encoded), `RelayState`
    /// and, when the IdP wants signed requests, `SigAlg` (RSA-SHA256) and `Signature` over those parameters as sent.
    /// - Parameters:
    ///   - relayState: the opaque state the IdP posts back (at most 80 bytes by SAML's binding; not checked here).
    ///   - signingKey: the SP's key; required when the IdP's `signRequest` is set, ignored otherwise.
    ///   - identityProvider: the IdP, for `signRequest`.
    /// - Throws: ``SAMLError/signingKeyRequired``, ``SAMLError/invalidSigningKey(_:)``.
    public func redirectURL(identityProvider: SAMLIdentityProvider, relayState: String?, signingKey: SAMLSigningKey?) throws(SAMLError)
        -> String
    {
        let deflated = try SAMLDeflate.compress(Array(xml.utf8))
        var query = "SAMLRequest=" + Self.percentEncode(Data(deflated).base64EncodedString())
        if let relayState { query += "&RelayState=" + Self.percentEncode(relayState) }
        if identityProvider.signRequest {
            guard let signingKey else { throw .signingKeyRequired }
            query += "&SigAlg=" + Self.percentEncode(SAMLNames.rsaSHA256)
            let signature = try signingKey.signature(for: Array(query.utf8))
            query += "&Signature=" + Self.percentEncode(signature.base64EncodedString())
        }
        return destination + (destination.contains("?") ? "&" : "?") + query
    }

    /// Escapes text for an XML attribute value or element content.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// RFC 3986 percent-encoding of a query value: everything but the unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += "%" + hexByte(byte).uppercased()
            }
        }
        return result
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
}

/// Raw DEFLATE (RFC 1951) through zlib, as the HTTP-Redirect binding carries `SAMLRequest`.
enum SAMLDeflate {
    static func compress(_ bytes: [UInt8]) throws(SAMLError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count + 1024)
        let length = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { flint_raw_deflate(input.baseAddress, input.count, $0.baseAddress, $0.count) }
        }
        guard length >= 0 else { throw .malformedMessage("the request could not be deflated") }
        return Array(output[0..<length])
    }

}

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Verifies a SAMLResponse posted to the ACS (HTTP-POST binding) for one SP and one IdP, and reads its assertion.
///
/// What it refuses, in order: a DOCTYPE; a root that is not a Response; duplicate IDs; a Status other than Success;
/// an EncryptedAssertion; anything but exactly one Assertion in the whole document, as a child of the Response; no
/// signature; a signature that is not an enveloped RSA-SHA2 / exclusive-C14N signature whose single reference is the ID
/// of the Response or Assertion it sits in, or that does not verify with a configured certificate; a Response Issuer,
/// Destination or InResponseTo that is present and wrong; an Assertion Issuer other than the IdP; no NameID; no bearer
/// confirmation with this ACS as Recipient, a live NotOnOrAfter and the expected InResponseTo; Conditions out of their
/// window or whose audience restrictions do not name the SP; no AuthnStatement.
///
/// Replay protection is the caller's: it records ``SAMLAssertion/id`` until ``SAMLAssertion/notOnOrAfter``.
public struct SAMLResponseVerifier: Sendable {
    /// The largest clock skew accepted, whatever the caller asks for.
    public static let maximumClockSkew: Duration = .seconds(300)
    /// The largest base64 SAMLResponse read (IdPs send a few kilobytes).
    public static let maximumEncodedLength = 1 << 20

    public var serviceProvider: SAMLServiceProvider
    public var identityProvider: SAMLIdentityProvider
    /// Tolerance for each time bound, at most ``maximumClockSkew``.
    public var clockSkew: Duration
    /// Whether a response with no request to answer (IdP-initiated) is accepted; off by default.
    public var allowsUnsolicitedResponses: Bool

    /// - Parameters:
    ///   - clockSkew: tolerance for each time bound; clamped to 0...``maximumClockSkew``.
    ///   - allowsUnsolicitedResponses: accept a response without an expected request ID (then it must carry no InResponseTo).
    public init(
        serviceProvider: SAMLServiceProvider, identityProvider: SAMLIdentityProvider, clockSkew: Duration = .seconds(60),
        allowsUnsolicitedResponses: Bool = false
    ) {
        self.serviceProvider = serviceProvider
        self.identityProvider = identityProvider
        self.clockSkew = min(max(clockSkew, .zero), Self.maximumClockSkew)
        self.allowsUnsolicitedResponses = allowsUnsolicitedResponses
    }

    /// Verifies a posted SAMLResponse and returns the assertion its signature covers.
    /// - Parameters:
    ///   - encodedResponse: the `SAMLResponse` form field, base64 (line breaks allowed), already URL-decoded.
    ///   - expectedRequestID: the ID of the AuthnRequest this sign-in sent; nil only for an unsolicited response.
    ///   - now: the current instant.
    /// - Returns: the verified assertion's data.
    /// - Throws: a ``SAMLError`` naming the first check that failed.
    public func verify(encodedResponse: String, expectedRequestID: String?, now: Date) throws(SAMLError) -> SAMLAssertion {
        try XMLSecLibrary.ensureInitialized()
        if expectedRequestID == nil, !allowsUnsolicitedResponses { throw .unsolicitedResponse }
        let document = try XMLDocument(parsing: Self.decode(encodedResponse))
        guard let response = document.root, response.is("Response", in: SAMLNames.protocolNamespace) else {
            throw .malformedMessage("the root element is not a samlp:Response")
        }
        try document.registerIDs()
        try checkStatus(of: response)
        if !response.descendants("EncryptedAssertion", in: SAMLNames.assertionNamespace).isEmpty {
            throw .encryptedAssertionNotSupported
        }
        let assertion = try soleAssertion(of: response)
        try verifySignatures(response: response, assertion: assertion, in: document)
        try checkEnvelope(response, expectedRequestID: expectedRequestID)
        let window = TimeWindow(now: now, skew: Double(clockSkew.components.seconds))
        return try SAMLAssertionReader(
            assertion: assertion, serviceProvider: serviceProvider, identityProvider: identityProvider,
            expectedRequestID: expectedRequestID, window: window
        ).read()
    }

    static func decode(_ encoded: String) throws(SAMLError) -> [UInt8] {
        guard encoded.utf8.count <= maximumEncodedLength else { throw .malformedEncoding("longer than \(maximumEncodedLength) bytes") }
        let compact = String(encoded.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
        guard let data = Data(base64Encoded: compact), !data.isEmpty else { throw .malformedEncoding("not base64") }
        return Array(data)
    }

    private func checkStatus(of response: XMLElement) throws(SAMLError) {
        let protocolNamespace = SAMLNames.protocolNamespace
        let status = try response.requiredChild("Status", in: protocolNamespace)
        let code = try status.requiredChild("StatusCode", in: protocolNamespace)
        guard let value = code.attribute("Value") else { throw .malformedMessage("StatusCode has no Value") }
        guard value == SAMLNames.success else {
            let detail = try code.child("StatusCode", in: protocolNamespace)?.attribute("Value")
            let message = try status.child("StatusMessage", in: protocolNamespace)?.text
            throw .statusNotSuccess(code: [value, detail].compactMap { $0 }.joined(separator: " / "), message: message)
        }
    }

    /// The one Assertion of the document, which must be a child of the Response: an assertion anywhere else (in
    /// Extensions, in a signature's Object, in another assertion's Advice) is a wrapping attempt or nothing Flint reads.
    private func soleAssertion(of response: XMLElement) throws(SAMLError) -> XMLElement {
        let all = response.descendants("Assertion", in: SAMLNames.assertionNamespace)
        guard all.count == 1, let assertion = all.first else {
            throw .malformedMessage("\(all.count) Assertion elements; exactly one is accepted")
        }
        guard assertion.isChild(of: response) else {
            throw .malformedMessage("the Assertion is not a child of the Response")
        }
        return assertion
    }

    /// Verifies the Response's signature and the Assertion's, each that is present; at least one must be. The Response
    /// signature covers the assertion (its only child assertion), so an unsigned assertion in a signed response is fine.
    private func verifySignatures(response: XMLElement, assertion: XMLElement, in document: XMLDocument) throws(SAMLError) {
        let ds = SAMLNames.signatureNamespace
        let signatures = [
            try response.child("Signature", in: ds).map { EnvelopedSignature(signature: $0, signed: response) },
            try assertion.child("Signature", in: ds).map { EnvelopedSignature(signature: $0, signed: assertion) },
        ].compactMap { $0 }
        guard !signatures.isEmpty else { throw .unsigned }
        guard !identityProvider.certificates.isEmpty else { throw .invalidCertificate("no IdP certificate is configured") }
        for signature in signatures { try signature.verify(in: document, certificates: identityProvider.certificates) }
    }

    /// The Response's own Version, Issuer, Destination and InResponseTo (each optional but Version; checked when present).
    private func checkEnvelope(_ response: XMLElement, expectedRequestID: String?) throws(SAMLError) {
        guard response.attribute("Version") == "2.0" else { throw .malformedMessage("the Response's Version is not 2.0") }
        if let issuer = try response.child("Issuer", in: SAMLNames.assertionNamespace)?.text, issuer != identityProvider.entityID {
            throw .issuerMismatch(issuer)
        }
        if let destination = response.attribute("Destination"), destination != serviceProvider.assertionConsumerServiceURL {
            throw .recipientMismatch("the Response's Destination \(destination) is not the ACS URL")
        }
        try SAMLAssertionReader.check(inResponseTo: response.attribute("InResponseTo"), expected: expectedRequestID, required: false)
    }
}

/// Now and the skew, for the time bounds.
struct TimeWindow {
    let now: Date
    let skew: Double

    /// `NotBefore`: not later than now plus the skew.
    func checkNotBefore(_ text: String?, _ what: String) throws(SAMLError) {
        guard let text else { return }
        guard let instant = SAMLTime.parse(text) else { throw .malformedMessage("\(what) is not a dateTime") }
        if instant.timeIntervalSince(now) > skew { throw .notYetValid(what) }
    }

    /// `NotOnOrAfter`: later than now minus the skew. Returns the instant.
    @discardableResult
    func checkNotOnOrAfter(_ text: String?, _ what: String, required: Bool) throws(SAMLError) -> Date? {
        guard let text else {
            if required { throw .malformedMessage("\(what) is missing") }
            return nil
        }
        guard let instant = SAMLTime.parse(text) else { throw .malformedMessage("\(what) is not a dateTime") }
        if now.timeIntervalSince(instant) >= skew { throw .expired(what) }
        return instant
    }
}

/// Why FlintSAML refused a response, a configuration or a request; `description` says it in a sentence for logs and
/// for the flow's error detail. Equal by case and payload, so tests compare reasons exactly.
public enum SAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The XML Security Library could not be initialized (its status code).
    case libraryUnavailable(Int32)
    /// A configured IdP certificate is not a PEM certificate, or there is none.
    case invalidCertificate(String)
    /// The SP's request-signing key is not an RSA private key in PEM.
    case invalidSigningKey(String)
    /// The IdP wants signed requests (`signRequest`) and no SP key was given.
    case signingKeyRequired
    /// The SAMLResponse is not base64, is empty or too large.
    case malformedEncoding(String)
    /// The document declares a DOCTYPE (DTDs, entities: XXE, billion laughs), which SAML never needs.
    case doctypeNotAllowed
    /// The bytes are not well-formed XML.
    case malformedXML
    /// An element, attribute or value SAML requires is missing or misplaced.
    case malformedMessage(String)
    /// Two elements carry the same ID (a wrapped copy of a signed element).
    case duplicateID(String)
    /// The response carries an `EncryptedAssertion`, which Flint does not decrypt.
    case encryptedAssertionNotSupported
    /// The IdP's Status is not Success: its status code(s) and message.
    case statusNotSuccess(code: String, message: String?)
    /// Neither the Response nor the Assertion is signed.
    case unsigned
    /// An algorithm the signature uses is refused (SHA-1, inclusive or commented canonicalization, other transforms).
    case unsupportedAlgorithm(String)
    /// A signature's structure is refused: its reference does not name the element it sits in, or more than one reference.
    case signatureReference(String)
    /// The signature does not verify with any configured certificate.
    case signatureInvalid
    /// The Issuer is not the configured IdP entity ID.
    case issuerMismatch(String)
    /// The Audience restrictions do not name the SP entity ID.
    case audienceMismatch
    /// The Destination or a bearer confirmation's Recipient is not the ACS URL.
    case recipientMismatch(String)
    /// InResponseTo is not the request Flint issued, or missing, or present when no request was expected.
    case inResponseToMismatch(String)
    /// A response without an expected request ID, and unsolicited (IdP-initiated) responses are not allowed.
    case unsolicitedResponse
    /// No bearer SubjectConfirmation.
    case noBearerConfirmation
    /// A time bound failed: which one.
    case expired(String)
    /// A time bound starts in the future: which one.
    case notYetValid(String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let status): "the XML Security Library did not initialize (status \(status))"
        case .invalidCertificate(let reason): "invalid IdP certificate: \(reason)"
        case .invalidSigningKey(let reason): "invalid SP signing key: \(reason)"
        case .signingKeyRequired: "the IdP requires signed AuthnRequests and no SP signing key is configured"
        case .malformedEncoding(let reason): "the SAMLResponse is not usable base64: \(reason)"
        case .doctypeNotAllowed: "the SAML message declares a DOCTYPE, which is refused"
        case .malformedXML: "the SAML message is not well-formed XML"
        case .malformedMessage(let reason): "malformed SAML message: \(reason)"
        case .duplicateID(let id): "two elements carry the ID \(id)"
        case .encryptedAssertionNotSupported: "encrypted assertions are not supported: configure the IdP to sign, not encrypt"
        case .statusNotSuccess(let code, let message): "the IdP answered \(code)" + (message.map { ": \($0)" } ?? "")
        case .unsigned: "neither the Response nor its Assertion is signed"
        case .unsupportedAlgorithm(let reason): "refused signature algorithm: \(reason)"
        case .signatureReference(let reason): "refused signature structure: \(reason)"
        case .signatureInvalid: "the signature does not verify with any configured IdP certificate"
        case .issuerMismatch(let issuer): "the Issuer \(issuer) is not the configured IdP entity ID"
        case .audienceMismatch: "the assertion's Audience does not name this SP's entity ID"
        case .recipientMismatch(let reason): "wrong recipient: \(reason)"
        case .inResponseToMismatch(let reason): "InResponseTo: \(reason)"
        case .unsolicitedResponse: "an unsolicited (IdP-initiated) response, and those are not allowed"
        case .noBearerConfirmation: "the assertion has no valid bearer SubjectConfirmation"
        case .expired(let what): "\(what) has passed"
        case .notYetValid(let what): "\(what) is in the future"
        }
    }
}

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a verified response says about the user: read only from the assertion the verified signature covers.
///
/// Replay protection is the caller's: record ``id`` until ``notOnOrAfter`` and refuse it when seen again.
public struct SAMLAssertion: Sendable, Hashable {
    /// The assertion's `ID`, unique per IdP: the key of a used-assertions record.
    public var id: String
    /// The assertion's Issuer (the configured IdP entity ID).
    public var issuer: String
    /// The Subject's NameID, its whole text (comments and their split text nodes cannot cut it short).
    public var nameID: String
    /// The NameID's `Format`, if given (e.g. `urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress`).
    public var nameIDFormat: String?
    /// The AttributeStatements' attributes: `Name` → the texts of its values, in document order.
    public var attributes: [String: [String]]
    /// The AuthnStatement's `SessionIndex`, if given.
    public var sessionIndex: String?
    /// The AuthnStatement's `AuthnInstant`.
    public var authnInstant: Date
    /// The earliest end of validity: the bearer confirmation's `NotOnOrAfter` or the Conditions' if earlier. The
    /// assertion ID must be remembered until then.
    public var notOnOrAfter: Date
    /// The request it answers (`InResponseTo` of the bearer confirmation), nil for an unsolicited response.
    public var inResponseTo: String?

    public init(
        id: String, issuer: String, nameID: String, nameIDFormat: String?, attributes: [String: [String]],
        sessionIndex: String?, authnInstant: Date, notOnOrAfter: Date, inResponseTo: String?
    ) {
        self.id = id
        self.issuer = issuer
        self.nameID = nameID
        self.nameIDFormat = nameIDFormat
        self.attributes = attributes
        self.sessionIndex = sessionIndex
        self.authnInstant = authnInstant
        self.notOnOrAfter = notOnOrAfter
        self.inResponseTo = inResponseTo
    }
}

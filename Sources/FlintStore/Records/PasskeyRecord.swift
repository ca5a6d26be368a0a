public import FlintCore

/// A passkey: a WebAuthn credential an account enrolled (`passkeyEnrollment:finalize`) and signs in with
/// (`passkeySignIn:finalize`). Its credential ID belongs to one account at most.
public struct PasskeyRecord: Sendable, Equatable {
    /// The tenant of its account; a credential ID names one passkey per tenant.
    public var tenant: TenantID
    /// The credential ID, base64url (the table's primary key).
    public var credentialID: String
    /// The account it signs in to.
    public var localID: String
    /// The credential's COSE public key, base64url of the bytes the authenticator encoded.
    public var publicKey: String
    /// The RP ID the credential is scoped to.
    public var rpID: String
    /// The authenticator's signature counter last seen (0 for authenticators that keep none).
    public var signCount: Int64
    /// The name the user gave it.
    public var name: String?
    /// The transports the browser reported (`internal`, `hybrid`, `usb`…), for `excludeCredentials`.
    public var transports: [String]
    public var createdAt: Instant

    /// Creates a record.
    public init(
        tenant: TenantID = .default, credentialID: String, localID: String, publicKey: String, rpID: String, signCount: Int64, name: String?,
        transports: [String],
        createdAt: Instant
    ) {
        self.tenant = tenant
        (self.credentialID, self.localID, self.publicKey, self.rpID) = (credentialID, localID, publicKey, rpID)
        (self.signCount, self.name, self.transports, self.createdAt) = (signCount, name, transports, createdAt)
    }
}

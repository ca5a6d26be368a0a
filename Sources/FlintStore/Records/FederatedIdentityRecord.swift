/// An account's identity at a federated provider (`google.com`, `apple.com`, `oidc.*`, `saml.*`…): what Firebase keeps
/// in a `providerUserInfo` entry for a provider other than `password` and `phone`, whose entries Flint derives from the
/// account's own email and number. A provider's ID for a user (``rawID``) belongs to one account at most.
public struct FederatedIdentityRecord: Sendable, Equatable {
    /// The tenant of its account; a provider's raw ID names one account per tenant.
    public var tenant: TenantID
    /// The account it signs in to.
    public var localID: String
    /// The provider (`providerId`): `google.com`, `oidc.example`…
    public var providerID: String
    /// The user's ID at the provider (`rawId`, the `sub` of its ID tokens).
    public var rawID: String
    /// The email the provider gave.
    public var email: String?
    /// The name the provider gave (`displayName`).
    public var displayName: String?
    /// The picture the provider gave (`photoUrl`).
    public var photoURL: String?
    /// The phone number the provider gave.
    public var phoneNumber: String?
    /// The user's handle at the provider (`screenName`: Twitter, GitHub).
    public var screenName: String?

    /// Creates a record.
    public init(
        tenant: TenantID = .default, localID: String, providerID: String, rawID: String, email: String? = nil, displayName: String? = nil,
        photoURL: String? = nil,
        phoneNumber: String? = nil, screenName: String? = nil
    ) {
        self.tenant = tenant
        self.localID = localID
        self.providerID = providerID
        self.rawID = rawID
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }

    /// The provider and the user's ID there: unique across accounts.
    public var key: FederatedIdentityKey { FederatedIdentityKey(providerID: providerID, rawID: rawID) }
}

/// A user's ID at a provider (`federatedUserId`: `providerId` and `rawId`), which names at most one account.
public struct FederatedIdentityKey: Sendable, Hashable {
    /// The provider (`google.com`…).
    public var providerID: String
    /// The user's ID there.
    public var rawID: String

    /// Creates a key.
    public init(providerID: String, rawID: String) {
        self.providerID = providerID
        self.rawID = rawID
    }
}

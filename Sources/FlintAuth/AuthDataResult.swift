/// What a sign-in, link or re-authentication returns.
public final class AuthDataResult: Sendable {
    /// The signed-in user.
    public let user: User
    /// Provider details; `nil` after a link.
    public let additionalUserInfo: AdditionalUserInfo?

    init(user: User, additionalUserInfo: AdditionalUserInfo?) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
    }
}

/// Provider details of a sign-in.
public final class AdditionalUserInfo: Sendable {
    /// The provider, such as `password`.
    public let providerID: String
    /// The provider's profile (none for email providers).
    public let profile: [String: String]?
    /// The provider's user name (none for email providers).
    public let username: String?
    /// Whether this sign-in created the account.
    public let isNewUser: Bool

    init(providerID: String, isNewUser: Bool) {
        self.providerID = providerID
        self.profile = nil
        self.username = nil
        self.isNewUser = isNewUser
    }
}

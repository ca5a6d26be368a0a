import Foundation

/// What a sign-in, link or re-authentication returns.
public final class AuthDataResult: Sendable {
    /// The signed-in user.
    public let user: User
    /// Provider details; `nil` after a link.
    public let additionalUserInfo: AdditionalUserInfo?
    /// The provider's tokens after an OAuth sign-in, link or re-authentication, when the server returned them.
    public let credential: OAuthCredential?

    init(user: User, additionalUserInfo: AdditionalUserInfo?, credential: OAuthCredential? = nil) {
        (self.user, self.additionalUserInfo, self.credential) = (user, additionalUserInfo, credential)
    }
}

/// Provider details of a sign-in.
public final class AdditionalUserInfo: @unchecked Sendable {
    // Immutable; `profile` holds only JSON values (strings, numbers, booleans, arrays, dictionaries, NSNull).

    /// The provider, such as `password`.
    public let providerID: String
    /// The provider's profile, from the answer's `rawUserInfo` (a JSON object), when the server sends it; email and
    /// phone sign-ins have none.
    public let profile: [String: Any]?
    /// The provider's user name, from the answer's `screenName`, when the server sends it.
    public let username: String?
    /// Whether this sign-in created the account.
    public let isNewUser: Bool

    /// ``isNewUser``, under the name FirebaseAuth also offers (its Objective-C spelling).
    public func newUser() -> Bool { isNewUser }

    init(providerID: String, isNewUser: Bool, rawUserInfo: String? = nil, screenName: String? = nil) {
        self.providerID = providerID
        self.profile = rawUserInfo.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        self.username = screenName.flatMap { $0.isEmpty ? nil : $0 }
        self.isNewUser = isNewUser
    }
}

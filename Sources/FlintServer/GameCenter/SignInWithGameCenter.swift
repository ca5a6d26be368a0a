import FlintCore

/// `accounts:signInWithGameCenter` (v1) and `relyingparty/signInWithGameCenter` (v3, where FirebaseAuth sends it):
/// what GameKit's identity verification gave the app (FirebaseAuth's `GameCenterAuthProvider.getCredential`).
struct SignInWithGameCenterRequest: Decodable {
    /// The legacy player ID: empty from `fetchItems`, the signed ID from the old `generateIdentityVerificationSignature`.
    var playerId: String?
    /// The player's ID across the team's games: the ID `fetchItems` signs, and the account's identity.
    var teamPlayerId: String?
    /// The player's ID in this game; answered back.
    var gamePlayerId: String?
    /// Where Apple publishes the signing certificate: https on apple.com.
    var publicKeyUrl: String?
    /// The signature and salt, base64 (FirebaseAuth sends base64url without padding).
    var signature: String?
    var salt: String?
    /// When the signature was made, in milliseconds since the Unix epoch.
    var timestamp: Int64?
    /// The player's display name.
    var displayName: String?
    /// A signed-in user's token: the player is linked to that user.
    var idToken: String?
    /// Tenants' users are not served yet: `TENANT_NOT_FOUND` for an unknown tenant, `UNSUPPORTED_TENANT_OPERATION` for a known one.
    var tenantId: String?
}

/// The answer: the account's tokens (or a second-factor challenge) and the player's IDs.
typealias SignInWithGameCenterResponse = SignInReply<GameCenterSignInFields>

/// `signInWithGameCenter`'s own fields (FirebaseAuth's `SignInWithGameCenterResponse`).
struct GameCenterSignInFields: Encodable, Sendable {
    var localId: String
    var playerId: String?
    var teamPlayerId: String?
    var gamePlayerId: String?
    var isNewUser: Bool
    var displayName: String?
}

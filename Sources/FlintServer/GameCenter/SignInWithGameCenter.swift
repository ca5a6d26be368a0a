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
    /// The tenant the player signs in to (``TenantMiddleware``): its `gc.apple.com` settings, its accounts. FirebaseAuth
    /// sends none (a linking ID token's tenant is used then); FlintAuth sends `Auth.tenantID`.
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

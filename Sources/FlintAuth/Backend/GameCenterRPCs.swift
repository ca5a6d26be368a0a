/// The body of `accounts:signInWithGameCenter` (v3 `signInWithGameCenter`), as FirebaseAuth's
/// `SignInWithGameCenterRequest` writes it: the player's IDs, the key's URL, the signature and salt in base64url,
/// the timestamp (left out when 0), the display name, and the signed-in user's ID token when linking; `tenantId` with
/// `Auth.tenantID` (FirebaseAuth sends none, so its players sign in to the project). The answer is a ``SignInResponse`` (`idToken`,
/// `refreshToken`, `expiresIn`, `localId`, `isNewUser`; the player's IDs and name, which the SDK does not read).
struct SignInWithGameCenterRequest: Encodable {
    var playerId: String
    var teamPlayerId: String?
    var gamePlayerId: String?
    var publicKeyUrl: String
    var signature: String
    var salt: String
    var timestamp: UInt64?
    var displayName: String?
    var idToken: String?
}

extension Backend {
    /// Posts `accounts:signInWithGameCenter`.
    func signIn(withGameCenter request: SignInWithGameCenterRequest) async throws -> SignInResponse {
        try await call("accounts:signInWithGameCenter", request)
    }
}

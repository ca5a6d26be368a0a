import Foundation

/// A Game Center credential, as FirebaseAuth's `GameCenterAuthCredential`: GameKit's identity verification signature
/// for the local player, with the player's IDs and display name. The server fetches the public key at
/// `publicKeyURL` (Apple's domain only) and checks the signature over the player ID, the bundle ID, the timestamp and
/// the salt.
final class GameCenterAuthCredential: AuthCredential, @unchecked Sendable {
    // Immutable after init.

    /// The legacy player ID: empty since GameKit's `fetchItems(forIdentityVerificationSignature:)`, which signs the
    /// team player ID instead.
    let playerID: String
    let teamPlayerID: String?
    let gamePlayerID: String?
    /// Where Apple publishes the key that made `signature`.
    let publicKeyURL: URL
    let signature: Data
    let salt: Data
    /// When the signature was made, in milliseconds since 1970.
    let timestamp: UInt64
    let displayName: String?

    init(
        playerID: String, teamPlayerID: String?, gamePlayerID: String?, publicKeyURL: URL, signature: Data, salt: Data,
        timestamp: UInt64, displayName: String?
    ) {
        (self.playerID, self.teamPlayerID, self.gamePlayerID) = (playerID, teamPlayerID, gamePlayerID)
        (self.publicKeyURL, self.signature, self.salt, self.timestamp) = (publicKeyURL, signature, salt, timestamp)
        self.displayName = displayName
        super.init(provider: GameCenterAuthProviderID)
    }

    /// The `accounts:signInWithGameCenter` request presenting this credential; with `idToken`, it links the player
    /// to that user.
    func request(idToken: String? = nil) -> SignInWithGameCenterRequest {
        SignInWithGameCenterRequest(
            playerId: playerID, teamPlayerId: teamPlayerID, gamePlayerId: gamePlayerID, publicKeyUrl: publicKeyURL.absoluteString,
            signature: Self.base64URL(signature), salt: Self.base64URL(salt), timestamp: timestamp == 0 ? nil : timestamp,
            displayName: displayName, idToken: idToken)
    }

    /// `data` in base64url without padding, as FirebaseAuth encodes the signature and salt.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "=", with: "")
    }
}

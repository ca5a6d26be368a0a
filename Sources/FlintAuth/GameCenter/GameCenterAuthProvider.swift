public import Foundation

#if canImport(GameKit) && (os(iOS) || os(macOS) || os(visionOS))
    import GameKit
#endif

/// Builds Game Center credentials, as FirebaseAuth's `GameCenterAuthProvider`: on Apple platforms from GameKit's
/// identity verification of the local player; anywhere from the parts of such a verification (a game server or a
/// tool on Linux relaying what a device produced).
public enum GameCenterAuthProvider {
    /// The provider ID, `gc.apple.com`.
    public static let id = GameCenterAuthProviderID

    /// The local player's credential: GameKit's identity verification signature
    /// (`GKLocalPlayer.local.fetchItems(forIdentityVerificationSignature:)`) with the team and game player IDs and
    /// the display name.
    /// - Throws: `localPlayerNotAuthenticated` when no player is signed in to Game Center, GameKit's error, or
    ///   `gameKitNotLinked` where GameKit does not exist or is not used (Linux, tvOS and watchOS: use
    ///   ``credential(playerID:teamPlayerID:gamePlayerID:publicKeyURL:signature:salt:timestamp:displayName:)``).
    public static func getCredential() async throws -> AuthCredential {
        #if canImport(GameKit) && (os(iOS) || os(macOS) || os(visionOS))
            return try await localPlayerCredential()
        #else
            throw AuthErrorCode.gameKitNotLinked.error(
                detail: "GameKit does not exist on this platform; build the credential from the parts of a verification signature.")
        #endif
    }

    /// ``getCredential()``; `completion` gets the credential or the error, on the main queue.
    public static func getCredential(completion: @escaping (AuthCredential?, (any Error)?) -> Void) {
        deliver(completion) { try await getCredential() }
    }

    /// A credential from the parts of a Game Center identity verification, as
    /// `fetchItems(forIdentityVerificationSignature:)` hands them to the device that made it (a Flint addition, for
    /// code that did not make the signature itself).
    /// - Parameters:
    ///   - playerID: the legacy player ID, empty for signatures over the team player ID.
    ///   - teamPlayerID: the player's ID for the developer team, which the signature covers (the account's identity).
    ///   - gamePlayerID: the player's ID for this game.
    ///   - publicKeyURL: where Apple publishes the signing key.
    ///   - signature: Apple's signature over the player, the bundle ID, the timestamp and the salt.
    ///   - salt: the random bytes the signature covers.
    ///   - timestamp: when the signature was made, in milliseconds since 1970.
    ///   - displayName: the player's name, for the account's profile.
    public static func credential(
        playerID: String = "", teamPlayerID: String?, gamePlayerID: String?, publicKeyURL: URL, signature: Data, salt: Data,
        timestamp: UInt64, displayName: String?
    ) -> AuthCredential {
        GameCenterAuthCredential(
            playerID: playerID, teamPlayerID: teamPlayerID, gamePlayerID: gamePlayerID, publicKeyURL: publicKeyURL,
            signature: signature, salt: salt, timestamp: timestamp, displayName: displayName)
    }

    #if canImport(GameKit) && (os(iOS) || os(macOS) || os(visionOS))
        /// The verification of `GKLocalPlayer.local`, as FirebaseAuth makes it (the legacy player ID left empty).
        @MainActor
        private static func localPlayerCredential() async throws -> AuthCredential {
            let player = GKLocalPlayer.local
            guard player.isAuthenticated else { throw AuthErrorCode.localPlayerNotAuthenticated.error() }
            let (publicKeyURL, signature, salt, timestamp) = try await player.fetchItemsForIdentityVerificationSignature()
            return credential(
                teamPlayerID: player.teamPlayerID, gamePlayerID: player.gamePlayerID, publicKeyURL: publicKeyURL, signature: signature,
                salt: salt, timestamp: timestamp, displayName: player.displayName)
        }
    #endif
}

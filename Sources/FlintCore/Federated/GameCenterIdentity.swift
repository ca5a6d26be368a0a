import Crypto
import CryptoExtras
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What GameKit's identity verification (`GKLocalPlayer.fetchItems(forIdentityVerificationSignature:)`) gives an app
/// to prove its player, as `signInWithGameCenter` carries it: Apple signs (RSA PKCS#1 v1.5, SHA-256) the player's ID,
/// the app's bundle ID, the time (milliseconds, big-endian) and a random salt with the key of a certificate it
/// publishes at `publicKeyUrl`, on its own domain.
package struct GameCenterIdentity: Sendable, Equatable {
    /// How far the signature's time may be from the node's clock.
    package static let window: Duration = .seconds(300)

    /// The signed player ID: `teamPlayerId` (`fetchItems`), or `playerId` (the legacy
    /// `generateIdentityVerificationSignature`, which signs the game-scoped ID).
    package var playerID: String
    package var timestamp: Instant
    package var salt: [UInt8]
    package var signature: [UInt8]

    package init(playerID: String, timestamp: Instant, salt: [UInt8], signature: [UInt8]) {
        (self.playerID, self.timestamp, self.salt, self.signature) = (playerID, timestamp, salt, signature)
    }

    /// The bytes Apple signs for the app `bundleID`: player ID ‖ bundle ID (UTF-8) ‖ timestamp (UInt64 big-endian) ‖ salt.
    package func signedData(bundleID: String) -> [UInt8] {
        var data = Array(playerID.utf8) + Array(bundleID.utf8)
        withUnsafeBytes(of: UInt64(max(0, timestamp.millisecondsSince1970)).bigEndian) { data.append(contentsOf: $0) }
        return data + salt
    }

    /// Whether the signature was made within ``window`` of `now`.
    package func isRecent(now: Instant) -> Bool {
        let gap = timestamp < now ? now - timestamp : timestamp - now
        return gap <= Self.window
    }

    /// The bundle ID among `bundleIDs` whose signed data the certificate's key signed.
    /// - Throws: `INVALID_IDP_RESPONSE` for a certificate that does not parse, holds no RSA key or was not valid when
    ///   the signature was made, or a signature made for none of the bundle IDs.
    package func verify(certificate der: [UInt8], bundleIDs: [String]) throws(AuthError) -> String {
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw AuthError.invalidIdpResponse("Game Center's public key is not an X.509 certificate.")
        }
        guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else {
            throw AuthError.invalidIdpResponse("Game Center's certificate holds no RSA key.")
        }
        let signedAt = Date(timeIntervalSince1970: Double(timestamp.millisecondsSince1970) / 1000)
        guard certificate.notValidBefore <= signedAt, signedAt <= certificate.notValidAfter else {
            throw AuthError.invalidIdpResponse("Game Center's certificate was not valid when the signature was made.")
        }
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        for bundleID in bundleIDs
        where key.isValidSignature(rsaSignature, for: SHA256.hash(data: signedData(bundleID: bundleID)), padding: .insecurePKCS1v1_5) {
            return bundleID
        }
        throw AuthError.invalidIdpResponse("The Game Center signature does not verify for this player and app.")
    }

    /// Whether Flint may fetch `url` as Game Center's public key: `https`, on `apple.com` or a host under it, with a
    /// path and no user information, port other than 443, query or fragment — checked before any fetch, so a client
    /// cannot make the node call another address.
    package static func isApplePublicKeyURL(_ url: String) -> Bool {
        guard url.utf8.count <= 1024, url.lowercased().hasPrefix("https://"), !url.contains("?"), !url.contains("#") else { return false }
        let rest = url.dropFirst("https://".count)
        var authority = rest.prefix { $0 != "/" }.lowercased()
        guard rest.dropFirst(authority.count).first == "/" else { return false }
        if authority.hasSuffix(":443") { authority.removeLast(4) }
        guard !authority.isEmpty,
            authority.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" })
        else { return false }
        return authority == "apple.com" || authority.hasSuffix(".apple.com")
    }
}

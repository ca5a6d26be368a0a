import Crypto
import FlintCore
import Foundation
import Testing

@Suite("Game Center's identity verification")
struct GameCenterIdentityTests {
    let now = Instant(secondsSince1970: 1_700_000_000)

    /// A DER certificate for `key` (its self-signed PEM decoded).
    static func der(_ key: SigningKey) throws -> [UInt8] {
        let body = key.certificatePEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Array(try #require(Data(base64Encoded: body)))
    }

    func identity(signedBy key: SigningKey, bundleID: String, player: String = "T:_team-player", salt: [UInt8] = [1, 2, 3, 4]) throws
        -> GameCenterIdentity
    {
        var identity = GameCenterIdentity(playerID: player, timestamp: now, salt: salt, signature: [])
        identity.signature = try key.sign(identity.signedData(bundleID: bundleID))
        return identity
    }

    @Test("Apple signs the player, the bundle ID, the big-endian millisecond time and the salt, in that order")
    func signedData() {
        let identity = GameCenterIdentity(playerID: "P", timestamp: Instant(millisecondsSince1970: 0x0102_0304_0506), salt: [9, 8], signature: [])
        #expect(identity.signedData(bundleID: "b.c") == Array("Pb.c".utf8) + [0, 0, 1, 2, 3, 4, 5, 6] + [9, 8])
    }

    @Test("a signature verifies with the certificate's key for its bundle ID, and for no other player, app or salt")
    func verification() throws {
        let key = try SigningKey.generate(now: now, random: SystemRandom())
        let certificate = try Self.der(key)
        let signed = try identity(signedBy: key, bundleID: "com.example.game")
        #expect(try signed.verify(certificate: certificate, bundleIDs: ["com.example.other", "com.example.game"]) == "com.example.game")
        #expect(throws: AuthError.invalidIdpResponse("")) { try signed.verify(certificate: certificate, bundleIDs: ["com.example.other"]) }
        var otherPlayer = signed
        otherPlayer.playerID = "T:_someone-else"
        var otherSalt = signed
        otherSalt.salt = [1, 2, 3, 5]
        for forged in [otherPlayer, otherSalt] {
            #expect(throws: AuthError.invalidIdpResponse("")) { try forged.verify(certificate: certificate, bundleIDs: ["com.example.game"]) }
        }
        let stranger = try SigningKey.generate(now: now, random: SystemRandom())
        #expect(throws: AuthError.invalidIdpResponse("")) { try signed.verify(certificate: try Self.der(stranger), bundleIDs: ["com.example.game"]) }
        #expect(throws: AuthError.invalidIdpResponse("")) {
            try signed.verify(certificate: Array("not a certificate".utf8), bundleIDs: ["com.example.game"])
        }
    }

    @Test("a certificate that was not valid when the signature was made is refused")
    func certificateValidity() throws {
        let expired = try SigningKey.generate(now: now - .seconds(10 * 86_400), random: SystemRandom(), validity: .seconds(86_400))
        let signed = try identity(signedBy: expired, bundleID: "com.example.game")
        #expect(throws: AuthError.invalidIdpResponse("")) { try signed.verify(certificate: try Self.der(expired), bundleIDs: ["com.example.game"]) }
    }

    @Test("the signature must be made within five minutes of the node's clock, either way")
    func window() {
        let identity = GameCenterIdentity(playerID: "P", timestamp: now, salt: [1], signature: [1])
        #expect(identity.isRecent(now: now + .seconds(300)) && identity.isRecent(now: now - .seconds(300)))
        #expect(!identity.isRecent(now: now + .seconds(301)) && !identity.isRecent(now: now - .seconds(301)))
    }

    @Test(
        "only https addresses on apple.com or a host under it are fetched",
        arguments: [
            ("https://static.gc.apple.com/public-key/gc-prod-10.cer", true), ("https://apple.com/key.cer", true),
            ("https://STATIC.GC.Apple.com:443/public-key/gc-prod-10.cer", true), ("http://static.gc.apple.com/public-key/gc-prod-10.cer", false),
            ("https://static.gc.apple.com.evil.example/key.cer", false), ("https://evilapple.com/key.cer", false),
            ("https://user@static.gc.apple.com/key.cer", false), ("https://static.gc.apple.com:8443/key.cer", false),
            ("https://static.gc.apple.com", false), ("https://static.gc.apple.com/key.cer?x=1", false),
            ("https://static.gc.apple.com/key.cer#x", false), ("https://127.0.0.1/key.cer", false), ("https://apple.com./key.cer", false),
            ("file:///etc/passwd", false), ("", false),
        ])
    func publicKeyURL(url: String, allowed: Bool) {
        #expect(GameCenterIdentity.isApplePublicKeyURL(url) == allowed)
    }
}

import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import JWTKit
import Testing

@testable import FlintServer

@Suite("Public keys: JWKS and the x509 map")
struct PublicKeysTests {
    @Test("an ID token verifies with jwt-kit against the published JWKS", arguments: [Path.jwks, Path.wellKnownJWKS])
    func verifiesWithJWKS(_ path: String) async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let jwks = try await api.call(.get, path)
            #expect(jwks.status == .ok)
            #expect(jwks.headers[.contentType]?.hasPrefix("application/json") == true)

            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: jwks.text)
            let token = try await keys.verify(signedIn.idToken, as: FirebaseAuthIdentityToken.self, expectedAudience: project)
            #expect(token.subject.value == signedIn.localId)
            #expect(token.userID == signedIn.localId)
            #expect(token.phoneNumber == alice)
            #expect(token.issuer.value == "https://securetoken.google.com/\(project)")
            #expect(token.firebase?.signInProvider == "phone")
            #expect(token.firebase?.identities["phone"] == [alice])
        }
    }

    @Test("the refreshed ID token verifies with the published keys too")
    func refreshedVerifies() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let refreshed = try #require(try await api.refresh(signedIn.refreshToken).string("id_token"))
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: try await api.call(.get, Path.jwks).text)
            let token = try await keys.verify(refreshed, as: FirebaseAuthIdentityToken.self, expectedAudience: project)
            #expect(token.userID == signedIn.localId)
        }
    }

    @Test("a token with a flipped signature byte fails jwt-kit verification")
    func tamperedFailsJWTKit() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: try await api.call(.get, Path.jwks).text)
            var parts = signedIn.idToken.split(separator: ".").map(String.init)
            var signature = try #require(Base64URL.decode(parts[2]))
            signature[0] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            await #expect(throws: (any Error).self) {
                _ = try await keys.verify(parts.joined(separator: "."), as: FirebaseAuthIdentityToken.self, expectedAudience: project)
            }
        }
    }

    @Test("the JWKS lists RS256 signing keys whose kid is the token's")
    func jwksShape() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let kid = try #require(try JWT.header(signedIn.idToken)["kid"]?.stringValue)
            let jwks = try await api.call(.get, Path.jwks)
            let keys = try #require(jwks["keys"]?.arrayValue)
            let key = try #require(keys.first { $0["kid"]?.stringValue == kid })
            #expect(key["kty"]?.stringValue == "RSA")
            #expect(key["alg"]?.stringValue == "RS256")
            #expect(key["use"]?.stringValue == "sig")
            #expect(key["n"]?.stringValue?.isEmpty == false)
            #expect(key["e"]?.stringValue == "AQAB")
            #expect(key["d"] == nil, "the private exponent must never be published")
        }
    }

    @Test("the x509 map holds PEM certificates keyed by the token's kid")
    func x509Map() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let kid = try #require(try JWT.header(signedIn.idToken)["kid"]?.stringValue)
            let reply = try await api.call(.get, Path.x509)
            #expect(reply.status == .ok)
            let map = try #require(reply.json.objectValue)
            let pem = try #require(map[kid]?.stringValue)
            #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
            #expect(pem.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("-----END CERTIFICATE-----"))
            #expect(!pem.contains("PRIVATE KEY"))
        }
    }

    @Test("both key endpoints send Cache-Control with a max-age", arguments: [Path.x509, Path.jwks, Path.wellKnownJWKS])
    func cacheControl(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, path)
            #expect(reply.status == .ok)
            let header = try #require(reply.headers[.cacheControl])
            let maxAge = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("max-age=") }
            let seconds = try #require(maxAge.flatMap { Int($0.dropFirst("max-age=".count)) })
            #expect(seconds > 0)
        }
    }

    @Test(
        "every key answer sends Expires at its Date plus the max-age, as Google does",
        arguments: [Path.x509, Path.jwks, Path.wellKnownJWKS, "\(Path.v3)/publicKeys", "\(Path.v1)/sessionCookiePublicKeys"])
    func expires(_ path: String) async throws {
        let clock = ManualClock(Instant(millisecondsSince1970: 1_800_000_000_250))
        try await withFlint(clock: clock, configure: { $0.keyCacheMaxAge = .seconds(600) }) { api in
            let reply = try await api.call(.get, path)
            #expect(reply.status == .ok)
            #expect(reply.headers[.cacheControl]?.contains("max-age=600") == true)
            #expect(reply.headers[.date] == "Fri, 15 Jan 2027 08:00:00 GMT")
            #expect(reply.headers[.expires] == "Fri, 15 Jan 2027 08:10:00 GMT")
        }
    }

    @Test("the key endpoints need no API key")
    func noKeyNeeded() async throws {
        try await withFlint { api in
            for path in [Path.x509, Path.jwks, Path.wellKnownJWKS] {
                let reply = try await api.call(.get, path)
                #expect(reply.status == .ok)
            }
        }
    }

    @Test("after a key rotation old tokens still verify and, from its activation, new tokens use the new kid")
    func rotation() async throws {
        let node = try await TestNode.make()
        try await node.run { api in
            let scheduled = try await FlintServer.rotateKeys(store: node.store, clock: node.clock)
            try await node.server.flows.keys.reload()
            #expect(scheduled.isNew && scheduled.activatesAt == node.clock.now() + .seconds(3930))
            node.clock.advance(by: .seconds(3870))
            let before = try await api.signIn(alice)
            #expect(try JWT.header(before.idToken)["kid"]?.stringValue != scheduled.kid)
            node.clock.advance(by: .seconds(60))
            let after = try await api.signIn(alice)
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == scheduled.kid)

            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: try await api.call(.get, Path.jwks).text)
            for token in [before.idToken, after.idToken] {
                _ = try await keys.verify(token, as: FirebaseAuthIdentityToken.self, expectedAudience: project)
                #expect(try await api.lookup(token).status == .ok)
            }
            let x509 = try await api.call(.get, Path.x509)
            #expect(x509.json.objectValue?.count == 2)
        }
    }
}

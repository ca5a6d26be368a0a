import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Accounts: lookup and delete")
struct AccountsTests {
    @Test("lookup returns the account in Firebase's shape, times as strings of digits")
    func lookupShape() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.lookup(signedIn.idToken)
            #expect(reply.status == .ok, "\(reply.text)")
            let users = try #require(reply["users"]?.arrayValue)
            #expect(users.count == 1)
            let user = try #require(users.first)
            #expect(user["localId"]?.stringValue == signedIn.localId)
            #expect(user["phoneNumber"]?.stringValue == alice)
            #expect(user["disabled"] == .bool(false))
            let providers = try #require(user["providerUserInfo"]?.arrayValue)
            #expect(providers.count == 1)
            #expect(providers.first?["providerId"]?.stringValue == "phone")
            #expect(providers.first?["rawId"]?.stringValue == alice)
            #expect(providers.first?["phoneNumber"]?.stringValue == alice)

            let now = api.clock.now()
            let createdAt = try #require(user["createdAt"]?.stringValue)
            let lastLoginAt = try #require(user["lastLoginAt"]?.stringValue)
            let validSince = try #require(user["validSince"]?.stringValue)
            #expect(createdAt.isDigits && lastLoginAt.isDigits && validSince.isDigits)
            #expect(abs((Int64(createdAt) ?? 0) - now.millisecondsSince1970) < 1000)
            #expect(abs((Int64(validSince) ?? 0) - now.secondsSince1970) <= 1)
        }
    }

    @Test("lastLoginAt moves with each sign-in, createdAt stays")
    func lastLoginMoves() async throws {
        try await withFlint { api in
            let first = try await api.signIn(alice)
            let before = try await api.lookup(first.idToken)["users"]?.arrayValue?.first
            api.clock.advance(by: .seconds(120))
            let second = try await api.signIn(alice)
            let after = try await api.lookup(second.idToken)["users"]?.arrayValue?.first
            #expect(after?["createdAt"] == before?["createdAt"])
            let delta = (Int64(after?["lastLoginAt"]?.stringValue ?? "") ?? 0) - (Int64(before?["lastLoginAt"]?.stringValue ?? "") ?? 0)
            #expect(delta == 120_000)
        }
    }

    @Test("the legacy v3 getAccountInfo path answers the same account")
    func legacyLookup() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.lookup(signedIn.idToken, path: "\(Path.v3)/getAccountInfo")
            #expect(reply.status == .ok)
            #expect(reply["users"]?.arrayValue?.first?["localId"]?.stringValue == signedIn.localId)
        }
    }

    enum Forgery: String, Sendable, CaseIterable {
        case garbage, tamperedPayload, algNone, foreignKey, wrongAudience, expired
    }

    @Test("forged, altered or expired ID tokens are INVALID_ID_TOKEN", arguments: Forgery.allCases)
    func invalidIDToken(_ forgery: Forgery) async throws {
        let node = try await TestNode.make()
        let ring = node.server.flows.keys.current
        try await node.run { api in
            let signedIn = try await api.signIn(alice)
            let parts = signedIn.idToken.split(separator: ".").map(String.init)
            var claims = try JWT.payload(signedIn.idToken)
            let token: String
            switch forgery {
            case .garbage:
                token = "not-a-token"
            case .tamperedPayload:
                claims["phone_number"] = .string(bob)
                token = [parts[0], try JWT.segment(claims), parts[2]].joined(separator: ".")
            case .algNone:
                token = try JWT.segment(["alg": .string("none"), "typ": .string("JWT")]) + "." + parts[1] + "."
            case .foreignKey:
                let kid = try #require(ring.signer(at: api.clock.now())?.kid)
                let foreign = try SigningKey.generate(now: api.clock.now(), random: SystemRandom())
                let lookalike = try SigningKey(
                    kid: kid, privateKeyPEM: foreign.privateKeyPEM, certificatePEM: foreign.certificatePEM, createdAt: api.clock.now(),
                    retiredAt: nil
                )
                token = try TokenSigner.sign(payload: claims, with: lookalike)
            case .wrongAudience:
                var other = IDTokenClaims(
                    projectID: "other-project", userID: signedIn.localId, authTime: Instant(secondsSince1970: claims["auth_time"]?.intValue ?? 0),
                    issuedAt: Instant(secondsSince1970: claims["iat"]?.intValue ?? 0), signInProvider: "phone"
                )
                other.phoneNumber = alice
                token = try TokenSigner.sign(other, with: ring)
            case .expired:
                token = signedIn.idToken
                api.clock.advance(by: .seconds(3601))
            }
            let reply = try await api.lookup(token)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "INVALID_ID_TOKEN", "\(reply.text)")
            let delete = try await api.post(Path.delete, ["idToken": token])
            #expect(delete.errorCode == "INVALID_ID_TOKEN")
        }
    }

    @Test("the same token is still valid one second before it expires")
    func notYetExpired() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            api.clock.advance(by: .seconds(3599))
            #expect(try await api.lookup(signedIn.idToken).status == .ok)
        }
    }

    @Test("lookup and delete without an idToken are MISSING_ID_TOKEN", arguments: [Path.lookup, Path.delete])
    func missingIDToken(_ path: String) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(path, "{}")
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "MISSING_ID_TOKEN")
        }
    }

    @Test("after a delete the token's lookup is USER_NOT_FOUND and the number signs up afresh")
    func deleteThenLookup() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let delete = try await api.post(Path.delete, ["idToken": signedIn.idToken])
            #expect(delete.status == .ok)
            #expect(delete.string("kind") == "identitytoolkit#DeleteAccountResponse")

            let lookup = try await api.lookup(signedIn.idToken)
            #expect(lookup.status == .badRequest)
            #expect(lookup.errorCode == "USER_NOT_FOUND")
            let again = try await api.post(Path.delete, ["idToken": signedIn.idToken])
            #expect(again.errorCode == "USER_NOT_FOUND")

            let fresh = try await api.signIn(alice)
            #expect(fresh.localId != signedIn.localId)
            #expect(fresh.reply["isNewUser"] == .bool(true))
        }
    }

    @Test("the legacy v3 deleteAccount path deletes")
    func legacyDelete() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            #expect(try await api.post("\(Path.v3)/deleteAccount", ["idToken": signedIn.idToken]).status == .ok)
            #expect(try await api.lookup(signedIn.idToken).errorCode == "USER_NOT_FOUND")
        }
    }

    // MARK: Admin forms

    @Test("the operator looks users up by localId or phone number with Bearer owner and no API key")
    func adminLookup() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let byID = try await api.admin(.post, Path.lookup, body: #"{"localId":["\#(signedIn.localId)"]}"#)
            #expect(byID.status == .ok, "\(byID.text)")
            #expect(byID["users"]?.arrayValue?.first?["phoneNumber"]?.stringValue == alice)

            let byPhone = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:lookup", body: #"{"phoneNumber":["+1 650-555-3434"]}"#)
            #expect(byPhone["users"]?.arrayValue?.first?["localId"]?.stringValue == signedIn.localId)

            let unknown = try await api.admin(.post, Path.lookup, body: #"{"localId":["nobody"]}"#)
            #expect(unknown.status == .ok)
            #expect(unknown["users"] == nil)
        }
    }

    @Test("a client with only an API key cannot look users up by localId")
    func clientCannotLookupByID() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.postRaw(Path.lookup, #"{"localId":["\#(signedIn.localId)"]}"#)
            #expect(reply.status != .ok)
            #expect(reply["users"] == nil)
        }
    }

    @Test("the operator deletes a user by localId; a missing localId is MISSING_LOCAL_ID")
    func adminDelete() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let missing = try await api.admin(.post, Path.delete, body: "{}")
            #expect(missing.errorCode == "MISSING_LOCAL_ID")

            let delete = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:delete", body: #"{"localId":"\#(signedIn.localId)"}"#)
            #expect(delete.status == .ok, "\(delete.text)")
            #expect(try await api.lookup(signedIn.idToken).errorCode == "USER_NOT_FOUND")

            let again = try await api.admin(.post, Path.delete, body: #"{"localId":"\#(signedIn.localId)"}"#)
            #expect(again.errorCode == "USER_NOT_FOUND")
        }
    }

    @Test("the projects/{p} admin forms refuse an API-key caller and another project")
    func adminPathGuards() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let keyOnly = try await api.postRaw("\(Path.v1)/projects/\(project)/accounts:lookup", #"{"idToken":"\#(signedIn.idToken)"}"#)
            #expect(keyOnly.status == .forbidden)
            let other = try await api.admin(.post, "\(Path.v1)/projects/other-project/accounts:delete", body: #"{"localId":"\#(signedIn.localId)"}"#)
            #expect(other.status == .notFound)
            #expect(try await api.lookup(signedIn.idToken).status == .ok, "nothing was deleted")
        }
    }
}

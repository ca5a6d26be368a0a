import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Passkeys in the operator's listings, export and import")
struct PasskeyImportTests {
    /// A phone account with `authenticator`'s passkey enrolled and used once (its counter at 1).
    private static func accountWithPasskey(_ api: API, phone: String, _ authenticator: inout SoftwareAuthenticator) async throws -> String {
        let user = try await api.signIn(phone)
        authenticator.userHandle = Array(user.localId.utf8)
        let enrolled = try await api.enrollPasskey(user.idToken, authenticator)
        #expect(enrolled.status == .ok, "\(enrolled.text)")
        #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        return user.localId
    }

    @Test("batchGet carries the key material, accounts:query the names; batchCreate of a downloaded account keeps its passkey working")
    func roundTrip() async throws {
        let original = SoftwareAuthenticator()
        let (localID, downloaded) = try await withFlint { api in
            var key = original
            let localID = try await Self.accountWithPasskey(api, phone: "+16505550191", &key)
            let page = try await api.listPage()
            let account = try #require(page["users"]?.arrayValue?.first { $0["localId"]?.stringValue == localID })
            let entry = try #require(account["passkeyInfo"]?.arrayValue?.first)
            #expect(entry["credentialId"]?.stringValue == key.id)
            #expect(entry["name"]?.stringValue == "Laptop")
            #expect(entry["publicKey"]?.stringValue == Base64URL.encode(key.coseKey))
            #expect(entry["rpId"]?.stringValue == "localhost")
            #expect(entry["signCount"]?.stringValue == "1")
            #expect(entry["transports"] == ["internal"])
            #expect(entry["createdAt"]?.stringValue != nil)

            let queried = try await api.admin(Path.query, ["expression": [["userId": .string(localID)]]])
            let listed = try #require(queried["userInfo"]?.arrayValue?.first?["passkeyInfo"])
            #expect(listed == .array([["name": "Laptop", "credentialId": .string(key.id)]]), "listings name passkeys without keys")
            return (localID, account)
        }
        var used = original
        used.signCount = 1
        used.userHandle = Array(localID.utf8)
        let authenticator = used
        try await withFlint { api in
            let reply = try await api.batchCreate([downloaded])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.importErrors.isEmpty, "\(reply.text)")
            let stored = try #require(try await api.adminLookup(localID))
            #expect(stored["passkeyInfo"]?.arrayValue?.first?["credentialId"]?.stringValue == authenticator.id)
            var key = authenticator
            let signedIn = try await api.signInWithPasskey(&key)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("localId") == localID)
            var replayed = authenticator
            replayed.signCount = 0
            #expect(
                try await api.signInWithPasskey(&replayed).errorCode == "INVALID_AUTHENTICATOR_RESPONSE",
                "the imported counter holds: a lower one is a cloned authenticator")
        }
    }

    @Test("an import's passkeys need their key; a credential ID belongs to one account, in the batch and in the store")
    func refusals() async throws {
        try await withFlint { api in
            var holder = SoftwareAuthenticator()
            _ = try await Self.accountWithPasskey(api, phone: "+16505550192", &holder)
            let fresh = SoftwareAuthenticator()
            let key = JSONValue.string(Base64URL.encode(fresh.coseKey))
            let users: [JSONValue] = [
                ["localId": "no-key", "passkeyInfo": [["name": "Firebase's", "credentialId": .string(fresh.id)]]],
                ["localId": "bad-key", "passkeyInfo": [["credentialId": .string(fresh.id), "publicKey": "AAEC", "rpId": "localhost"]]],
                ["localId": "first", "passkeyInfo": [["credentialId": .string(fresh.id), "publicKey": key, "rpId": "localhost"]]],
                ["localId": "second", "passkeyInfo": [["credentialId": .string(fresh.id), "publicKey": key, "rpId": "localhost"]]],
                ["localId": "stored", "passkeyInfo": [["credentialId": .string(holder.id), "publicKey": key, "rpId": "localhost"]]],
                [
                    "localId": "long-id",
                    "passkeyInfo": [
                        ["credentialId": .string(Base64URL.encode([UInt8](repeating: 1, count: 1024))), "publicKey": key, "rpId": "localhost"]
                    ],
                ],
            ]
            let reply = try await api.batchCreate(users)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(
                reply.importErrors == [
                    0: UserImportParser.passkeyWithoutKey,
                    1: "passkeyInfo publicKey is not a COSE key Flint verifies (ES256 or RS256)",
                    3: "passkey credentialId exists in other account in this batch",
                    4: UserImporter.passkeyTaken,
                    5: "passkeyInfo credentialId is too long",
                ])
            #expect(try await api.adminLookup("first")?["passkeyInfo"]?.arrayValue?.count == 1)
            #expect(try await api.adminLookup("stored") == nil)
        }
    }
}

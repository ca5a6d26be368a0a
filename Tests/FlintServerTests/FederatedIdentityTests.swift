import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// A Google identity as `providerUserInfo` carries it.
private func google(_ rawID: String, email: String? = nil) -> JSONValue {
    var entry: [String: JSONValue] = ["providerId": "google.com", "rawId": .string(rawID), "displayName": .string("G \(rawID)")]
    if let email { entry["email"] = .string(email) }
    return .object(entry)
}

extension Path {
    static let adminDelete = "\(operatorV1)/accounts:delete"
}

extension Reply {
    /// The `providerId`s of the first account's `providerUserInfo` under `key` (`users`, `userInfo`).
    func providerIDs(_ key: String = "users") -> [String] {
        json[key]?.arrayValue?.first?["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
    }
}

extension API {
    /// The operator's `accounts:lookup` by `federatedUserId`: the IDs of the accounts found.
    func lookupFederated(_ provider: String, _ rawID: String) async throws -> [String] {
        let reply = try await admin(Path.adminLookup, ["federatedUserId": [["providerId": .string(provider), "rawId": .string(rawID)]]])
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []
    }
}

@Suite("Federated identities: import, lookup, listing, unlinking, linking")
struct FederatedIdentityTests {
    @Test("imported federated providers are stored with what the provider gave and answered beside password and phone")
    func importAndLookup() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                [
                    "localId": "mixed", "email": "ada@example.com", "rawPassword": "correct horse", "phoneNumber": .string(alice),
                    "providerUserInfo": [
                        ["providerId": "password", "rawId": "ada@example.com"],
                        [
                            "providerId": "google.com", "rawId": "1093", "email": "ada@gmail.com", "displayName": "Ada G",
                            "photoUrl": "https://g/a.png",
                            "federatedId": "1093",
                        ],
                        ["providerId": "twitter.com", "rawId": "77", "screenName": "ada", "phoneNumber": "+16505550199"],
                    ],
                ],
                // Federated providers only: no email, password or number.
                [
                    "localId": "only-apple",
                    "providerUserInfo": [["providerId": "apple.com", "rawId": "001.apple", "email": "x@privaterelay.appleid.com"]],
                ],
            ]
            let reply = try await api.batchCreate(users)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.importErrors.isEmpty, "\(reply.text)")
            let mixed = try #require(try await api.adminAccount("mixed"))
            let providers = try #require(mixed["providerUserInfo"]?.arrayValue)
            #expect(providers.compactMap { $0["providerId"]?.stringValue } == ["password", "phone", "google.com", "twitter.com"])
            let google = providers[2]
            #expect(google["rawId"]?.stringValue == "1093")
            #expect(google["federatedId"]?.stringValue == "1093")
            #expect(google["email"]?.stringValue == "ada@gmail.com")
            #expect(google["displayName"]?.stringValue == "Ada G")
            #expect(google["photoUrl"]?.stringValue == "https://g/a.png")
            #expect(providers[3]["screenName"]?.stringValue == "ada")
            #expect(providers[3]["phoneNumber"]?.stringValue == "+16505550199")
            let apple = try #require(try await api.adminAccount("only-apple"))
            #expect(apple["providerUserInfo"]?.arrayValue?.first?["providerId"]?.stringValue == "apple.com")
            #expect(apple["email"] == nil)
            // The user's own lookup shows them too.
            let signedIn = try await api.signIn(alice)
            #expect(signedIn.localId == "mixed")
            let own = try await api.lookup(signedIn.idToken)
            #expect(own.providerIDs() == ["password", "phone", "google.com", "twitter.com"])
        }
    }

    @Test("lookup by federatedUserId finds the account holding the identity, once however it is named")
    func lookupByFederatedUserID() async throws {
        try await withFlint { api in
            #expect(try await api.batchCreate([["localId": "g", "email": "g@example.com", "providerUserInfo": [google("1")]]]).importErrors.isEmpty)
            #expect(try await api.lookupFederated("google.com", "1") == ["g"])
            #expect(try await api.lookupFederated("google.com", "2").isEmpty)
            #expect(try await api.lookupFederated("apple.com", "1").isEmpty)
            let both = try await api.admin(
                Path.adminLookup,
                ["email": ["g@example.com"], "federatedUserId": [["providerId": "google.com", "rawId": "1"]]])
            #expect(both["users"]?.arrayValue?.count == 1)
            let missingRaw = try await api.admin(Path.adminLookup, ["federatedUserId": [["providerId": "google.com"]]])
            #expect(missingRaw.status == .badRequest)
        }
    }

    @Test("a raw ID held by another account, in the store or earlier in the batch, refuses the user; sanityCheck refuses the batch")
    func duplicates() async throws {
        try await withFlint { api in
            #expect(try await api.batchCreate([["localId": "first", "providerUserInfo": [google("1")]]]).importErrors.isEmpty)
            let users: [JSONValue] = [
                ["localId": "clash-stored", "providerUserInfo": [google("1")]],
                ["localId": "ok", "providerUserInfo": [google("2"), google("2")]],
                ["localId": "clash-batch", "email": "b@example.com", "providerUserInfo": [google("2")]],
                ["localId": "other-provider", "providerUserInfo": [["providerId": "github.com", "rawId": "1"]]],
                ["localId": "no-raw-id", "providerUserInfo": [["providerId": "oidc.corp"]]],
                ["localId": "by-federated-id", "providerUserInfo": [["providerId": "saml.corp", "federatedId": "emp-7"]]],
            ]
            let reply = try await api.batchCreate(users)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(
                reply.importErrors == [
                    0: "raw id exists in other account in database", 2: "raw id exists in other account in database",
                    4: "federatedId or (providerId & rawId) is required",
                ])
            #expect(try await api.adminAccount("clash-stored") == nil)
            #expect(try await api.adminAccount("clash-batch") == nil)
            #expect(try await api.lookupFederated("google.com", "2") == ["ok"])
            #expect(try await api.lookupFederated("github.com", "1") == ["other-provider"])
            #expect(try await api.lookupFederated("saml.corp", "emp-7") == ["by-federated-id"])
            #expect(try await api.adminAccount("ok")?["providerUserInfo"]?.arrayValue?.count == 1)

            let sane = try await api.batchCreate(
                [["localId": "s1", "providerUserInfo": [google("5")]], ["localId": "s2", "providerUserInfo": [google("5")]]], ["sanityCheck": true])
            #expect(sane.status == .badRequest)
            #expect(sane.errorMessage == "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(5)")
            #expect(try await api.adminAccount("s1") == nil)
        }
    }

    @Test("allowOverwrite replaces an account's identities, freeing the ones it no longer lists")
    func overwrite() async throws {
        try await withFlint { api in
            #expect(try await api.batchCreate([["localId": "u", "providerUserInfo": [google("1")]]]).importErrors.isEmpty)
            let again = try await api.batchCreate(
                [["localId": "u", "providerUserInfo": [["providerId": "github.com", "rawId": "9"]]]], ["allowOverwrite": true])
            #expect(again.importErrors.isEmpty, "\(again.text)")
            #expect(try await api.adminAccount("u")?["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["github.com"])
            #expect(try await api.lookupFederated("google.com", "1").isEmpty)
            #expect(try await api.batchCreate([["localId": "v", "providerUserInfo": [google("1")]]]).importErrors.isEmpty)
            // Overwriting keeps the account's own identity.
            let same = try await api.batchCreate(
                [["localId": "v", "providerUserInfo": [google("1", email: "v@gmail.com")]]], ["allowOverwrite": true])
            #expect(same.importErrors.isEmpty, "\(same.text)")
            #expect(try await api.lookupFederated("google.com", "1") == ["v"])
        }
    }

    @Test("createAuthUri (fetchSignInMethods) lists the federated providers of the account with the email and of identities with it")
    func signInMethods() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                ["localId": "g", "email": "g@example.com", "rawPassword": "correct horse", "providerUserInfo": [google("1"), google("2")]],
                ["localId": "other", "providerUserInfo": [["providerId": "apple.com", "rawId": "a", "email": "apple-only@example.com"]]],
            ]
            #expect(try await api.batchCreate(users).importErrors.isEmpty)
            let reply = try await api.post(Path.createAuthURI, ["identifier": "G@example.com", "continueUri": "http://localhost/"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["registered"] == .bool(true))
            #expect(reply["allProviders"] == .array(["password", "google.com"]))
            #expect(reply["signinMethods"] == .array(["password", "google.com"]))
            // The emails providers gave are looked up too, as the emulator does: the provider is the way in.
            let providerEmail = try await api.post(Path.createAuthURI, ["identifier": "apple-only@example.com", "continueUri": "http://localhost/"])
            #expect(providerEmail["registered"] == .bool(true))
            #expect(providerEmail["allProviders"] == .array(["apple.com"]))
            #expect(providerEmail["signinMethods"] == .array(["apple.com"]))
        }
    }

    @Test("createAuthUri by an email a provider gave lists every sign-in method of that provider's account")
    func providerEmailListsTheWholeAccount() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                [
                    "localId": "h", "email": "home@example.com", "rawPassword": "correct horse", "phoneNumber": "+16505550111",
                    "providerUserInfo": [["providerId": "apple.com", "rawId": "a", "email": "relay@example.com"], google("1")],
                ]
            ]
            #expect(try await api.batchCreate(users).importErrors.isEmpty)
            let reply = try await api.post(Path.createAuthURI, ["identifier": "relay@example.com", "continueUri": "http://localhost/"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["registered"] == .bool(true))
            #expect(reply["allProviders"] == .array(["password", "apple.com", "google.com"]))
            #expect(reply["signinMethods"] == .array(["password", "apple.com", "google.com"]))
            let unknown = try await api.post(Path.createAuthURI, ["identifier": "nobody@example.com", "continueUri": "http://localhost/"])
            #expect(unknown["registered"] == .bool(false))
        }
    }

    @Test("accounts:batchGet and accounts:query list federated providers")
    func listings() async throws {
        try await withFlint { api in
            #expect(try await api.batchCreate([["localId": "a", "email": "a@example.com", "providerUserInfo": [google("1")]]]).importErrors.isEmpty)
            let page = try await api.listPage()
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.providerIDs() == ["google.com"])
            let query = try await api.admin(Path.query, ["expression": [["email": "a@example.com"]]])
            #expect(query.status == .ok, "\(query.text)")
            #expect(query.providerIDs("userInfo") == ["google.com"])
            let v3 = try await api.admin(.post, "\(Path.v3)/downloadAccount", body: "{}")
            #expect(v3.providerIDs() == ["google.com"])
        }
    }

    @Test("deleteProvider removes a federated identity, for the operator and for the user; other providers stay")
    func deleteProvider() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                ["localId": "op", "providerUserInfo": [google("1"), ["providerId": "github.com", "rawId": "2"]]],
                ["localId": "self", "phoneNumber": .string(alice), "providerUserInfo": [google("3")]],
            ]
            #expect(try await api.batchCreate(users).importErrors.isEmpty)
            let update = try await api.admin(Path.adminUpdate, ["localId": "op", "deleteProvider": ["google.com"]])
            #expect(update.status == .ok, "\(update.text)")
            #expect(update["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["github.com"])
            #expect(try await api.lookupFederated("google.com", "1").isEmpty)
            #expect(try await api.lookupFederated("github.com", "2") == ["op"])

            let signedIn = try await api.signIn(alice)
            let body = #"{"idToken":"\#(signedIn.idToken)","deleteProvider":["google.com"]}"#
            let own = try await api.postRaw("\(Path.v1)/accounts:update", body)
            #expect(own.status == .ok, "\(own.text)")
            #expect(own["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } == ["phone"])
            #expect(try await api.lookupFederated("google.com", "3").isEmpty)
        }
    }

    @Test("linkProviderUserInfo links an identity (operator only), replaces the same provider's, and refuses one another account holds")
    func link() async throws {
        try await withFlint { api in
            #expect(
                try await api.batchCreate([
                    ["localId": "a", "phoneNumber": .string(alice)], ["localId": "b", "providerUserInfo": [google("taken")]],
                ])
                .importErrors.isEmpty)
            let linked = try await api.admin(
                Path.adminUpdate,
                ["localId": "a", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "1", "email": "a@gmail.com", "displayName": "A"]])
            #expect(linked.status == .ok, "\(linked.text)")
            let entry = linked["providerUserInfo"]?.arrayValue?.last
            #expect(entry?["providerId"]?.stringValue == "google.com")
            #expect(entry?["email"]?.stringValue == "a@gmail.com")
            #expect(try await api.lookupFederated("google.com", "1") == ["a"])
            let replaced = try await api.admin(
                Path.adminUpdate, ["localId": "a", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "2"]])
            #expect(replaced.status == .ok, "\(replaced.text)")
            #expect(try await api.lookupFederated("google.com", "1").isEmpty)
            #expect(try await api.lookupFederated("google.com", "2") == ["a"])

            let taken = try await api.admin(
                Path.adminUpdate, ["localId": "a", "displayName": "kept?", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "taken"]])
            #expect(taken.status == .badRequest)
            #expect(taken.errorCode == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(try await api.adminAccount("a")?["displayName"] == nil)
            #expect(try await api.lookupFederated("google.com", "taken") == ["b"])

            let noProvider = try await api.admin(Path.adminUpdate, ["localId": "a", "linkProviderUserInfo": ["rawId": "3"]])
            #expect(noProvider.errorCode == "MISSING_PROVIDER_ID")
            let noRaw = try await api.admin(Path.adminUpdate, ["localId": "a", "linkProviderUserInfo": ["providerId": "google.com"]])
            #expect(noRaw.errorCode == "MISSING_RAW_ID")
            let phone = try await api.admin(Path.adminUpdate, ["localId": "a", "linkProviderUserInfo": ["providerId": "phone", "rawId": "+1"]])
            #expect(phone.errorCode == "INVALID_PROVIDER_ID")

            // A user cannot link an identity to their own account without proving it.
            let signedIn = try await api.signIn(alice)
            let body = #"{"idToken":"\#(signedIn.idToken)","linkProviderUserInfo":{"providerId":"google.com","rawId":"9"}}"#
            let own = try await api.postRaw("\(Path.v1)/accounts:update", body)
            #expect(own.errorCode == "INSUFFICIENT_PERMISSION")
            #expect(try await api.lookupFederated("google.com", "9").isEmpty)
        }
    }

    @Test("deleting an account, or a batch of them, deletes their identities: the raw IDs can be imported again")
    func deletionCascade() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                ["localId": "one", "providerUserInfo": [google("1")]], ["localId": "two", "disabled": true, "providerUserInfo": [google("2")]],
            ]
            #expect(try await api.batchCreate(users).importErrors.isEmpty)
            let deleted = try await api.admin(Path.adminDelete, ["localId": "one"])
            #expect(deleted.status == .ok, "\(deleted.text)")
            let batch = try await api.admin(Path.batchDelete, ["localIds": ["two"]])
            #expect(batch.status == .ok, "\(batch.text)")
            #expect(try await api.lookupFederated("google.com", "1").isEmpty)
            #expect(try await api.lookupFederated("google.com", "2").isEmpty)
            let again = try await api.batchCreate([["localId": "three", "providerUserInfo": [google("1"), google("2")]]])
            #expect(again.importErrors.isEmpty, "\(again.text)")
            #expect(try await api.lookupFederated("google.com", "2") == ["three"])
        }
    }
}

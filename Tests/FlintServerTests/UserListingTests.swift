import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Operator listings: accounts:batchGet, accounts:query")
struct UserListingTests {
    @Test("batchGet pages through every account once, in local-ID order, with a token whenever a page is full")
    func pages() async throws {
        let node = try await TestNode.make()
        try await node.addUsers(25)
        try await node.run { api in
            var seen: [String] = []
            var token: String?
            var pages = 0
            repeat {
                let reply = try await api.listPage(maxResults: 10, token: token)
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.string("kind") == "identitytoolkit#DownloadAccountResponse")
                seen += (reply["users"]?.arrayValue ?? []).compactMap { $0["localId"]?.stringValue }
                token = reply.string("nextPageToken")
                pages += 1
            } while token != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == (0..<25).map { "u" + String(format: "%03d", $0) })
            // Twenty by default; a last page that is exactly full carries a token, as production's does, and the page
            // after it is empty and carries none.
            #expect(try await api.listPage()["users"]?.arrayValue?.count == 20)
            let all = try await api.listPage(maxResults: 25)
            #expect(all["users"]?.arrayValue?.count == 25)
            let last = try #require(all.string("nextPageToken"))
            let after = try await api.listPage(maxResults: 25, token: last)
            #expect(after.status == .ok, "\(after.text)")
            #expect(after["users"] == nil)
            #expect(after.string("nextPageToken") == nil)
            #expect(try await api.listPage(maxResults: 26).string("nextPageToken") == nil)
        }
    }

    @Test("batchGet refuses maxResults outside 1…1000, a forged page token, API-key callers and other projects")
    func batchGetRefusals() async throws {
        try await withFlint { api in
            #expect(try await api.listPage(maxResults: 1001).errorCode == "INVALID_ARGUMENT")
            #expect(try await api.listPage(maxResults: -1).errorCode == "INVALID_ARGUMENT")
            #expect(try await api.listPage(maxResults: 1000).status == .ok)
            #expect(try await api.listPage(token: "!!not a token!!").errorCode == "INVALID_PAGE_SELECTION")
            let keyed = try await api.call(.get, API.keyed(Path.batchGet))
            #expect(keyed.status == .forbidden)
            let other = try await api.admin(.get, "\(Path.v1)/projects/other-project/accounts:batchGet")
            #expect(other.status == .notFound)
            #expect(other.errorCode == "PROJECT_NOT_FOUND")
        }
    }

    @Test("batchGet shows the password hash and salt as Firebase exports them; lookup keeps them redacted")
    func exportedHash() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate(["email": "ada@example.com", "password": "correct horse"])
            let listed = try #require(try await api.listPage()["users"]?.arrayValue?.first)
            let hash = try #require(listed["passwordHash"]?.stringValue)
            let salt = try #require(listed["salt"]?.stringValue)
            #expect(hash != AccountJSON.redactedHash)
            #expect(Base64URL.decode(hash.filter { $0 != "=" })?.count == 32)
            #expect(Base64URL.decode(salt.filter { $0 != "=" })?.count == 16)
            #expect(hash.count % 4 == 0 && salt.count % 4 == 0, "padded, as Google writes bytes")
            #expect(!hash.contains("+") && !hash.contains("/"), "websafe alphabet")
            let looked = try #require(try await api.adminAccount(id))
            #expect(looked["passwordHash"]?.stringValue == AccountJSON.redactedHash)
            #expect(looked["salt"] == nil)
        }
    }

    @Test("listed accounts carry their second factors, custom claims, providers and lastRefreshAt")
    func listedFields() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate(["email": "grace@example.com", "password": "correct horse"])
            let updated = try await api.admin(
                Path.adminUpdate,
                [
                    "localId": .string(id), "customAttributes": #"{"role":"admin"}"#,
                    "mfa": ["enrollments": [["phoneInfo": "+16505550199", "displayName": "work"]]],
                ])
            #expect(updated.status == .ok, "\(updated.text)")
            let signedIn = try await api.signInWithPassword("grace@example.com", "correct horse")
            #expect(signedIn.string("mfaPendingCredential") != nil || signedIn.string("idToken") != nil, "\(signedIn.text)")
            let user = try #require(try await api.listPage()["users"]?.arrayValue?.first)
            #expect(user["customAttributes"]?.stringValue == #"{"role":"admin"}"#)
            #expect(user["mfaInfo"]?.arrayValue?.first?["phoneInfo"]?.stringValue == "+16505550199")
            #expect(user["providerUserInfo"]?.arrayValue?.first?["providerId"]?.stringValue == "password")
        }
    }

    @Test("a sign-in stamps lastRefreshAt at once, in the sign-in's own write")
    func lastRefreshAtOnSignIn() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let user = try #require(try await api.adminAccount(signedIn.localId))
            let stamped = try #require(user["lastRefreshAt"]?.stringValue)
            let now = api.clock.now()
            #expect(RFC3339.parse(stamped).map { abs($0.millisecondsSince1970 - now.millisecondsSince1970) < 1000 } == true, "\(stamped)")
            #expect(user["lastLoginAt"]?.stringValue.flatMap { Int64($0) }.map { abs($0 - now.millisecondsSince1970) < 1000 } == true)
            _ = try await api.signUp("lin@example.com")
            let password = try await api.signInWithPassword("lin@example.com", "correct horse")
            let otherID = try #require(password.string("localId"))
            let other = try #require(try await api.adminAccount(otherID))
            #expect(other["lastRefreshAt"]?.stringValue != nil)
        }
    }

    @Test("query counts, filters on one identifier, sorts and windows")
    func query() async throws {
        let node = try await TestNode.make()
        try await node.addUsers(12)
        try await node.run { api in
            let count = try await api.admin(Path.query, ["returnUserInfo": false])
            #expect(count.status == .ok, "\(count.text)")
            #expect(count.string("recordsCount") == "12")
            #expect(count["userInfo"] == nil)

            let byPhone = try await api.admin(Path.query, ["expression": [["phoneNumber": "+16505550003"]]])
            #expect(byPhone.string("recordsCount") == "1")
            #expect(byPhone["userInfo"]?.arrayValue?.first?["localId"]?.stringValue == "u003")
            let byID = try await api.admin(Path.query, ["expression": [["userId": "u007"]], "returnUserInfo": false])
            #expect(byID.string("recordsCount") == "1")
            let none = try await api.admin(Path.query, ["expression": [["email": "NOBODY@example.com"]]])
            #expect(none.string("recordsCount") == "0")

            let newest = try await api.admin(Path.query, ["sortBy": "CREATED_AT", "order": "DESC", "limit": "3", "offset": "1"])
            #expect(newest["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["u010", "u009", "u008"])
            let alias = try await api.admin(.post, "\(Path.operatorV1):queryAccounts", body: #"{"limit":2}"#)
            #expect(alias["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["u000", "u001"])
            let badSort = try await api.admin(Path.query, ["sortBy": "SHOE_SIZE"])
            #expect(badSort.status == .badRequest)
            #expect(badSort.errorMessage?.hasPrefix("Invalid JSON payload received. Invalid value at 'sort_by'") == true, "\(badSort.text)")
            let keyed = try await api.call(.post, API.keyed(Path.query), body: "{}")
            #expect(keyed.status == .forbidden)
        }
    }

    @Test("query sorts by name with unnamed accounts last, and the reverse when descending")
    func queryNames() async throws {
        try await withFlint { api in
            for (uid, name) in [("a1", "Zoe"), ("a2", nil), ("a3", "Adam")] as [(String, String?)] {
                var body: [String: JSONValue] = ["localId": .string(uid)]
                if let name { body["displayName"] = .string(name) }
                _ = try await api.adminCreate(.object(body))
            }
            let ascending = try await api.admin(Path.query, ["sortBy": "NAME"])
            #expect(ascending["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["a3", "a1", "a2"])
            let descending = try await api.admin(Path.query, ["sortBy": "NAME", "order": "DESC"])
            #expect(descending["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["a2", "a1", "a3"])
        }
    }
}

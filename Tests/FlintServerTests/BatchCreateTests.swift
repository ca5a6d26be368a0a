import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// `v1/projects/{p}/accounts:batchCreate`, as the Admin SDKs' `importUsers` calls it.
enum Import {
    static let path = "\(Path.v1)/projects/\(project)/accounts:batchCreate"

    /// A request body: `users` and the batch's other members (hash parameters, flags).
    static func body(_ users: [JSONValue], _ extra: [String: JSONValue] = [:]) -> String {
        var fields = extra
        fields["users"] = .array(users)
        return String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self)
    }
}

extension API {
    /// Posts an import as the operator.
    func batchCreate(_ users: [JSONValue], _ extra: [String: JSONValue] = [:]) async throws -> Reply {
        try await admin(.post, Import.path, body: Import.body(users, extra))
    }

    /// The operator's `accounts:lookup` of one user.
    func adminLookup(_ localID: String) async throws -> JSONValue? {
        let reply = try await admin(.post, "\(Path.v1)/projects/\(project)/accounts:lookup", body: #"{"localId":["\#(localID)"]}"#)
        return reply["users"]?.arrayValue?.first
    }
}

extension Reply {
    /// `error[]` of an import answer as index → message.
    var importErrors: [Int: String] {
        var out: [Int: String] = [:]
        for entry in json["error"]?.arrayValue ?? [] {
            if let index = entry["index"]?.intValue, let message = entry["message"]?.stringValue { out[Int(index)] = message }
        }
        return out
    }
}

@Suite("Import: accounts:batchCreate")
struct BatchCreateTests {
    @Test("unknown keys in nested objects whose case mapping grows (`x_ß`) are ignored, as at the top level")
    func unknownKeysAnyCase() async throws {
        try await withFlint { api in
            let user: JSONValue = [
                "localId": "odd-keys", "x_ß": .number(1), "providerUserInfo": [["providerId": "password", "rawId": "a", "y_ŉ": .object([:])]],
            ]
            let reply = try await api.batchCreate([user], ["a_ß": true, "sanityCheck": true])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["error"] == .array([]))
            #expect(try await api.adminLookup("odd-keys") != nil)
        }
    }

    @Test("every field a user carries is stored and answered by lookup")
    func fields() async throws {
        try await withFlint { api in
            let user: JSONValue = [
                "localId": "imported-1", "email": "Ada@Example.com", "emailVerified": true, "displayName": "Ada", "photoUrl": "https://x/a.png",
                "phoneNumber": "+16505553434", "disabled": true, "customAttributes": #"{"role":"admin"}"#, "createdAt": "1500000000000",
                "lastLoginAt": "1600000000000",
                "providerUserInfo": [["providerId": "password", "rawId": "ada@example.com"], ["providerId": "phone", "rawId": "+16505553434"]],
                "mfaInfo": [
                    ["mfaEnrollmentId": "enrol-1", "phoneInfo": "+16505550101", "displayName": "work", "enrolledAt": "2021-02-03T04:05:06.789Z"]
                ],
            ]
            let reply = try await api.batchCreate([user])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("kind") == "identitytoolkit#UploadAccountResponse")
            #expect(reply["error"] == .array([]))
            let stored = try #require(try await api.adminLookup("imported-1"))
            #expect(stored["email"]?.stringValue == "ada@example.com")
            #expect(stored["emailVerified"] == .bool(true))
            #expect(stored["displayName"]?.stringValue == "Ada")
            #expect(stored["photoUrl"]?.stringValue == "https://x/a.png")
            #expect(stored["phoneNumber"]?.stringValue == "+16505553434")
            #expect(stored["disabled"] == .bool(true))
            #expect(stored["customAttributes"]?.stringValue == #"{"role":"admin"}"#)
            #expect(stored["createdAt"]?.stringValue == "1500000000000")
            #expect(stored["lastLoginAt"]?.stringValue == "1600000000000")
            let factor = try #require(stored["mfaInfo"]?.arrayValue?.first)
            #expect(factor["mfaEnrollmentId"]?.stringValue == "enrol-1")
            #expect(factor["phoneInfo"]?.stringValue == "+16505550101")
            #expect(factor["displayName"]?.stringValue == "work")
            #expect(factor["enrolledAt"]?.stringValue == "2021-02-03T04:05:06.789Z")
        }
    }

    @Test("refused users are reported by index with Firebase's messages; the others are imported")
    func perUserErrors() async throws {
        try await withFlint { api in
            let first = try await api.batchCreate([["localId": "taken", "email": "taken@example.com", "phoneNumber": "+16505550000"]])
            #expect(first.importErrors.isEmpty, "\(first.text)")
            let users: [JSONValue] = [
                ["localId": "ok-1", "email": "one@example.com"],
                ["email": "nobody@example.com"],
                ["localId": "bad-email", "email": "not an email"],
                ["localId": "bad-phone", "phoneNumber": "12"],
                ["localId": "big-claims", "customAttributes": .string(#"{"a":""# + String(repeating: "x", count: 1000) + #""}"#)],
                ["localId": "reserved", "customAttributes": #"{"sub":"x"}"#],
                ["localId": "not-json", "customAttributes": "[1]"],
                ["localId": "google", "providerUserInfo": [["providerId": "google.com", "displayName": "no raw ID"]]],
                ["localId": "mfa-unverified", "email": "u@example.com", "mfaInfo": [["phoneInfo": "+16505550101"]]],
                ["localId": "mfa-totp", "email": "t@example.com", "emailVerified": true, "mfaInfo": [["totpInfo": [:]]]],
                ["localId": "ok-9", "email": "other@example.com"],
                ["localId": "ok-2", "email": "ONE@example.com"],
                ["localId": "ok-3", "phoneNumber": "+16505551111"],
                ["localId": "ok-4", "phoneNumber": "+16505551111"],
                ["localId": "taken"],
                ["localId": "ok-5", "email": "taken@example.com"],
                ["localId": "ok-6", "phoneNumber": "+16505550000"],
                ["localId": "ok-7", "tenantId": "t1"],
                ["localId": .string(String(repeating: "x", count: 129))],
                ["localId": "ok-8", "displayName": "fine"],
            ]
            let reply = try await api.batchCreate(users)
            #expect(reply.status == .ok, "\(reply.text)")
            let expected: [Int: String] = [
                1: "localId is missing", 2: "email is invalid", 3: "phone number format is invalid",
                4: "Custom claims provided are too large.", 5: "Custom claims provided include a reserved claim.",
                6: "Invalid custom claims provided.",
                7: "federatedId or (providerId & rawId) is required",
                8: "Second factor account requires email to be verified.", 9: "Second factor not supported.",
                11: "email exists in other account in this batch",
                13: "phone number exists in other account in this batch", 14: "localId belongs to an existing account - can not overwrite.",
                15: "email exists in other account in database", 16: "phone number exists in other account in database",
                17: "Tenant id in userInfo does not match the tenant id in request.", 18: "localId must be at most 128 characters",
            ]
            #expect(reply.importErrors == expected)
            let count = try await api.admin(.post, "\(Path.v1)/projects/\(project)/accounts:lookup", body: #"{"localId":["ok-1","ok-3","ok-8"]}"#)
            #expect(count["users"]?.arrayValue?.count == 3)
            #expect(try await api.adminLookup("ok-1")?["email"]?.stringValue == "one@example.com")
            #expect(try await api.adminLookup("ok-2") == nil)
        }
    }

    @Test("allowOverwrite replaces an account and ends its sessions")
    func overwrite() async throws {
        try await withFlint { api in
            let signedIn = try await api.signUp("old@example.com", "password-1")
            let refused = try await api.batchCreate([["localId": .string(signedIn.localId), "email": "new@example.com"]])
            #expect(refused.importErrors == [0: "localId belongs to an existing account - can not overwrite."])
            let reply = try await api.batchCreate(
                [["localId": .string(signedIn.localId), "email": "new@example.com", "displayName": "New"]], ["allowOverwrite": true])
            #expect(reply.importErrors.isEmpty, "\(reply.text)")
            let stored = try #require(try await api.adminLookup(signedIn.localId))
            #expect(stored["email"]?.stringValue == "new@example.com")
            #expect(stored["displayName"]?.stringValue == "New")
            #expect(stored["passwordHash"] == nil)
            #expect(try await api.refresh(signedIn.refreshToken).status != .ok)
            #expect(try await api.lookup(signedIn.idToken).status != .ok)
            let replaced = try #require(try await api.auditEvents("uid=\(signedIn.localId)&kind=ACCOUNT_DELETED").first)
            #expect(replaced["detail"] == ["replacedByImport": true] && replaced["actor"] == "owner", "the overwrite is an audited deletion")
        }
    }

    static let requestErrors: [ErrorCase] = [
        ErrorCase("no users", body: #"{"users":[]}"#, code: "MISSING_USER_ACCOUNT"),
        ErrorCase(
            "more than 1,000 users", body: Import.body((0...1000).map { .object(["localId": .string("u\($0)")]) }),
            code: "MAXIMUM_USER_COUNT_EXCEEDED"),
        ErrorCase("hashes without an algorithm", body: Import.body([["localId": "a", "passwordHash": "AAAA"]]), code: "MISSING_HASH_ALGORITHM"),
        ErrorCase("an unknown algorithm", body: Import.body([["localId": "a"]], ["hashAlgorithm": "ROT13"]), code: "INVALID_HASH_ALGORITHM"),
        ErrorCase(
            "a mistyped member", body: Import.body([["localId": "a", "emailVerified": "maybe"]]),
            code: #"Invalid JSON payload received. Invalid value at 'users[0].email_verified' (TYPE_BOOL), "maybe""#),
        ErrorCase(
            "sanityCheck with a repeated email",
            body: Import.body([["localId": "a", "email": "x@example.com"], ["localId": "b", "email": "X@example.com"]], ["sanityCheck": true]),
            code: "DUPLICATE_EMAIL"),
        ErrorCase(
            "a local ID given twice", body: Import.body([["localId": "a"], ["localId": "b"], ["localId": "a", "email": "a@example.com"]]),
            code: "DUPLICATE_LOCAL_ID"),
    ]

    @Test("a local ID given twice refuses the whole batch with the ID, and nothing is imported; with allowOverwrite it is not refused")
    func repeatedLocalID() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.post, Import.path, body: Import.body([["localId": "a"], ["localId": "b"], ["localId": "a"]]))
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorMessage == "DUPLICATE_LOCAL_ID : a")
            #expect(try await api.adminLookup("a") == nil)
            #expect(try await api.adminLookup("b") == nil)
            let overwriting = try await api.admin(
                .post, Import.path, body: Import.body([["localId": "a"], ["localId": "a", "displayName": "Second"]], ["allowOverwrite": true]))
            #expect(overwriting.status == .ok, "\(overwriting.text)")
        }
    }

    @Test("whole-request refusals", arguments: requestErrors)
    func requestRefusals(_ error: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.admin(.post, Import.path, body: error.body)
            #expect(reply.status.code == error.status, "\(reply.text)")
            #expect(reply.errorCode == error.code, "\(reply.text)")
        }
    }

    @Test("clients cannot import: an API key alone is refused")
    func operatorOnly() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Import.path, Import.body([["localId": "a"]]))
            #expect(reply.status == .forbidden || reply.status == .unauthorized, "\(reply.text)")
            let v1 = try await api.postRaw("\(Path.v1)/accounts:batchCreate", Import.body([["localId": "a"]]))
            #expect(v1.errorCode == "INSUFFICIENT_PERMISSION", "\(v1.text)")
        }
    }

    @Test("1,000 users in one call")
    func fullBatch() async throws {
        try await withFlint { api in
            let users: [JSONValue] = (0..<1000).map { i in
                ["localId": .string("bulk-\(i)"), "email": .string("bulk\(i)@example.com"), "phoneNumber": .string("+1650555\(String(1000 + i))")]
            }
            let reply = try await api.batchCreate(users)
            #expect(reply.importErrors.isEmpty, "\(reply.text.prefix(300))")
            #expect(try await api.adminLookup("bulk-999")?["phoneNumber"]?.stringValue == "+16505551999")
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Operator user management: batchDelete, update, signUp, lookup, errors")
struct UserManagementTests {
    @Test("batchDelete without force deletes disabled accounts, reports enabled ones, skips unknown IDs")
    func batchDelete() async throws {
        try await withFlint { api in
            let enabled = try await api.adminCreate(["localId": "enabled"])
            let disabled = try await api.adminCreate(["localId": "disabled", "disabled": true])
            let reply = try await api.admin(Path.batchDelete, ["localIds": [.string(enabled), "nobody", .string(disabled)]])
            #expect(reply.status == .ok, "\(reply.text)")
            let errors = try #require(reply["errors"]?.arrayValue)
            #expect(errors.count == 1)
            #expect(errors.first?["index"]?.intValue == 0)
            #expect(errors.first?["localId"]?.stringValue == enabled)
            #expect(errors.first?["message"]?.stringValue == "NOT_DISABLED : Disable the account before batch deletion.")
            #expect(try await api.adminAccount(disabled) == nil)
            #expect(try await api.adminAccount(enabled) != nil)

            let forced = try await api.admin(Path.batchDelete, ["localIds": [.string(enabled)], "force": true])
            #expect(forced.status == .ok)
            #expect(forced["errors"] == nil)
            #expect(try await api.adminAccount(enabled) == nil)
        }
    }

    @Test("batchDelete ends the deleted accounts' sessions and refuses empty or oversized lists")
    func batchDeleteSessionsAndLimits() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.admin(Path.batchDelete, ["localIds": [.string(signedIn.localId)], "force": true])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try await api.refresh(signedIn.refreshToken).errorCode == "USER_NOT_FOUND")
            let deleted = try #require(try await api.auditEvents("uid=\(signedIn.localId)&kind=ACCOUNT_DELETED").first)
            #expect(deleted["actor"] == "owner" && deleted["detail"] == ["batch": true], "each deleted account is audited")
            #expect(try await api.admin(Path.batchDelete, ["localIds": []]).errorCode == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
            let many = JSONValue.array((0...1000).map { .string("id\($0)") })
            #expect(try await api.admin(Path.batchDelete, ["localIds": many, "force": true]).errorCode == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
        }
    }

    @Test("the operator replaces, renames and removes an account's second factors; adding one ends its sessions")
    func updateSecondFactors() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let id = signedIn.localId
            let enrolledAt = "2016-10-12T01:31:45.000Z"
            let two: JSONValue = [
                "localId": .string(id),
                "mfa": [
                    "enrollments": [
                        ["mfaEnrollmentId": "mfaUid1", "phoneInfo": "+16505550001", "displayName": "Work", "enrolledAt": .string(enrolledAt)],
                        ["mfaEnrollmentId": "mfaUid2", "phoneInfo": "+16505550002", "displayName": "Home", "enrolledAt": .string(enrolledAt)],
                    ]
                ],
            ]
            #expect(try await api.admin(Path.adminUpdate, two).status == .ok)
            let factors = try #require(try await api.adminAccount(id)?["mfaInfo"]?.arrayValue)
            #expect(factors.compactMap { $0["mfaEnrollmentId"]?.stringValue } == ["mfaUid1", "mfaUid2"])
            #expect(factors.first?["enrolledAt"]?.stringValue == enrolledAt)
            #expect(factors.first?["phoneInfo"]?.stringValue == "+16505550001")
            #expect(try await api.refresh(signedIn.refreshToken).errorCode == "TOKEN_EXPIRED", "adding factors ends sessions")

            let one: JSONValue = ["localId": .string(id), "mfa": ["enrollments": [["mfaEnrollmentId": "mfaUid1", "phoneInfo": "+16505550001"]]]]
            #expect(try await api.admin(Path.adminUpdate, one).status == .ok)
            let kept = try #require(try await api.adminAccount(id)?["mfaInfo"]?.arrayValue)
            #expect(kept.count == 1)
            #expect(kept.first?["enrolledAt"]?.stringValue == enrolledAt, "a kept factor keeps its enrolment time")

            #expect(try await api.admin(Path.adminUpdate, ["localId": .string(id), "mfa": [:]]).status == .ok)
            #expect(try await api.adminAccount(id)?["mfaInfo"] == nil)
        }
    }

    @Test("second factors an operator sends are checked as Firebase checks them")
    func secondFactorRefusals() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate(["localId": "someone"])
            func update(_ enrollments: JSONValue) async throws -> Reply {
                try await api.admin(Path.adminUpdate, ["localId": .string(id), "mfa": ["enrollments": enrollments]])
            }
            #expect(try await update([["phoneInfo": "not a number"]]).errorCode == "INVALID_MFA_PHONE_NUMBER")
            let twice: JSONValue = [["mfaEnrollmentId": "x", "phoneInfo": "+16505550001"], ["mfaEnrollmentId": "x", "phoneInfo": "+16505550002"]]
            #expect(try await update(twice).errorCode == "DUPLICATE_MFA_ENROLLMENT_ID")
            #expect(try await update([["mfaEnrollmentId": "nope", "totpInfo": [:]]]).errorCode == "MFA_ENROLLMENT_NOT_FOUND")
            // A number listed twice is one factor, as Firebase drops the duplicate.
            #expect(try await update([["phoneInfo": "+16505550001"], ["phoneInfo": "+1 650-555-0001"]]).status == .ok)
            #expect(try await api.adminAccount(id)?["mfaInfo"]?.arrayValue?.count == 1)
            // A user's own token cannot set second factors.
            let signedIn = try await api.signIn(alice)
            let own = try await api.postRaw(
                Path.update, #"{"idToken":"\#(signedIn.idToken)","mfa":{"enrollments":[{"phoneInfo":"+16505550009"}]}}"#)
            #expect(own.errorCode == "INSUFFICIENT_PERMISSION")
        }
    }

    @Test("custom claims: at most 1000 bytes, no reserved names, {} removes them")
    func customClaims() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate(["localId": "claims"])
            func set(_ claims: String) async throws -> Reply {
                try await api.admin(Path.adminUpdate, ["localId": .string(id), "customAttributes": .string(claims)])
            }
            #expect(try await set(#"{"admin":true}"#).status == .ok)
            #expect(try await api.adminAccount(id)?["customAttributes"]?.stringValue == #"{"admin":true}"#)
            let multibyte = #"{"n":""# + String(repeating: "é", count: 497) + #""}"#
            #expect(multibyte.count <= 1000 && multibyte.utf8.count > 1000)
            #expect(try await set(multibyte).errorCode == "CLAIMS_TOO_LARGE")
            #expect(try await set(#"{"sub":"x"}"#).errorMessage == "FORBIDDEN_CLAIM : sub")
            #expect(try await set("[1]").errorCode == "INVALID_CLAIMS")
            #expect(try await set("{}").status == .ok)
            #expect(try await api.adminAccount(id)?["customAttributes"] == nil)
        }
    }

    @Test("developer claims named like account claims (email, phone_number…) are accepted, as Firebase does, but never reach a token")
    func accountClaimNames() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let claims = #"{"email":"spoof@example.com","email_verified":true,"user_id":"someone","plan":"gold"}"#
            let set = try await api.admin(Path.adminUpdate, ["localId": .string(signedIn.localId), "customAttributes": .string(claims)])
            #expect(set.status == .ok, "\(set.text)")
            let refreshed = try await api.refresh(signedIn.refreshToken)
            let payload = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(payload["plan"] == "gold")
            #expect(payload["email"] == nil && payload["email_verified"] == nil, "a phone user's token shows no developer email")
            #expect(payload["user_id"]?.stringValue == signedIn.localId)
        }
    }

    @Test("the operator's signUp takes second factors")
    func signUpWithFactors() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate([
                "email": "mfa@example.com", "password": "correct horse",
                "mfaInfo": [["phoneInfo": "+16505550101", "displayName": "Phone"]],
            ])
            let factor = try #require(try await api.adminAccount(id)?["mfaInfo"]?.arrayValue?.first)
            #expect(factor["phoneInfo"]?.stringValue == "+16505550101")
            #expect(factor["mfaEnrollmentId"]?.stringValue?.count == 28)
        }
    }

    @Test("the operator's signUp gives its second factors new enrolment IDs, not the ones the caller sent, as Firebase does")
    func signUpMakesNewEnrollmentIDs() async throws {
        try await withFlint { api in
            let id = try await api.adminCreate([
                "email": "ids@example.com", "password": "correct horse",
                "mfaInfo": [
                    ["mfaEnrollmentId": "mine-1", "phoneInfo": "+16505550101"], ["mfaEnrollmentId": "mine-2", "phoneInfo": "+16505550102"],
                ],
            ])
            let ids = try #require(try await api.adminAccount(id)?["mfaInfo"]?.arrayValue).compactMap { $0["mfaEnrollmentId"]?.stringValue }
            #expect(ids.count == 2)
            #expect(Set(ids).isDisjoint(with: ["mine-1", "mine-2"]), "\(ids)")
            #expect(ids.allSatisfy { $0.count == 28 })
        }
    }

    @Test("lookup by federatedUserId finds the password and phone providers, nothing for unknown identities; initialEmail is refused (400)")
    func lookupFederated() async throws {
        try await withFlint { api in
            let withPassword = try await api.adminCreate(["email": "fed@example.com", "password": "correct horse"])
            let withPhone = try await api.adminCreate(["phoneNumber": "+16505550177"])
            let reply = try await api.admin(
                Path.adminLookup,
                [
                    "federatedUserId": [
                        ["providerId": "password", "rawId": "FED@example.com"], ["providerId": "phone", "rawId": "+16505550177"],
                        ["providerId": "google.com", "rawId": "12345"],
                    ]
                ])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(Set(reply["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []) == [withPassword, withPhone])
            let google = try await api.admin(Path.adminLookup, ["federatedUserId": [["providerId": "google.com", "rawId": "1"]]])
            #expect(google.status == .ok)
            #expect(google["users"] == nil)
            #expect(try await api.admin(Path.adminLookup, ["federatedUserId": [["providerId": "phone"]]]).status == .badRequest)
            let initial = try await api.admin(Path.adminLookup, ["initialEmail": ["fed@example.com"]])
            #expect(initial.status == .badRequest)
            #expect(initial.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test("unknown paths under the Identity Toolkit host answer Firebase's 404 JSON, whatever the method")
    func unknownAdminPaths() async throws {
        try await withFlint { api in
            for (method, path) in [
                (HTTPRequest.Method.get, "\(Path.operatorV1)/accounts:nothing"), (.post, "\(Path.operatorV1)/tenants/t1/accounts:batchGet"),
                (.get, "\(Path.operatorV1)/accounts:lookup"), (.delete, Path.batchGet),
            ] {
                let reply = try await api.admin(method, path)
                #expect(reply.status == .notFound, "\(method) \(path): \(reply.text)")
                #expect(reply["error"]?["code"]?.intValue == 404)
                #expect(reply["error"]?["status"]?.stringValue == "NOT_FOUND")
                #expect(reply["error"]?["message"]?.stringValue != nil)
            }
        }
    }

    @Test("an operator's EMAIL_SIGNIN link needs no canHandleCodeInApp; a client's still does")
    func operatorSignInLink() async throws {
        try await withFlint { api in
            let body: JSONValue = [
                "requestType": "EMAIL_SIGNIN", "email": "link@example.com", "returnOobLink": true, "continueUrl": "http://localhost/done",
            ]
            let reply = try await api.admin("\(Path.operatorV1)/accounts:sendOobCode", body)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("oobLink") != nil)
            let client = try await api.postRaw(
                Path.sendOob, #"{"requestType":"EMAIL_SIGNIN","email":"link@example.com","continueUrl":"http://localhost/done"}"#)
            #expect(client.errorCode == "INVALID_ARGUMENT")
        }
    }
}

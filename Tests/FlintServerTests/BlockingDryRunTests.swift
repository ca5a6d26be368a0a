import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

extension Path {
    static let dryRun = "/flint/v1/projects/\(project)/blockingFunctions:dryRun"
}

extension API {
    /// `POST blockingFunctions:dryRun` as the operator.
    func dryRun(_ body: JSONValue) async throws -> Reply {
        try await admin(.post, Path.dryRun, body: String(decoding: body.serialized(), as: UTF8.self))
    }
}

/// A function that refuses `@blocked.example` addresses and disables and tags `@suspect.example` ones.
private func screening(_ claims: JSONValue) -> StandInFunction.Answer {
    let email = claims["user_record"]?["email"]?.stringValue ?? ""
    if email.hasSuffix("@blocked.example") {
        return .json(.badRequest, ["error": ["status": "PERMISSION_DENIED", "message": "Unauthorized email"]])
    }
    if email.hasSuffix("@suspect.example") {
        return .json(.ok, ["userRecord": ["updateMask": "disabled,customClaims", "disabled": true, "customClaims": ["review": true]]])
    }
    // The same name again: no change.
    return .json(.ok, ["userRecord": ["updateMask": "displayName", "displayName": claims["user_record"]?["display_name"] ?? .null]])
}

@Suite("Blocking functions' dry run (the audit log's sign-ins replayed to a function not yet turned on)")
struct BlockingDryRunTests {
    @Test("the report counts what the function would have allowed, changed and refused, and nothing of it is applied")
    func report() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withFlint { api in
                let ada = try await api.signUp("ada@example.com")
                let bob = try await api.signUp("bob@blocked.example")
                let cy = try await api.signUp("cy@suspect.example")
                // Ada again with the same method: one call, standing for both sign-ins.
                #expect(try await api.signInWithPassword("ada@example.com", "correct horse").status == .ok)
                let before = try await [ada, bob, cy].asyncMap { try await api.adminAccount($0.localId) }
                function.answer(screening)

                let reply = try await api.dryRun(["functionUri": .string(function.uri("screen"))])
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply["trigger"] == "beforeSignIn" && reply["days"]?.intValue == 7)
                #expect(reply["signIns"]?.intValue == 4 && reply["replayed"]?.intValue == 3, "\(reply.text)")
                #expect(reply["allowed"]?.intValue == 1 && reply["changed"]?.intValue == 1 && reply["refused"]?.intValue == 1)
                #expect(reply["failed"]?.intValue == 0 && reply["skipped"]?.intValue == 0 && reply["truncated"] == .bool(false))
                let rows = reply["results"]?.arrayValue ?? []
                #expect(rows.count == 2, "\(reply.text)")
                #expect(rows.first?["outcome"] == "REFUSED" && rows.first?["uid"]?.stringValue == bob.localId)
                #expect(rows.first?["message"] == "Unauthorized email" && rows.first?["method"] == "password")
                #expect(rows.last?["outcome"] == "CHANGED" && rows.last?["uid"]?.stringValue == cy.localId)
                #expect(rows.last?["changes"] == ["disabled", "customClaims"])

                // Each call is the live one: a beforeSignIn JWT with the account, marked only in its event ID.
                #expect(function.calls.count == 3)
                for claims in function.claims {
                    #expect(claims["event_type"] == "beforeSignIn" && claims["sign_in_method"] == "password")
                    #expect(claims["iss"]?.stringValue == "https://securetoken.google.com/\(project)")
                    #expect(claims["aud"]?.stringValue == function.uri("screen"))
                    #expect(claims["event_id"]?.stringValue?.hasPrefix("dry-run-") == true)
                }
                #expect(Set(function.claims.compactMap { $0["user_record"]?["uid"]?.stringValue }) == [ada.localId, bob.localId, cy.localId])

                // Nothing applied: the accounts are as they were, the function is not turned on, one audit event.
                let after = try await [ada, bob, cy].asyncMap { try await api.adminAccount($0.localId) }
                #expect(after == before)
                #expect(try await api.signInWithPassword("cy@suspect.example", "correct horse").status == .ok)
                #expect(function.calls.count == 3)
                let audit = try #require(try await api.auditEvents("kind=BLOCKING_DRY_RUN").first)
                #expect(audit["detail"]?["refused"]?.intValue == 1 && audit["detail"]?["functionUri"]?.stringValue == function.uri("screen"))
            }
        }
    }

    @Test("only the window's sign-ins are replayed, and beforeCreate only those that created the account")
    func window() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withFlint { api in
                let old = try await api.signUp("old@example.com")
                api.clock.advance(by: .seconds(10 * 86_400))
                let new = try await api.signUp("new@example.com")
                #expect(try await api.signInWithPassword("old@example.com", "correct horse").status == .ok)
                // Anonymous sessions call no function, live or replayed.
                try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
                #expect(try await api.postJSON(Path.signUp, ["returnSecureToken": true]).status == .ok)

                let week = try await api.dryRun(["functionUri": .string(function.uri("in")), "days": .number(7)])
                #expect(week["signIns"]?.intValue == 2 && week["replayed"]?.intValue == 2, "\(week.text)")
                let created = try await api.dryRun(["functionUri": .string(function.uri("create")), "trigger": "beforeCreate", "days": .number(7)])
                #expect(created["signIns"]?.intValue == 1 && created["replayed"]?.intValue == 1, "\(created.text)")
                #expect(
                    function.claims.last?["event_type"] == "beforeCreate" && function.claims.last?["user_record"]?["uid"]?.stringValue == new.localId)
                let month = try await api.dryRun(["functionUri": .string(function.uri("create")), "trigger": "beforeCreate", "days": .number(30)])
                #expect(month["replayed"]?.intValue == 2, "\(month.text)")
                #expect(function.claims.suffix(2).contains { $0["user_record"]?["uid"]?.stringValue == old.localId })
            }
        }
    }

    @Test("without a URL the trigger's configured function is tried; a deleted account is skipped")
    func configuredFunction() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withFlint { api in
                let gone = try await api.signUp("gone@example.com")
                _ = try await api.signUp("kept@example.com")
                #expect(try await api.admin(.post, Path.delete, body: #"{"localId":"\#(gone.localId)"}"#).status == .ok)
                try await api.setBlockingFunctions(["beforeSignIn": function.uri("live")])
                let reply = try await api.dryRun([:])
                #expect(reply["functionUri"]?.stringValue == function.uri("live") && reply["skipped"]?.intValue == 1, "\(reply.text)")
                #expect(reply["allowed"]?.intValue == 1 && function.calls.count == 1)
            }
        }
    }

    @Test("an unreachable function is reported as failed calls, not an error")
    func unreachable() async throws {
        try await withFlint { api in
            _ = try await api.signUp("ada@example.com")
            _ = try await api.signUp("bob@example.com")
            // Nothing listens on port 9 (discard) of the loopback: the connection is refused at once.
            let reply = try await api.dryRun(["functionUri": "http://127.0.0.1:9/f"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["failed"]?.intValue == 2 && reply["replayed"]?.intValue == 2 && reply["allowed"]?.intValue == 0)
            let rows = reply["results"]?.arrayValue ?? []
            #expect(rows.count == 2 && rows.allSatisfy { $0["outcome"] == "FAILED" && $0["message"]?.stringValue?.contains("not reachable") == true })
        }
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let body: JSONValue
        let message: String
        var testDescription: String { message }
    }

    @Test(
        "bad input is refused in Firebase's words",
        arguments: [
            BadInput(
                body: ["functionUri": "f/x"], message: "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))"),
            BadInput(
                body: ["functionUri": "ftp://f.example/x"],
                message: "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))"),
            BadInput(body: ["functionUri": "https://f.example/x", "days": .number(0)], message: "INVALID_ARGUMENT : days must be between 1 and 30"),
            BadInput(body: ["functionUri": "https://f.example/x", "days": .number(31)], message: "INVALID_ARGUMENT : days must be between 1 and 30"),
            BadInput(
                body: ["functionUri": "https://f.example/x", "trigger": "beforeSendSms"],
                message: "INVALID_ARGUMENT : trigger must be beforeSignIn or beforeCreate"),
            BadInput(body: [:], message: "INVALID_ARGUMENT : functionUri is required: no beforeSignIn function is configured"),
        ])
    func badInput(_ bad: BadInput) async throws {
        try await withFlint { api in
            let reply = try await api.dryRun(bad.body)
            #expect(reply.status == .badRequest && reply.errorMessage == bad.message, "\(reply.text)")
            #expect(try await api.auditEvents("kind=BLOCKING_DRY_RUN").isEmpty)
        }
    }

    @Test("a caller without an admin credential is refused")
    func operatorsOnly() async throws {
        try await withFlint { api in
            let reply = try await api.postJSON(Path.dryRun, ["functionUri": "https://f.example/x"])
            #expect(reply.status == .unauthorized || reply.status == .forbidden, "\(reply.text)")
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}

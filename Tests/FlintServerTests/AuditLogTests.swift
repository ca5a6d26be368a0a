import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Audit log")
struct AuditLogTests {
    static let from: HTTPFields = [.xForwardedFor: "203.0.113.77"]

    @Test("a sign-in is one SIGN_IN event in its transaction, with method, address and the new account")
    func signIn() async throws {
        try await withFlint(configure: { $0.trustForwardedFor = true }) { api in
            let session = try await api.sendCode(alice, headers: Self.from)
            let code = try await api.pendingCode(for: alice)
            let user = try API.signedIn(try await api.post(Path.signIn, ["sessionInfo": session, "code": code], headers: Self.from))
            let events = try await api.auditEvents("uid=\(user.localId)")
            #expect(events.count == 1)
            let event = try #require(events.first)
            #expect(event["kind"] == "SIGN_IN")
            #expect(event["localId"]?.stringValue == user.localId)
            #expect(event["ip"] == "203.0.113.77")
            #expect(event["actor"] == nil)
            #expect(event["detail"] == ["method": "phone", "newUser": true, "result": "TOKENS"])
            #expect(event["eventTime"]?.stringValue?.hasSuffix("Z") == true)

            _ = try await api.signUp("pw@example.com", "password1")
            let link = try await api.signInWithEmailLink("link@example.com")
            #expect(try await api.auditEvents("uid=\(link.localId)").first?["detail"]?["method"] == "emailLink")
            let methods = try await api.auditEvents("kind=SIGN_IN").compactMap { $0["detail"]?["method"]?.stringValue }
            #expect(methods == ["emailLink", "password", "phone"], "newest first")
        }
    }

    @Test("failed sign-ins and the lockout that follows: the account when known, Firebase's error, one LOCKOUT per window")
    func failuresAndLockout() async throws {
        try await withFlint(configure: {
            $0.trustForwardedFor = true
            $0.passwordFailuresPerAccount = 2
        }) { api in
            let user = try await api.signUp("victim@example.com", "right-password")
            for _ in 0..<4 { _ = try await api.signInWithPassword("victim@example.com", "wrong-password", headers: Self.from) }
            _ = try await api.signInWithPassword("nobody@example.com", "wrong-password", headers: Self.from)
            let failures = try await api.auditEvents("kind=SIGN_IN_FAILED")
            #expect(failures.count == 5)
            let errors = failures.reversed().compactMap { $0["detail"]?["error"]?.stringValue }
            #expect(
                errors == [
                    "INVALID_LOGIN_CREDENTIALS", "INVALID_LOGIN_CREDENTIALS", "TOO_MANY_ATTEMPTS_TRY_LATER", "TOO_MANY_ATTEMPTS_TRY_LATER",
                    "INVALID_LOGIN_CREDENTIALS",
                ])
            #expect(failures.last?["localId"]?.stringValue == user.localId)
            #expect(failures.first?["localId"] == nil, "an unknown email has no account")
            #expect(failures.first?["detail"]?["method"] == "password")
            let lockouts = try await api.auditEvents("kind=LOCKOUT")
            #expect(lockouts.count == 1)
            #expect(lockouts.first?["detail"]?["limit"] == "pwfail:email:victim@example.com")
            #expect(lockouts.first?["detail"]?["max"] == .number(2))
        }
    }

    @Test("credential changes, revocation, MFA changes and deletion are recorded with the account")
    func accountEvents() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("owner@example.com")
            let enrolled = try API.signedIn(try await api.enrollPhone(user, "+16505550170"), localId: user.localId)
            let lookup = try await api.lookup(enrolled.idToken)
            let enrollmentID = try #require(lookup["users"]?.arrayValue?.first?["mfaInfo"]?.arrayValue?.first?["mfaEnrollmentId"]?.stringValue)
            let withdrawn = try await api.postJSON(Path.withdraw, ["idToken": enrolled.idToken, "mfaEnrollmentId": enrollmentID])
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            let fresh = try #require(withdrawn.string("idToken"))
            let changed = try await api.post(Path.update, ["idToken": fresh, "password": "new-password-1", "email": "new@example.com"])
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try await api.post(Path.delete, ["idToken": try #require(changed.string("idToken"))]).status == .ok)
            let kinds = try await api.auditKinds(of: user.localId)
            #expect(
                kinds == [
                    "SIGN_IN", "MFA_ENROLLED", "SESSIONS_REVOKED", "MFA_WITHDRAWN", "SESSIONS_REVOKED", "SESSIONS_REVOKED", "PASSWORD_CHANGED",
                    "EMAIL_CHANGED", "ACCOUNT_DELETED",
                ], "\(kinds)")
            let email = try await api.auditEvents("uid=\(user.localId)&kind=EMAIL_CHANGED").first
            #expect(email?["detail"] == ["from": "owner@example.com", "to": "new@example.com"])
        }
    }

    @Test("an email-link takeover of an unverified account records the revocation and the password it removed")
    func takeover() async throws {
        try await withFlint { api in
            let squatter = try await api.signUp("taken@example.com", "squatter-password")
            let owner = try await api.signInWithEmailLink("taken@example.com")
            #expect(owner.localId == squatter.localId)
            #expect(try await api.auditKinds(of: owner.localId) == ["SIGN_IN", "SESSIONS_REVOKED", "PASSWORD_CHANGED", "SIGN_IN"])
            let removed = try await api.auditEvents("uid=\(owner.localId)&kind=PASSWORD_CHANGED").first
            #expect(removed?["detail"] == ["removed": true])
        }
    }

    @Test("operator actions carry the credential's name; config changes their update mask")
    func operatorEvents() async throws {
        try await withFlint { api in
            let user = try await api.signUp("ops@example.com")
            let disabled = try await api.admin(
                .post, "\(Path.v1)/projects/\(project)/accounts:update", body: #"{"localId":"\#(user.localId)","disableUser":true}"#)
            #expect(disabled.status == .ok, "\(disabled.text)")
            try await api.patchConfig(#"{"flint":{"smsLimits":{"dailyBudget":50}}}"#, mask: "flint.smsLimits.dailyBudget")
            let actions = try await api.auditEvents("kind=ADMIN_ACTION")
            let update = try #require(actions.first { $0["detail"]?["path"]?.stringValue?.hasSuffix("accounts:update") == true })
            #expect(update["actor"] == "owner")
            #expect(update["localId"]?.stringValue == user.localId)
            #expect(update["detail"]?["status"] == .number(200))
            #expect(update["detail"]?["method"] == "POST")
            let revoked = try await api.auditEvents("uid=\(user.localId)&kind=SESSIONS_REVOKED")
            #expect(revoked.first?["actor"] == "owner", "the flow's own event names the operator too")
            let config = try #require(try await api.auditEvents("kind=CONFIG_CHANGED").first)
            #expect(config["detail"] == ["updateMask": ["flint.smsLimits.dailyBudget"]])
            #expect(config["actor"] == "owner")
            // A read is no action.
            _ = try await api.admin(.get, Path.config)
            #expect(try await api.auditEvents("kind=ADMIN_ACTION").count == actions.count)
        }
    }

    @Test("keyset pages, newest first, with filters; bad filters and callers refused")
    func paging() async throws {
        try await withFlint { api in
            for n in 0..<5 {
                _ = try await api.signUp("user\(n)@example.com")
                api.clock.advance(by: .seconds(1))
            }
            var seen: [String] = []
            var token: String?
            repeat {
                let reply = try await api.admin(.get, Path.auditEvents + "?kind=SIGN_IN&pageSize=2" + (token.map { "&pageToken=\($0)" } ?? ""))
                #expect(reply.status == .ok)
                let events = reply["auditEvents"]?.arrayValue ?? []
                #expect(events.count <= 2)
                seen += events.compactMap { $0["id"]?.stringValue }
                token = reply.string("nextPageToken")
            } while token != nil
            #expect(seen.count == 5)
            #expect(seen.compactMap { Int($0) } == seen.compactMap { Int($0) }.sorted(by: >), "newest first, no repeats")

            let all = try await api.auditEvents("kind=SIGN_IN")
            let times = all.compactMap { $0["atMillis"]?.stringValue }
            let middle = try #require(times.dropFirst(2).first)
            #expect(try await api.auditEvents("kind=SIGN_IN&since=\(middle)").count == 3)
            #expect(try await api.auditEvents("kind=SIGN_IN&until=\(middle)").count == 2)
            let rfc = try #require(all.dropFirst(2).first?["eventTime"]?.stringValue)
            #expect(try await api.auditEvents("kind=SIGN_IN&since=\(rfc)").count == 3)

            #expect(try await api.admin(.get, Path.auditEvents + "?kind=NOPE").status == .badRequest)
            #expect(try await api.admin(.get, Path.auditEvents + "?pageSize=0").status == .badRequest)
            #expect(try await api.admin(.get, Path.auditEvents + "?pageToken=garbage").errorCode == "INVALID_PAGE_SELECTION")
            #expect(try await api.admin(.get, Path.auditEvents + "?since=yesterday").status == .badRequest)
            #expect(try await api.call(.get, API.keyed(Path.auditEvents)).status == .forbidden)
            #expect(try await api.call(.get, Path.auditEvents).status == .unauthorized)
            #expect(try await api.admin(.get, "/flint/v1/projects/other/auditEvents").status == .notFound)
        }
    }

    @Test("events older than the retention are swept with the store")
    func retention() async throws {
        let node = try await TestNode.make { $0.auditRetention = .seconds(86_400) }
        let service = ReloadService(flows: node.server.flows, modules: node.server.modules)
        try await node.run { api in
            _ = try await api.signUp("old@example.com")
            api.clock.advance(by: .seconds(3600))
            _ = try await api.signUp("new@example.com")
            api.clock.advance(by: .seconds(86_400 - 1800))
            try await service.sweep()
            let left = try await api.auditEvents("kind=SIGN_IN")
            #expect(left.count == 1)
        }
    }

    @Test("no event holds a code, password, token or link")
    func noSecrets() async throws {
        try await withFlint { api in
            let session = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            _ = try await api.verify(session, code: code == "000000" ? "111111" : "000000")
            let user = try API.signedIn(try await api.verify(session, code: code))
            let pw = try await api.signUp("secret@example.com", "hunter2-password")
            _ = try await api.signInWithPassword("secret@example.com", "wrong-hunter3")
            let sent = try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "secret@example.com"])
            #expect(sent.status == .ok)
            let (oob, link) = try await api.oobCode(for: "secret@example.com")
            #expect(try await api.post(Path.resetPassword, ["oobCode": oob, "newPassword": "reset-password-9"]).status == .ok)
            let text = try await api.admin(.get, Path.auditEvents + "?pageSize=1000").text
            #expect(text.contains("PASSWORD_RESET"))
            // The code as a JSON string: its six digits alone may turn up inside a timestamp.
            for secret in [
                "\"\(code)\"", "hunter2-password", "wrong-hunter3", "reset-password-9", oob, link, user.idToken, user.refreshToken, pw.idToken,
                pw.refreshToken,
                session,
            ] {
                #expect(!text.contains(secret))
            }
        }
    }
}

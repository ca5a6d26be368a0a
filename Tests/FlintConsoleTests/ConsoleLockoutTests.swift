import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// The account lockout in the console: a locked account's page says until when and offers an unlock to operators who
/// may write; the users list marks it.
@Suite("The web console: locked accounts")
struct ConsoleLockoutTests {
    /// A node with an operator of `role` signed in and an account locked by five wrong passwords (the default policy).
    private func withLockedAccount(
        role: ConsoleRole, _ body: @escaping @Sendable (API, ConsoleOperator, SignedIn) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()], configure: { $0.passwordFailuresPerAccount = 1000 })
        try await node.run { api in
            let op = try await api.addOperator("Ops@Example.com", role: role, password: consoleTestPassword, store: node.store)
            let user = try await api.signUp("locked@example.com", "the-password")
            for _ in 0..<5 { _ = try await api.signInWithPassword("locked@example.com", "guess") }
            try await body(api, try await api.consoleSignIn(op, password: consoleTestPassword), user)
        }
    }

    @Test("an operator sees until when an account is locked, and unlocks it after confirming, with the CSRF token; audited")
    func unlock() async throws {
        try await withLockedAccount(role: .admin) { api, op, user in
            let until = RFC3339.format(api.clock.now() + .seconds(60))
            let page = try await api.console(.get, "/console/users/\(user.localId)", cookie: op.cookie)
            #expect(page.text.contains("Locked until \(until)"), "\(page.text)")
            #expect(page.text.contains(#"name="action" value="unlock""#))
            let list = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(list.text.contains(#"title="Locked until \#(until)">locked</span>"#), "\(list.text)")

            let path = "/console/users/\(user.localId)/actions"
            let forged = try await api.console(.post, path, form: ["action": "unlock", "confirmed": "yes"], cookie: op.cookie)
            #expect(forged.status == .forbidden)
            let confirm = try await api.console(.post, path, form: ["action": "unlock", "csrf": op.csrf], cookie: op.cookie)
            #expect(confirm.status == .ok && confirm.text.contains("Unlock the account \(user.localId)?"))
            #expect(try await api.signInWithPassword("locked@example.com", "the-password").errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let done = try await api.console(.post, path, form: ["action": "unlock", "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(done.status == .seeOther)
            let after = try await api.console(.get, "/console/users/\(user.localId)?done=unlock", cookie: op.cookie)
            #expect(!after.text.contains("Locked until") && !after.text.contains(#"value="unlock""#))
            #expect(try await api.signInWithPassword("locked@example.com", "the-password").status == .ok)
            let unlocked = try await api.auditEvents("kind=ACCOUNT_UNLOCKED&uid=\(user.localId)")
            #expect(unlocked.count == 1 && unlocked.first?["actor"]?.stringValue == "ops@example.com", "\(unlocked)")
        }
    }

    @Test("a read-only operator sees the lock but no unlock, and its unlock is refused with 403")
    func readOnly() async throws {
        try await withLockedAccount(role: .read) { api, op, user in
            let page = try await api.console(.get, "/console/users/\(user.localId)", cookie: op.cookie)
            #expect(page.text.contains("Locked until") && !page.text.contains("/actions"))
            let refused = try await api.console(
                .post, "/console/users/\(user.localId)/actions", form: ["action": "unlock", "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await api.signInWithPassword("locked@example.com", "the-password").errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }
}

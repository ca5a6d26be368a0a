import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// The account lockout (`flint.accountLockout`): failed password sign-ins in a row, from any client address, lock an
/// email address for a growing while, and operators see and lift the lock.
@Suite("account lockout")
struct AccountLockoutTests {
    static let locked =
        "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due to many failed login attempts. "
        + "You can immediately restore it by resetting your password or you can try again later."

    /// Runs `body` against a node on a fresh `engine` store whose lockout is `section`, with the per-address window
    /// limits out of the way and client addresses taken from `X-Forwarded-For`.
    private func withNode(_ engine: StoreEngine, lockout section: String?, _ body: @escaping @Sendable (API) async throws -> Void) async throws {
        let configure: (inout ServerSettings) -> Void = { settings in
            settings.passwordHashParameters = PasswordHashParameters(logN: 10)
            settings.passwordFailuresPerAccount = 1000
            settings.trustForwardedFor = true
        }
        try await engine.serve(try await engine.freshLocation(), configure: configure) { api in
            if let section { try await api.patchConfig(#"{"flint":{"accountLockout":\#(section)}}"#, mask: "flint.accountLockout") }
            try await body(api)
        }
    }

    /// A client address of its own for try `i`.
    static func from(_ i: Int) -> HTTPFields { [HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(i % 250 + 1)"] }

    static let policy = #"{"maxFailures":3,"lockSeconds":60,"maxLockSeconds":300}"#

    @Test(
        "failures in a row from many addresses lock the address, longer after each; the right password signs in once it ends",
        arguments: StoreEngine.all)
    func locksAndGrows(engine: StoreEngine) async throws {
        try await withNode(engine, lockout: Self.policy) { api in
            let user = try await api.signUp("target@example.com", "the-password")
            for i in 0..<3 {
                #expect(
                    try await api.signInWithPassword("target@example.com", "guess", headers: Self.from(i)).errorCode == "INVALID_LOGIN_CREDENTIALS")
            }
            // Locked: even the right password is refused, in Firebase's words.
            #expect(try await api.signInWithPassword("target@example.com", "the-password", headers: Self.from(9)).errorMessage == Self.locked)
            api.clock.advance(by: .seconds(59))
            #expect(try await api.signInWithPassword("target@example.com", "the-password", headers: Self.from(10)).errorMessage == Self.locked)
            api.clock.advance(by: .seconds(1))
            // The fourth failure in a row locks for twice as long; the refused tries did not count.
            #expect(try await api.signInWithPassword("target@example.com", "guess", headers: Self.from(11)).errorCode == "INVALID_LOGIN_CREDENTIALS")
            api.clock.advance(by: .seconds(119))
            #expect(try await api.signInWithPassword("target@example.com", "the-password", headers: Self.from(12)).errorMessage == Self.locked)
            api.clock.advance(by: .seconds(1))
            #expect(try await api.signInWithPassword("target@example.com", "the-password", headers: Self.from(13)).status == .ok)
            // The sign-in forgot the failures: two more lock nothing.
            for i in 0..<2 { _ = try await api.signInWithPassword("target@example.com", "guess", headers: Self.from(20 + i)) }
            #expect(try await api.signInWithPassword("target@example.com", "the-password").status == .ok)

            let locks = try await api.auditEvents("kind=ACCOUNT_LOCKED")
            #expect(locks.count == 2)
            #expect(locks.allSatisfy { $0["localId"]?.stringValue == user.localId && $0["detail"]?["email"]?.stringValue == "target@example.com" })
            #expect(locks.first?["detail"]?["failures"] == .number(4))
        }
    }

    @Test("an address without an account is answered exactly as one with an account, locked or not", arguments: StoreEngine.all)
    func noEnumeration(engine: StoreEngine) async throws {
        try await withNode(engine, lockout: Self.policy) { api in
            _ = try await api.signUp("real@example.com", "the-password")
            for email in ["real@example.com", "ghost@example.com"] {
                var answers: [String?] = []
                for i in 0..<4 { answers.append(try await api.signInWithPassword(email, "guess", headers: Self.from(i)).errorMessage) }
                #expect(answers == ["INVALID_LOGIN_CREDENTIALS", "INVALID_LOGIN_CREDENTIALS", "INVALID_LOGIN_CREDENTIALS", Self.locked], "\(email)")
            }
            let locked = try await api.auditEvents("kind=ACCOUNT_LOCKED")
            #expect(Set(locked.compactMap { $0["detail"]?["email"]?.stringValue }) == ["real@example.com", "ghost@example.com"])
        }
    }

    @Test("an operator sees the lock and lifts it through the admin API; the unlock is audited", arguments: StoreEngine.all)
    func operatorUnlock(engine: StoreEngine) async throws {
        try await withNode(engine, lockout: Self.policy) { api in
            let user = try await api.signUp("lift@example.com", "the-password")
            let path = "/flint/v1/projects/\(project)/accounts/\(user.localId)/lock"
            let before = try await api.admin(.get, path)
            #expect(before.status == .ok && before["locked"] == .bool(false) && before["lockedUntil"] == nil, "\(before.text)")
            for i in 0..<3 { _ = try await api.signInWithPassword("lift@example.com", "guess", headers: Self.from(i)) }
            let held = try await api.admin(.get, path)
            #expect(held["locked"] == .bool(true) && held["failures"] == .number(3), "\(held.text)")
            #expect(held.string("lockedUntil") == RFC3339.format(api.clock.now() + .seconds(60)))

            let lifted = try await api.admin(.delete, path)
            #expect(lifted.status == .ok && lifted["locked"] == .bool(true), "\(lifted.text)")
            #expect(try await api.admin(.get, path)["locked"] == .bool(false))
            #expect(try await api.signInWithPassword("lift@example.com", "the-password").status == .ok)
            // Lifting an account that is not locked changes and records nothing.
            #expect(try await api.admin(.delete, path)["locked"] == .bool(false))
            let unlocks = try await api.auditEvents("kind=ACCOUNT_UNLOCKED")
            #expect(unlocks.count == 1 && unlocks.first?["localId"]?.stringValue == user.localId, "\(unlocks)")
            #expect(try await api.admin(.get, "/flint/v1/projects/\(project)/accounts/nobody/lock").errorMessage == "USER_NOT_FOUND")
            #expect(try await api.call(.get, path).status == .unauthorized)
            #expect(try await api.call(.delete, API.keyed(path)).status == .forbidden)
        }
    }

    @Test("the command line's unlock (UserConsole) lifts a lock as the actor cli")
    func commandLineUnlock() async throws {
        let node = try await TestNode.make(configure: { $0.passwordFailuresPerAccount = 1000 })
        try await node.run { api in
            try await api.patchConfig(#"{"flint":{"accountLockout":\#(Self.policy)}}"#, mask: "flint.accountLockout")
            let user = try await api.signUp("cli@example.com", "the-password")
            for _ in 0..<3 { _ = try await api.signInWithPassword("cli@example.com", "guess") }
            let console = UserConsole(flows: node.server.flows)
            #expect(try await console.lock(user.localId)["locked"] == .bool(true))
            let was = try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) { try await console.unlock(user.localId) }
            #expect(was["locked"] == .bool(true))
            #expect(try await api.signInWithPassword("cli@example.com", "the-password").status == .ok)
            #expect(try await api.auditEvents("kind=ACCOUNT_UNLOCKED").first?["actor"]?.stringValue == "cli")
        }
    }

    @Test("a password reset lifts the lock, as Firebase's refusal says")
    func resetLifts() async throws {
        try await withFlint(configure: { $0.passwordFailuresPerAccount = 1000 }) { api in
            try await api.patchConfig(#"{"flint":{"accountLockout":\#(Self.policy)}}"#, mask: "flint.accountLockout")
            _ = try await api.signUp("reset@example.com", "old-password")
            for _ in 0..<3 { _ = try await api.signInWithPassword("reset@example.com", "guess") }
            #expect(try await api.signInWithPassword("reset@example.com", "old-password").errorMessage == Self.locked)
            #expect(try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "reset@example.com"]).status == .ok)
            let (code, _) = try await api.oobCode(for: "reset@example.com")
            #expect(try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": "new-password"]).status == .ok)
            #expect(try await api.signInWithPassword("reset@example.com", "new-password").status == .ok)
        }
    }

    @Test("turned off, failures in a row lock nothing")
    func off() async throws {
        try await withFlint(configure: { $0.passwordFailuresPerAccount = 1000 }) { api in
            try await api.patchConfig(#"{"flint":{"accountLockout":{"enabled":false}}}"#, mask: "flint.accountLockout")
            _ = try await api.signUp("free@example.com", "the-password")
            for _ in 0..<8 { #expect(try await api.signInWithPassword("free@example.com", "guess").errorCode == "INVALID_LOGIN_CREDENTIALS") }
            #expect(try await api.signInWithPassword("free@example.com", "the-password").status == .ok)
            #expect(try await api.auditEvents("kind=ACCOUNT_LOCKED").isEmpty)
        }
    }

    @Test("by default five failures in a row lock for a minute")
    func defaults() async throws {
        try await withFlint(configure: { $0.passwordFailuresPerAccount = 1000 }) { api in
            _ = try await api.signUp("default@example.com", "the-password")
            for _ in 0..<5 { _ = try await api.signInWithPassword("default@example.com", "guess") }
            #expect(try await api.signInWithPassword("default@example.com", "the-password").errorMessage == Self.locked)
            api.clock.advance(by: .seconds(60))
            #expect(try await api.signInWithPassword("default@example.com", "the-password").status == .ok)
        }
    }
}

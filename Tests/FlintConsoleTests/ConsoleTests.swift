import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The web console")
struct ConsoleTests {
    static let password = "correct horse battery"

    /// A node with an admin operator set up, for `body`.
    private func withConsole(
        role: ConsoleRole = .admin, _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.addOperator("Ops@Example.com", role: role, password: Self.password, store: node.store)
            try await body(api, op, node)
        }
    }

    @Test("an operator signs in with password and TOTP code; pages carry a strict CSP; the sign-in is audited with its email")
    func signInWithTOTP() async throws {
        try await withConsole { api, op, _ in
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let page = try await api.console(.get, "/console/users", cookie: signedIn.cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("ops@example.com · admin"))
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'none'"))
            #expect(page.headers[.cacheControl] == "no-store")
            let events = try await api.auditEvents("kind=CONSOLE_SIGN_IN")
            #expect(events.first?["actor"]?.stringValue == "ops@example.com")
            // Over plain http (dev) the cookie has no `Secure` and so no `__Host-` prefix; it is HttpOnly and SameSite=Strict.
            #expect(signedIn.cookie.hasPrefix("flint_console="))
        }
    }

    @Test("the same TOTP code is not accepted twice, and a wrong code is refused")
    func codeReplay() async throws {
        try await withConsole { api, op, _ in
            _ = try await api.consoleSignIn(op, password: Self.password)
            let first = try await api.consolePassword(op.email, Self.password)
            let pending = try #require(API.cookie(first))
            let page = try await api.console(.get, "/console/sign-in/totp", cookie: pending)
            let csrf = try #require(API.field(page.text, after: #"name="csrf" value=""#, until: "\""))
            let replay = try await api.console(
                .post, "/console/sign-in/totp", form: ["csrf": csrf, "code": api.totpCode(op.secret)], cookie: pending)
            #expect(replay.status == .unauthorized)
            let wrong = try await api.console(.post, "/console/sign-in/totp", form: ["csrf": csrf, "code": "000000"], cookie: pending)
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test(
        "a console request without a session is sent to the sign-in page",
        arguments: ["/console/dashboard", "/console/users", "/console/deliveries", "/console/security"])
    func noSession(path: String) async throws {
        try await withFlint(modules: [ConsoleModule()]) { api in
            let reply = try await api.console(.get, path)
            #expect(reply.status == .seeOther && reply.headers[.location] == "/console/sign-in")
            let forged = try await api.console(.get, path, cookie: "flint_console=forged")
            #expect(forged.status == .seeOther && forged.headers[.location] == "/console/sign-in")
            let post = try await api.console(.post, "/console/users/x/actions", form: ["action": "delete", "confirmed": "yes"])
            #expect(post.status == .seeOther && post.headers[.location] == "/console/sign-in")
        }
    }

    @Test("a POST without the session's CSRF token is refused and changes nothing")
    func csrfRequired() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505550101")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            for form in [["action": "disable", "confirmed": "yes"], ["action": "disable", "confirmed": "yes", "csrf": "wrong"]] {
                let reply = try await api.console(.post, "/console/users/\(user.localId)/actions", form: form, cookie: signedIn.cookie)
                #expect(reply.status == .forbidden)
            }
            #expect(try await api.refresh(user.refreshToken).status == .ok)
        }
    }

    @Test("a read-only operator sees no action and its write is refused with 403")
    func readOnly() async throws {
        try await withConsole(role: .read) { api, op, _ in
            let user = try await api.signIn("+16505550102")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let page = try await api.console(.get, "/console/users/\(user.localId)", cookie: signedIn.cookie)
            #expect(page.status == .ok && !page.text.contains("/actions"))
            let reply = try await api.console(
                .post, "/console/users/\(user.localId)/actions", form: ["action": "disable", "confirmed": "yes", "csrf": signedIn.csrf],
                cookie: signedIn.cookie)
            #expect(reply.status == .forbidden)
            #expect(try await api.refresh(user.refreshToken).status == .ok)
        }
    }

    @Test("five failures lock the operator out for 15 minutes, the right password too, and each is audited")
    func lockout() async throws {
        try await withConsole { api, op, _ in
            for _ in 0..<5 { #expect(try await api.consolePassword(op.email, "wrong password!").status == .unauthorized) }
            let locked = try await api.consolePassword(op.email, Self.password)
            #expect(locked.status == .unauthorized && locked.text.contains("Too many failed attempts"))
            let failures = try await api.auditEvents("kind=CONSOLE_SIGN_IN_FAILED")
            #expect(failures.count == 6)
            #expect(failures.first?["detail"]?["step"]?.stringValue == "locked")
            api.clock.advance(by: .seconds(15 * 60))
            _ = try await api.consoleSignIn(op, password: Self.password)
        }
    }

    @Test("what a user chose (a display name with markup) is escaped on the users list and the user page")
    func escaping() async throws {
        try await withConsole { api, op, _ in
            let name = #"<script>alert("x")</script>"#
            let uid = try await api.adminCreate(["localId": "u-markup", "displayName": .string(name)])
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            for path in ["/console/users?q=u-markup", "/console/users/\(uid)"] {
                let page = try await api.console(.get, path, cookie: signedIn.cookie)
                #expect(page.status == .ok && page.text.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), "\(path)")
                #expect(!page.text.contains("<script"), "\(path)")
            }
        }
    }

    @Test("absent values show a dash, never Swift's nil; events without an account have no link")
    func absentValues() async throws {
        try await withConsole { api, op, _ in
            let uid = try await api.adminCreate(["localId": "u-bare"])
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let page = try await api.console(.get, "/console/users/\(uid)", cookie: signedIn.cookie)
            #expect(page.status == .ok && !page.text.contains("nil"), "\(page.text)")
            for label in ["Email", "Phone", "Display name"] {
                #expect(page.text.contains("<dt>\(label)</dt><dd>—</dd>"), "\(label)")
            }
            let events = try await api.console(.get, "/console/security?kind=CONSOLE_SIGN_IN", cookie: signedIn.cookie)
            #expect(events.status == .ok && events.text.contains("CONSOLE_SIGN_IN"))
            #expect(!events.text.contains(#"href="/console/users/""#), "\(events.text)")
        }
    }

    @Test("a session ends after 30 minutes without a request, and at once when signed out")
    func idleTimeout() async throws {
        try await withConsole { api, op, _ in
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            api.clock.advance(by: .seconds(29 * 60))
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .ok)
            api.clock.advance(by: .seconds(29 * 60))
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .ok)
            api.clock.advance(by: .seconds(31 * 60))
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .seeOther)

            api.clock.advance(by: .seconds(30))
            let again = try await api.consoleSignIn(op, password: Self.password)
            let out = try await api.console(.post, "/console/sign-out", form: ["csrf": again.csrf], cookie: again.cookie)
            #expect(out.status == .seeOther && out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await api.console(.get, "/console/users", cookie: again.cookie).status == .seeOther)
        }
    }

    @Test("an operator finds a user by phone in another format, disables them after confirming (their refresh fails), audited")
    func disable() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505550103")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let found = try await api.console(.get, "/console/users?q=001+%28650%29+555-0103", cookie: signedIn.cookie)
            #expect(found.text.contains("/console/users/\(user.localId)"))
            let path = "/console/users/\(user.localId)/actions"
            let confirm = try await api.console(.post, path, form: ["action": "disable", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(confirm.status == .ok && confirm.text.contains(#"name="confirmed" value="yes""#))
            #expect(try await api.refresh(user.refreshToken).status == .ok)
            let done = try await api.console(
                .post, path, form: ["action": "disable", "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(done.status == .seeOther)
            #expect(try await api.refresh(user.refreshToken).errorCode == "USER_DISABLED")
            let action = try await api.auditEvents("kind=ADMIN_ACTION&uid=\(user.localId)")
            #expect(action.first?["actor"]?.stringValue == "ops@example.com")
            #expect(action.first?["detail"]?["action"]?.stringValue == "disable")
        }
    }

    @Test("with a default phone region, a number written nationally finds its user; without one it finds nothing, and the hint says so")
    func nationalSearch() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505553434")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let path = "/console/users?q=%28650%29+555-3434"
            let without = try await api.console(.get, path, cookie: signedIn.cookie)
            #expect(!without.text.contains("/console/users/\(user.localId)") && without.text.contains("set a default phone region"))
            try await api.patchConfig(#"{"flint":{"defaultPhoneRegion":"us"}}"#, mask: "flint.defaultPhoneRegion")
            let found = try await api.console(.get, path, cookie: signedIn.cookie)
            #expect(
                found.text.contains("/console/users/\(user.localId)") && found.text.contains("US (the project's default phone region)"),
                "\(found.text)")
            let international = try await api.console(.get, "/console/users?q=%2B1+650+555+3434", cookie: signedIn.cookie)
            #expect(international.text.contains("/console/users/\(user.localId)"))
        }
    }

    @Test("claims are checked by the admin API's rules; valid ones reach the next ID token")
    func claims() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505550104")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let path = "/console/users/\(user.localId)/actions"
            let bad = try await api.console(
                .post, path, form: ["action": "claims", "claims": #"{"iss":"x"}"#, "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie
            )
            #expect(bad.status == .badRequest && bad.text.contains("FORBIDDEN_CLAIM"))
            let good = try await api.console(
                .post, path, form: ["action": "claims", "claims": #"{"role":"editor"}"#, "confirmed": "yes", "csrf": signedIn.csrf],
                cookie: signedIn.cookie)
            #expect(good.status == .seeOther)
            let refreshed = try await api.refresh(user.refreshToken)
            let token = try #require(refreshed.string("id_token"))
            #expect(try JWT.part(token, 1)["role"]?.stringValue == "editor")
        }
    }

    @Test("removing a second factor keeps the others; revoking ends sessions; deleting removes the account — each audited")
    func factorsRevokeDelete() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505550105")
            let two: JSONValue = [
                "localId": .string(user.localId),
                "mfa": [
                    "enrollments": [["mfaEnrollmentId": "f1", "phoneInfo": "+16505550001"], ["mfaEnrollmentId": "f2", "phoneInfo": "+16505550002"]]
                ],
            ]
            #expect(try await api.admin(Path.adminUpdate, two).status == .ok)
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let path = "/console/users/\(user.localId)/actions"
            func run(_ form: [String: String]) async throws -> Reply {
                try await api.console(
                    .post, path, form: form.merging(["confirmed": "yes", "csrf": signedIn.csrf]) { a, _ in a }, cookie: signedIn.cookie)
            }
            #expect(try await run(["action": "removeFactor", "factor": "f1"]).status == .seeOther)
            let kept = try #require(try await api.adminAccount(user.localId)?["mfaInfo"]?.arrayValue)
            #expect(kept.compactMap { $0["mfaEnrollmentId"]?.stringValue } == ["f2"])
            #expect(try await run(["action": "removeFactor", "factor": "nope"]).status == .badRequest)

            let again = try await api.signIn("+16505550106")
            let revokePath = "/console/users/\(again.localId)/actions"
            let revoked = try await api.console(
                .post, revokePath, form: ["action": "revoke", "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(revoked.status == .seeOther)
            #expect(try await api.refresh(again.refreshToken).errorCode == "TOKEN_EXPIRED")

            let deleted = try await api.console(
                .post, revokePath, form: ["action": "delete", "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/console/users?deleted=\(again.localId)")
            #expect(try await api.adminAccount(again.localId) == nil)
            let gone = try await api.auditEvents("kind=ACCOUNT_DELETED&uid=\(again.localId)")
            #expect(gone.first?["actor"]?.stringValue == "ops@example.com")
            let actions = try await api.auditEvents("kind=ADMIN_ACTION")
            #expect(Set(actions.compactMap { $0["detail"]?["action"]?.stringValue }) == ["removeFactor", "revoke", "delete"])
        }
    }

    @Test("a reset operator's sessions end, its password stops working, and its new setup link works")
    func reset() async throws {
        try await withConsole { api, op, node in
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let token = try await ConsoleOperators.reset(
                email: "OPS@example.com", in: node.store, now: api.clock.now(), random: SystemRandom())
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .seeOther)
            #expect(try await api.consolePassword(op.email, Self.password).status == .unauthorized)
            #expect(try await api.console(.get, ConsoleOperators.setupPath(token: token)).status == .ok)
            await #expect(throws: StoreError.notFound) {
                try await ConsoleOperators.reset(email: "nobody@example.com", in: node.store, now: 1, random: SystemRandom())
            }
        }
    }

    @Test("a removed operator's sessions end; the last admin operator is neither removed nor demoted")
    func remove() async throws {
        try await withConsole { api, op, node in
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            await #expect(throws: ConsoleOperators.Refusal.lastAdmin) {
                try await ConsoleOperators.remove(email: op.email, in: node.store, now: api.clock.now())
            }
            await #expect(throws: ConsoleOperators.Refusal.lastAdmin) {
                try await ConsoleOperators.setRole(email: op.email, role: .read, in: node.store, now: api.clock.now())
            }
            await #expect(throws: StoreError.notFound) {
                try await ConsoleOperators.remove(email: "nobody@example.com", in: node.store, now: api.clock.now())
            }
            await #expect(throws: StoreError.notFound) {
                try await ConsoleOperators.setRole(email: "nobody@example.com", role: .admin, in: node.store, now: api.clock.now())
            }
            _ = try await ConsoleOperators.add(
                email: "second@example.com", role: .admin, in: node.store, now: api.clock.now(), random: SystemRandom())
            #expect(try await ConsoleOperators.remove(email: "OPS@example.com", in: node.store, now: api.clock.now()) == 1)
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .seeOther)
            #expect(try await api.consolePassword(op.email, Self.password).status == .unauthorized)
            let events = try await api.auditEvents("kind=CONSOLE_OPERATOR_CHANGED")
            let removed = try #require(events.first { $0["detail"]?["step"]?.stringValue == "removed" })
            #expect(removed["actor"]?.stringValue == "cli" && removed["detail"]?["operator"]?.stringValue == "ops@example.com")
        }
    }

    @Test("a demoted operator's session stays and is refused actions from its next request; promoted, it may act again")
    func role() async throws {
        try await withConsole { api, op, node in
            _ = try await ConsoleOperators.add(
                email: "second@example.com", role: .admin, in: node.store, now: api.clock.now(), random: SystemRandom())
            let user = try await api.signUp("member@example.com")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let revokePath = "/console/users/\(user.localId)/actions"
            #expect(try await ConsoleOperators.setRole(email: op.email, role: .read, in: node.store, now: api.clock.now()) == .admin)
            #expect(try await api.console(.get, "/console/users", cookie: signedIn.cookie).status == .ok, "the session stays")
            let refused = try await api.console(
                .post, revokePath, form: ["action": "revoke", "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await ConsoleOperators.setRole(email: op.email, role: .read, in: node.store, now: api.clock.now()) == .read)
            #expect(try await ConsoleOperators.setRole(email: op.email, role: .admin, in: node.store, now: api.clock.now()) == .read)
            let allowed = try await api.console(
                .post, revokePath, form: ["action": "revoke", "confirmed": "yes", "csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(allowed.status == .seeOther)
            let changes = try await api.auditEvents("kind=CONSOLE_OPERATOR_CHANGED")
                .filter { $0["detail"]?["step"]?.stringValue == "roleChanged" }
            #expect(changes.count == 2, "an unchanged role writes no event")
            #expect(changes.allSatisfy { $0["actor"]?.stringValue == "cli" })
        }
    }

    @Test("password-reset and verification emails go out through the operator's sendOobCode, audited")
    func emails() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signUp("reader@example.com")
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let page = try await api.console(.get, "/console/users/\(user.localId)", cookie: signedIn.cookie)
            #expect(page.text.contains("Send password reset") && page.text.contains("Send verification"))
            for action in ["sendPasswordReset", "sendVerification"] {
                let reply = try await api.console(
                    .post, "/console/users/\(user.localId)/actions", form: ["action": action, "confirmed": "yes", "csrf": signedIn.csrf],
                    cookie: signedIn.cookie)
                #expect(reply.status == .seeOther, "\(reply.text)")
            }
            let sent = try await api.outbox().filter { $0["to"]?.stringValue == "reader@example.com" }.compactMap { $0["requestType"]?.stringValue }
            #expect(Set(sent) == ["PASSWORD_RESET", "VERIFY_EMAIL"])
            let actions = try await api.auditEvents("kind=ADMIN_ACTION&uid=\(user.localId)")
            #expect(actions.compactMap { $0["detail"]?["action"]?.stringValue } == ["sendVerification", "sendPasswordReset"])
        }
    }

    @Test("the keys page lists the signing keys; a confirmed rotation schedules a new key that signs from its activation, audited")
    func rotate() async throws {
        try await withConsole { api, op, _ in
            let user = try await api.signIn("+16505550107")
            let before = try #require(try JWT.part(user.idToken, 0)["kid"]?.stringValue)
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let page = try await api.console(.get, "/console/keys", cookie: signedIn.cookie)
            #expect(page.status == .ok && page.text.contains(before) && page.text.contains("active"))
            let confirm = try await api.console(.post, "/console/keys", form: ["csrf": signedIn.csrf], cookie: signedIn.cookie)
            #expect(confirm.text.contains(#"name="confirmed" value="yes""#))
            let done = try await api.console(.post, "/console/keys", form: ["csrf": signedIn.csrf, "confirmed": "yes"], cookie: signedIn.cookie)
            #expect(done.status == .seeOther)
            let listed = try await api.console(.get, "/console/keys", cookie: signedIn.cookie)
            #expect(listed.text.contains("scheduled, published"))
            let soon = try await api.refresh(user.refreshToken)
            #expect(try JWT.part(try #require(soon.string("id_token")), 0)["kid"]?.stringValue == before, "the old key signs until then")
            #expect(try await api.auditEvents("kind=ADMIN_ACTION").first?["detail"]?["action"]?.stringValue == "rotateKeys")
            api.clock.advance(by: .seconds(3930))
            let refreshed = try await api.refresh(user.refreshToken)
            let after = try JWT.part(try #require(refreshed.string("id_token")), 0)["kid"]?.stringValue
            #expect(after != nil && after != before)
        }
    }

    @Test("fictional numbers are added and removed through the config API's rules; a sign-in with one works")
    func testNumbers() async throws {
        try await withConsole { api, op, _ in
            let signedIn = try await api.consoleSignIn(op, password: Self.password)
            let path = "/console/settings/test-numbers"
            let bad = try await api.console(
                .post, path, form: ["csrf": signedIn.csrf, "number": "+1 650 555 0100", "code": "12"], cookie: signedIn.cookie)
            #expect(bad.status == .badRequest && bad.text.contains("must be 6 digits"))
            let added = try await api.console(
                .post, path, form: ["csrf": signedIn.csrf, "number": "+1 650 555 0100", "code": "123456"], cookie: signedIn.cookie)
            #expect(added.status == .seeOther)
            let sessionInfo = try await api.sendCode("+16505550100")
            #expect(try await api.verify(sessionInfo, code: "123456").status == .ok)
            #expect(try await api.auditEvents("kind=CONFIG_CHANGED").first?["actor"]?.stringValue == "ops@example.com")
            let removed = try await api.console(.post, path, form: ["csrf": signedIn.csrf, "remove": "+16505550100"], cookie: signedIn.cookie)
            #expect(removed.status == .seeOther)
            let page = try await api.console(.get, "/console/settings", cookie: signedIn.cookie)
            #expect(!page.text.contains("+16505550100"))
        }
    }

    @Test("over https the cookie is __Host- prefixed and Secure")
    func secureCookie() async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()]) { $0.publicURL = "https://auth.example.com" }
        let flow = ConsoleModule.flow(node.server.flows)
        #expect(flow.cookieName == "__Host-flint_console")
        #expect(flow.setCookie("t") == "__Host-flint_console=t; Path=/; HttpOnly; SameSite=Strict; Secure")
        try await node.store.close()
    }
}

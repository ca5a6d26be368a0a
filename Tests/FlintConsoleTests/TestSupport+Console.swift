import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

/// A console operator in a test: its email and TOTP secret, and the cookie of its signed-in session.
struct ConsoleOperator: Sendable {
    let email: String
    let secret: [UInt8]
    var cookie: String = ""
    var csrf: String = ""
}

extension API {
    /// The current TOTP code of `secret` on the test clock.
    func totpCode(_ secret: [UInt8]) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: clock.now().secondsSince1970, period: 30), parameters: TOTPParameters())
    }

    /// A console request carrying `cookie`; `form` is sent urlencoded.
    func console(_ method: HTTPRequest.Method, _ path: String, form: [String: String]? = nil, cookie: String = "") async throws -> Reply {
        var headers: HTTPFields = [:]
        if !cookie.isEmpty { headers[.cookie] = cookie }
        let body = form.map { $0.map { "\($0.key)=\(ConsoleRoutes.encode($0.value))" }.joined(separator: "&") }
        return try await call(method, path, body: body, contentType: "application/x-www-form-urlencoded", headers: headers)
    }

    /// Adds an operator in the store and completes its setup page: a password and a TOTP secret read from the page.
    func addOperator(_ email: String, role: ConsoleRole = .admin, password: String, store: any AuthStore) async throws -> ConsoleOperator {
        let token = try await ConsoleOperators.add(
            email: email, role: role, in: store, now: clock.now(), random: SystemRandom())
        let page = try await console(.get, ConsoleOperators.setupPath(token: token))
        #expect(page.status == .ok, "\(page.text)")
        let secretText = try #require(Self.field(page.text, after: #"id="secret">"#, until: "<"))
        let secret = try #require(Base32.decode(secretText))
        let sealed = try #require(Self.field(page.text, after: #"name="sealed" value=""#, until: "\""))
        let done = try await console(
            .post, "/console/setup",
            form: ["token": token, "sealed": sealed, "password": password, "confirmation": password, "code": totpCode(secret)])
        #expect(done.status == .ok && done.text.contains("Setup complete"), "\(done.text)")
        // The next sign-in needs a code of a later step than the one setup spent.
        clock.advance(by: .seconds(30))
        return ConsoleOperator(email: email, secret: secret)
    }

    /// The password step: the answer (a redirect to the TOTP step, with the pending session's cookie, when it passed).
    func consolePassword(_ email: String, _ password: String) async throws -> Reply {
        try await console(.post, "/console/sign-in", form: ["email": email, "password": password])
    }

    /// Both sign-in steps; the operator with its session cookie and CSRF token.
    func consoleSignIn(_ op: ConsoleOperator, password: String) async throws -> ConsoleOperator {
        let first = try await consolePassword(op.email, password)
        #expect(first.status == .seeOther && first.headers[.location] == "/console/sign-in/totp", "\(first.text)")
        let pending = try #require(Self.cookie(first))
        let page = try await console(.get, "/console/sign-in/totp", cookie: pending)
        let csrf = try #require(Self.field(page.text, after: #"name="csrf" value=""#, until: "\""))
        let second = try await console(.post, "/console/sign-in/totp", form: ["csrf": csrf, "code": totpCode(op.secret)], cookie: pending)
        #expect(second.status == .seeOther && second.headers[.location] == "/console/dashboard", "\(second.text)")
        var signedIn = op
        signedIn.cookie = try #require(Self.cookie(second))
        let users = try await console(.get, "/console/users", cookie: signedIn.cookie)
        signedIn.csrf = try #require(Self.field(users.text, after: #"name="csrf" value=""#, until: "\""))
        return signedIn
    }

    /// The `name=value` pair of the answer's `Set-Cookie`.
    static func cookie(_ reply: Reply) -> String? {
        reply.headers[.setCookie].flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    /// The text between `marker` and the next `end` in `text`.
    static func field(_ text: String, after marker: String, until end: Character) -> String? {
        guard let start = text.range(of: marker)?.upperBound else { return nil }
        return String(text[start...].prefix { $0 != end })
    }
}

/// The password of the operator ``withConsoleOperator(role:_:)`` signs in.
let consoleTestPassword = "correct horse battery"

/// A node with a signed-in console operator of `role`, for `body`.
func withConsoleOperator(role: ConsoleRole = .admin, _ body: @escaping @Sendable (API, ConsoleOperator) async throws -> Void) async throws {
    let node = try await TestNode.make(modules: [ConsoleModule()])
    try await node.run { api in
        let op = try await api.addOperator("Ops@Example.com", role: role, password: consoleTestPassword, store: node.store)
        try await body(api, try await api.consoleSignIn(op, password: consoleTestPassword))
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("Console: an account's sessions and the session lifetimes")
struct ConsoleSessionsTests {
    static let safari: HTTPFields = [
        .userAgent:
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"
    ]

    @Test("the user page lists sessions; ending one is confirmed, CSRF-checked, refuses its refresh and is audited")
    func endOne() async throws {
        try await withConsoleOperator { api, op in
            _ = try await api.signUp("ada@example.com")
            let mac = try API.signedIn(try await api.signInWithPassword("ada@example.com", "correct horse", headers: Self.safari))
            let session = try #require(try JWT.payload(mac.idToken)["firebase"]?["session_id"]?.stringValue)
            let page = try await api.console(.get, "/console/users/\(mac.localId)", cookie: op.cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("<h2>Sessions</h2>") && page.text.contains("Safari on Mac") && page.text.contains("password"))
            #expect(page.text.contains(#"name="session" value="\#(session)""#))

            let path = "/console/users/\(mac.localId)/actions"
            let ask = try await api.console(.post, path, form: ["action": "endSession", "session": session, "csrf": op.csrf], cookie: op.cookie)
            #expect(ask.status == .ok && ask.text.contains("End a session"))
            #expect(ask.text.contains(#"<input type="hidden" name="session" value="\#(session)">"#))
            let forged = try await api.console(
                .post, path, form: ["action": "endSession", "session": session, "confirmed": "yes", "csrf": "forged"], cookie: op.cookie)
            #expect(forged.status == .forbidden)
            #expect(try await api.refresh(mac.refreshToken).status == .ok)
            let done = try await api.console(
                .post, path, form: ["action": "endSession", "session": session, "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(done.status == .seeOther && done.headers[.location] == "/console/users/\(mac.localId)?done=endSession")
            #expect(try await api.refresh(mac.refreshToken).errorCode == "TOKEN_EXPIRED")
            let ended = try await api.auditEvents("kind=SESSION_ENDED&uid=\(mac.localId)").first
            #expect(ended?["actor"]?.stringValue == "ops@example.com" && ended?["detail"]?["by"] == "operator")
            #expect(try await api.auditEvents("kind=ADMIN_ACTION&uid=\(mac.localId)").first?["detail"]?["session"]?.stringValue == session)
        }
    }

    @Test("a read-only operator sees the sessions and the lifetimes but can end or change neither")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            let user = try await api.signUp("ada@example.com")
            let page = try await api.console(.get, "/console/users/\(user.localId)", cookie: op.cookie)
            #expect(page.text.contains("<h2>Sessions</h2>") && !page.text.contains(#"value="endSession""#))
            let session = try #require(try JWT.payload(user.idToken)["firebase"]?["session_id"]?.stringValue)
            let refused = try await api.console(
                .post, "/console/users/\(user.localId)/actions",
                form: ["action": "endSession", "session": session, "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await api.refresh(user.refreshToken).status == .ok)
            let settings = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(settings.text.contains("Session lifetimes") && !settings.text.contains(#"action="/console/settings/sessions""#))
        }
    }

    @Test("the settings page saves the lifetimes in hours through the config, which refuses less than an hour")
    func lifetimes() async throws {
        try await withConsoleOperator { api, op in
            let saved = try await api.console(
                .post, "/console/settings/sessions", form: ["idleTimeoutHours": "336", "absoluteLifetimeHours": "", "csrf": op.csrf],
                cookie: op.cookie)
            #expect(saved.status == .seeOther, "\(saved.text)")
            let config = try await api.admin(.get, Path.config)
            #expect(config["flint"]?["sessions"] == ["idleTimeout": "1209600s"])
            let page = try await api.console(.get, "/console/settings", cookie: op.cookie)
            #expect(page.text.contains(#"name="idleTimeoutHours" inputmode="numeric" value="336""#))
            let refused = try await api.console(
                .post, "/console/settings/sessions", form: ["idleTimeoutHours": "0", "absoluteLifetimeHours": "", "csrf": op.csrf],
                cookie: op.cookie)
            #expect(refused.status == .badRequest && refused.text.contains("flint.sessions.idleTimeout"))
        }
    }
}

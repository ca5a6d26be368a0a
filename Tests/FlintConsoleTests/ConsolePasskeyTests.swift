import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("Console: an account's passkeys, listed and removed")
struct ConsolePasskeyTests {
    /// A phone account with `authenticator`'s passkey; its ID and the refresh token of its latest session.
    private static func accountWithPasskey(_ api: API, _ authenticator: inout SoftwareAuthenticator) async throws -> (String, String) {
        let user = try await api.signIn("+16505550171")
        authenticator.userHandle = Array(user.localId.utf8)
        let enrolled = try await api.enrollPasskey(user.idToken, authenticator, name: "Office key")
        #expect(enrolled.status == .ok, "\(enrolled.text)")
        return (user.localId, try #require(enrolled.string("refreshToken")))
    }

    @Test("the user page lists passkeys; removing one is confirmed, CSRF-checked, ends the sessions and is audited")
    func listAndRemove() async throws {
        try await withConsoleOperator { api, op in
            var authenticator = SoftwareAuthenticator()
            let (uid, refreshToken) = try await Self.accountWithPasskey(api, &authenticator)
            let page = try await api.console(.get, "/console/users/\(uid)", cookie: op.cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("<h2>Passkeys</h2>") && page.text.contains("Office key") && page.text.contains(authenticator.id))
            #expect(page.text.contains(#"name="passkey" value="\#(authenticator.id)""#))

            let path = "/console/users/\(uid)/actions"
            let ask = try await api.console(
                .post, path, form: ["action": "removePasskey", "passkey": authenticator.id, "csrf": op.csrf], cookie: op.cookie)
            #expect(ask.status == .ok && ask.text.contains("Remove a passkey"))
            #expect(ask.text.contains(#"<input type="hidden" name="passkey" value="\#(authenticator.id)">"#))
            let forged = try await api.console(
                .post, path, form: ["action": "removePasskey", "passkey": authenticator.id, "confirmed": "yes", "csrf": "forged"], cookie: op.cookie)
            #expect(forged.status == .forbidden)
            #expect(try await api.adminAccount(uid)?["passkeyInfo"]?.arrayValue?.count == 1)

            let unknown = try await api.console(
                .post, path, form: ["action": "removePasskey", "passkey": "bm9uZQ", "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(unknown.status == .badRequest)
            let done = try await api.console(
                .post, path, form: ["action": "removePasskey", "passkey": authenticator.id, "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(done.status == .seeOther && done.headers[.location] == "/console/users/\(uid)?done=removePasskey")
            #expect(try await api.adminAccount(uid)?["passkeyInfo"] == nil)
            #expect(try await api.signInWithPasskey(&authenticator).errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND")
            #expect(try await api.refresh(refreshToken).errorCode == "TOKEN_EXPIRED", "removing a credential ends the sessions")

            let withdrawn = try await api.auditEvents("kind=PASSKEY_WITHDRAWN&uid=\(uid)")
            #expect(withdrawn.first?["actor"]?.stringValue == "ops@example.com")
            let action = try await api.auditEvents("kind=ADMIN_ACTION&uid=\(uid)").first
            #expect(action?["detail"]?["action"]?.stringValue == "removePasskey")
            #expect(action?["detail"]?["credentialId"]?.stringValue == authenticator.id)
        }
    }

    @Test("a read-only operator sees the passkeys but cannot remove one")
    func readOnly() async throws {
        try await withConsoleOperator(role: .read) { api, op in
            var authenticator = SoftwareAuthenticator()
            let (uid, _) = try await Self.accountWithPasskey(api, &authenticator)
            let page = try await api.console(.get, "/console/users/\(uid)", cookie: op.cookie)
            #expect(page.text.contains("Office key") && !page.text.contains(#"value="removePasskey""#))
            let refused = try await api.console(
                .post, "/console/users/\(uid)/actions",
                form: ["action": "removePasskey", "passkey": authenticator.id, "confirmed": "yes", "csrf": op.csrf], cookie: op.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await api.adminAccount(uid)?["passkeyInfo"]?.arrayValue?.count == 1)
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import FlintServer

/// An email sender that answers from a script (then accepts), remembering what it was given.
final class ScriptedEmailSender: EmailSender {
    private let state: Mutex<(script: [EmailDeliveryError], sent: [EmailMessage])>

    init(_ script: [EmailDeliveryError]) { state = Mutex((script, [])) }

    var isDevOutbox: Bool { false }

    func send(_ message: EmailMessage) async throws -> String {
        try state.withLock { s in
            if !s.script.isEmpty { throw s.script.removeFirst() }
            s.sent.append(message)
            return "250 2.0.0 queued as TEST"
        }
    }

    var sent: [EmailMessage] { state.withLock { $0.sent } }
}

@Suite("Email delivery through the outbox")
struct EmailDeliveryTests {
    /// The outbox record to `email` once it satisfies `done`, checked again after each write of `node` (a delivery
    /// ends by writing its outcome to the record).
    static func record(_ api: API, _ node: TestNode, to email: String, until done: (JSONValue) -> Bool) async throws -> JSONValue {
        var last: JSONValue = .null
        let reached = try await node.afterWrites {
            guard let record = try await api.outbox().last(where: { $0["to"]?.stringValue == email }) else { return false }
            last = record
            return done(record)
        }
        if !reached { Issue.record("outbox record never got there: \(last)") }
        return last
    }

    @Test("a sent email is recorded as sent with the server's reply; outside dev mode its body and link are dropped")
    func sentAndRedacted() async throws {
        let sender = ScriptedEmailSender([])
        let node = try await TestNode.make(email: sender) {
            $0.devMode = false; $0.adminToken = "admin"
        }
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            let sent = try await api.sendSignInLink("prod@example.com")
            #expect(sent.status == .ok, "\(sent.text)")
            let log = try await api.call(.get, "/flint/v1/projects/\(project)/outbox", headers: [.authorization: "Bearer admin"])
            #expect(log.status == .ok)
            // The delivery runs after the answer and ends by writing its outcome to the record.
            var record: JSONValue = .null
            _ = try await node.afterWrites {
                let listed = try await api.call(.get, "/flint/v1/projects/\(project)/outbox", headers: [.authorization: "Bearer admin"])
                record = listed["messages"]?.arrayValue?.last ?? .null
                return record["status"]?.stringValue == "sent"
            }
            #expect(record["status"]?.stringValue == "sent")
            #expect(record["statusDetail"]?.stringValue == "250 2.0.0 queued as TEST")
            #expect(record["body"]?.stringValue == "")
            #expect(record["link"] == nil)
            #expect(record["subject"]?.stringValue?.isEmpty == false)
            let message = try #require(sender.sent.first)
            #expect(message.to == "prod@example.com")
            #expect(message.text.contains("/__/auth/action?mode=signIn"))
            #expect(message.html.contains("/__/auth/action?mode=signIn"))
        }
        try await node.store.close()
    }

    @Test("a passing failure leaves the record queued for the next sweep, which delivers it")
    func transientThenSent() async throws {
        let sender = ScriptedEmailSender([.transient("421 try later")])
        let node = try await TestNode.make(email: sender)
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            _ = try await api.sendSignInLink("flaky@example.com")
            let queued = try await Self.record(api, node, to: "flaky@example.com") {
                $0["attempts"]?.intValue == 1 && $0["status"]?.stringValue == "queued"
            }
            #expect(queued["statusDetail"]?.stringValue == "421 try later")
            await node.server.flows.actionCodes.deliverDueEmail()
            let sent = try await Self.record(api, node, to: "flaky@example.com") { $0["status"]?.stringValue == "sent" }
            #expect(sent["attempts"]?.intValue == 2)
            #expect(sender.sent.count == 1)
            // Dev mode keeps the link, so the code can still be used.
            let code = try await api.oobCode(for: "flaky@example.com").code
            #expect(try await api.post(Path.emailLinkSignIn, ["email": "flaky@example.com", "oobCode": code]).status == .ok)
        }
        try await node.store.close()
    }

    @Test("a permanent refusal marks the record failed and is not retried")
    func permanent() async throws {
        let sender = ScriptedEmailSender([.permanent("550 5.1.1 no such user")])
        let node = try await TestNode.make(email: sender)
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            _ = try await api.sendSignInLink("gone@example.com")
            let failed = try await Self.record(api, node, to: "gone@example.com") { $0["status"]?.stringValue == "failed" }
            #expect(failed["statusDetail"]?.stringValue == "550 5.1.1 no such user")
            await node.server.flows.actionCodes.deliverDueEmail()
            #expect(sender.sent.isEmpty)
        }
        try await node.store.close()
    }

    @Test("production mode without an SMTP server refuses to send, but operators still get links")
    func noDelivery() async throws {
        let node = try await TestNode.make {
            $0.devMode = false; $0.adminToken = "admin"
        }
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            let refused = try await api.sendSignInLink("nobody@example.com")
            #expect(refused.status == .internalServerError)
            #expect(refused.errorMessage?.contains("--smtp") == true)
            let body =
                #"{"requestType":"EMAIL_SIGNIN","email":"ops@example.com","continueUrl":"https://localhost/","canHandleCodeInApp":true,"returnOobLink":true}"#
            let reply = try await api.call(
                .post, "\(Path.v1)/projects/\(project)/accounts:sendOobCode", body: body, headers: [.authorization: "Bearer admin"])
            #expect(reply.status == .ok, "\(reply.text)")
        }
        try await node.store.close()
    }

    @Test("operator templates replace the built-in text for their locale")
    func templateOverride() async throws {
        try await withFlint { api in
            let override = #"{"flint":{"emailTemplates":{"fr":{"EMAIL_SIGNIN":{"subject":"Connexion à {app}"}}}}}"#
            try await api.patchConfig(override, mask: "flint.emailTemplates")
            _ = try await api.sendSignInLink("tpl@example.com", headers: [HTTPField.Name("X-Firebase-Locale")!: "fr"])
            let message = try #require(try await api.outbox().last)
            #expect(message["subject"]?.stringValue == "Connexion à demo-flint")
            let bad = #"{"flint":{"emailTemplates":{"fr":{"EMAIL_SIGNIN":{"text":"no link here {nope}"}}}}}"#
            let refused = try await api.admin(.patch, Path.config + "?updateMask=flint.emailTemplates", body: bad)
            #expect(refused.errorCode == "INVALID_CONFIG")

            // A changed override is used from the next send on (the parsed templates are cached per value)...
            try await api.patchConfig(
                #"{"flint":{"emailTemplates":{"fr":{"EMAIL_SIGNIN":{"subject":"Entrez dans {app}"}}}}}"#, mask: "flint.emailTemplates")
            _ = try await api.sendSignInLink("tpl@example.com", headers: [HTTPField.Name("X-Firebase-Locale")!: "fr"])
            #expect(try await api.outbox().last?["subject"]?.stringValue == "Entrez dans demo-flint")
            // ...and removing it brings the built-in text back.
            try await api.patchConfig(#"{"flint":{"emailTemplates":null}}"#, mask: "flint.emailTemplates")
            _ = try await api.sendSignInLink("tpl@example.com", headers: [HTTPField.Name("X-Firebase-Locale")!: "fr"])
            let builtIn = try #require(try await api.outbox().last?["subject"]?.stringValue)
            #expect(!builtIn.hasPrefix("Entrez") && !builtIn.hasPrefix("Connexion à demo-flint"))
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import FlintServer

/// An SMS sender that refuses the first `failures` messages, then accepts, remembering what it was given.
final class FlakySender: SMSSender {
    private let state: Mutex<(failuresLeft: Int, sent: [SMSMessage])>
    struct Refused: Error {}

    init(failures: Int) { state = Mutex((failures, [])) }

    func send(_ message: SMSMessage) async throws {
        try state.withLock { s in
            if s.failuresLeft > 0 {
                s.failuresLeft -= 1
                throw Refused()
            }
            s.sent.append(message)
        }
    }

    var sent: [SMSMessage] { state.withLock { $0.sent } }
}

@Suite("SMS delivery")
struct DeliveryTests {
    @Test("a failed hand-over answers an error and abandons the code, so the next send makes a new one")
    func failedHandOver() async throws {
        var logger = Logger(label: "delivery-test")
        logger.logLevel = .critical
        let store = try await SQLiteStore(path: nil, logger: logger)
        let settings = ServerSettings()
        let sender = FlakySender(failures: 1)
        let server = try await FlintServer(settings: settings, store: store, sms: sender, logger: logger)
        try await server.application.test(.router) { client in
            let api = API(client: client, clock: ManualClock())
            let failed = try await api.post(Path.send, ["phoneNumber": "+16505553434"])
            #expect(failed.status == .internalServerError)
            #expect(failed.errorCode == "INTERNAL_ERROR")
            #expect(try await api.pendingCodes().isEmpty, "the abandoned code cannot be used")

            let sessionInfo = try await api.sendCode("+16505553434")
            #expect(sender.sent.count == 1, "the retry was handed over")
            let code = try #require(sender.sent.first?.code)
            #expect(sender.sent.first?.body.contains(code) == true)
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
        try await store.close()
    }

    @Test("the dev listing narrows to one number with ?phoneNumber=")
    func filteredListing() async throws {
        try await withFlint { api in
            _ = try await api.sendCode("+16505553434")
            _ = try await api.sendCode("+16505550000")
            let reply = try await api.call(.get, Path.codes + "?phoneNumber=%2B1%20650-555-0000")
            #expect(reply.status == .ok)
            guard case .array(let list)? = reply["verificationCodes"] else { Issue.record("no list"); return }
            #expect(list.map { $0["phoneNumber"]?.stringValue } == ["+16505550000"])
        }
    }

    @Test("refreshes record lastRefreshAt once flushed")
    func lastRefreshAt() async throws {
        let node = try await TestNode.make()
        try await node.server.application.test(.router) { client in
            let api = API(client: client, clock: node.clock)
            let signedIn = try await api.signIn("+16505553434")
            #expect(try await api.refresh(signedIn.refreshToken).status == .ok)
            try await node.server.flows.sessions.activity.flush(to: node.store)
            let user = try await node.store.read { try await $0.user(tenant: .default, localID: signedIn.localId) }
            #expect(user?.lastRefreshAt != nil)
        }
        try await node.store.close()
    }
}

import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Dev routes: readiness, pending codes, outbox, wiping accounts")
struct DevRoutesTests {
    @Test("GET / reports readiness like the emulator, without a credential")
    func readiness() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, "/")
            #expect(reply.status == .ok)
            #expect(reply["authEmulator"]?["ready"] == .bool(true))
        }
    }

    @Test("verificationCodes lists pending codes with a usable sessionInfo and drops consumed ones")
    func verificationCodes() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice)
            _ = try await api.sendCode(bob)
            let pending = try await api.pendingCodes()
            #expect(pending.count == 2)
            #expect(Set(pending.compactMap { $0["phoneNumber"]?.stringValue }) == [alice, bob])
            for entry in pending {
                #expect(entry["code"]?.stringValue?.isDigits == true)
                #expect(entry["sessionInfo"]?.stringValue?.isEmpty == false)
            }

            let entry = try #require(pending.first { $0["phoneNumber"]?.stringValue == alice })
            let reply = try await api.verify(
                try #require(entry["sessionInfo"]?.stringValue), code: try #require(entry["code"]?.stringValue)
            )
            #expect(reply.status == .ok)

            let after = try await api.pendingCodes()
            #expect(after.compactMap { $0["phoneNumber"]?.stringValue } == [bob])
        }
    }

    @Test("verificationCodes drops expired and locked codes")
    func verificationCodesDropsDead() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            for _ in 0..<5 { _ = try await api.verify(sessionInfo, code: code == "000000" ? "111111" : "000000") }
            #expect(try await api.pendingCodes().isEmpty)

            _ = try await api.sendCode(bob)
            api.clock.advance(by: .seconds(301))
            #expect(try await api.pendingCodes().isEmpty)
        }
    }

    @Test("the outbox lists every SMS oldest first with channel, to, body, locale and createdAt")
    func outboxOrder() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice)
            let aliceCode = try await api.pendingCode(for: alice)
            api.clock.advance(by: .seconds(5))
            _ = try await api.sendCode(bob)
            let bobCode = try await api.pendingCode(for: bob)

            let messages = try await api.outbox()
            #expect(messages.count == 2)
            #expect(messages.map { $0["to"]?.stringValue } == [alice, bob])
            #expect(messages[0]["body"]?.stringValue?.contains(aliceCode) == true)
            #expect(messages[1]["body"]?.stringValue?.contains(bobCode) == true)
            for message in messages {
                #expect(message["channel"]?.stringValue == "sms")
                #expect(message["locale"]?.stringValue?.isEmpty == false)
                #expect(message["createdAt"]?.stringValue?.isDigits == true)
            }
            let first = Int64(messages[0]["createdAt"]?.stringValue ?? "") ?? 0
            let second = Int64(messages[1]["createdAt"]?.stringValue ?? "") ?? 0
            #expect(second - first == 5000)
        }
    }

    @Test("consumed codes stay in the outbox (it is a record of what was sent)")
    func outboxKeepsHistory() async throws {
        try await withFlint { api in
            _ = try await api.signIn(alice)
            #expect(try await api.outbox().count == 1)
        }
    }

    @Test("DELETE accounts removes every user; their tokens stop working")
    func deleteAccounts() async throws {
        try await withFlint { api in
            let a = try await api.signIn(alice)
            let b = try await api.signIn(bob)
            let reply = try await api.call(.delete, Path.accounts)
            #expect(reply.status == .ok)
            for user in [a, b] {
                #expect(try await api.lookup(user.idToken).errorCode == "USER_NOT_FOUND")
                #expect(try await api.refresh(user.refreshToken).status == .badRequest)
            }
            let fresh = try await api.signIn(alice)
            #expect(fresh.reply["isNewUser"] == .bool(true))
        }
    }

    @Test("dev routes for another project are not found", arguments: ["verificationCodes", "outbox"])
    func otherProject(_ leaf: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, "/emulator/v1/projects/someone-else/\(leaf)")
            #expect(reply.status == .notFound)
        }
    }

    @Test("without dev mode the dev routes do not exist and Bearer owner is not admin")
    func productionMode() async throws {
        try await withFlint(configure: { $0.devMode = false }) { api in
            for path in ["/", Path.codes, Path.outbox] {
                #expect(try await api.call(.get, path).status == .notFound)
            }
            #expect(try await api.call(.delete, Path.accounts).status == .notFound)
            let config = try await api.admin(.get, Path.config)
            #expect(config.status == .unauthorized)
        }
    }

    @Test("in production mode the configured admin token is the admin credential")
    func productionAdminToken() async throws {
        try await withFlint(configure: {
            $0.devMode = false
            $0.adminToken = "s3cret-admin"
        }) { api in
            let reply = try await api.call(.get, Path.config, headers: [.authorization: "Bearer s3cret-admin"])
            #expect(reply.status == .ok)
            let wrong = try await api.call(.get, Path.config, headers: [.authorization: "Bearer s3cret-admiN"])
            #expect(wrong.status == .unauthorized)
        }
    }
}

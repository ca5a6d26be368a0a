import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FlintServer

/// SMS spend protection in production mode, with app verification off and texts handed to a local webhook stand-in
/// that counts what it receives.
@Suite("SMS spend limits (production mode, webhook provider)")
struct SMSSpendLimitsTests {
    @Test("200 codes to 200 numbers from one address: texts stop at the per-address hourly limit (default 30), then the daily one")
    func perAddress() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            try await productionNode(sms: sms, clock: clock).run { api in
                var accepted = 0
                var refused = 0
                for n in 0..<200 {
                    let reply = try await api.send(usNumber(n), from: "203.0.113.9")
                    if reply.status == .ok { accepted += 1 } else if reply.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER" { refused += 1 }
                }
                #expect(accepted == 30, "the default per-address hourly limit")
                #expect(refused == 170)
                #expect(await inbox.texts.count == 30, "a refused send texts nothing")
                // Another address is not affected.
                #expect(try await api.send(usNumber(300), from: "198.51.100.4").status == .ok)

                // Hour after hour the address gets 30 more, until its 100 of the day.
                var later = 0
                for hour in 1...4 {
                    api.clock.advance(by: .seconds(3600))
                    for n in 0..<40 where try await api.send(usNumber(400 + hour * 40 + n), from: "203.0.113.9").status == .ok { later += 1 }
                }
                #expect(later == 70, "100 a day in all")
                #expect(await inbox.texts.count == 101)
            }
        }
    }

    @Test("per destination country and hour, by the numbering plan's region")
    func perCountry() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            try await productionNode(sms: sms, clock: clock, smsLimits: ["perCountryPerHour": 3]).run { api in
                for n in 0..<3 { #expect(try await api.send(ukNumber(n), from: "192.0.2.\(n)").status == .ok) }
                let refused = try await api.send(ukNumber(3), from: "192.0.2.50")
                #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(refused.text)")
                #expect(try await api.send(usNumber(1), from: "192.0.2.51").status == .ok, "another country is not affected")
                #expect(await inbox.texts.filter { $0.to.hasPrefix("+44") }.count == 3)
                api.clock.advance(by: .seconds(3600))
                #expect(try await api.send(ukNumber(4), from: "192.0.2.52").status == .ok, "the next hour")
            }
        }
    }

    @Test("the daily budget answers QUOTA_EXCEEDED, alerts once at 80% with the counts, and starts again the next UTC day")
    func budget() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        let lines = LogLines()
        try await inbox.serve(clock: clock) { sms in
            let node = try await productionNode(sms: sms, clock: clock, smsLimits: ["dailyBudget": 5], logger: lines.logger(level: .warning))
            let codes = node.server.flows.phoneCodes
            try await node.run { api in
                for n in 0..<5 { #expect(try await api.send(usNumber(n), from: "192.0.2.\(n)").status == .ok) }
                let over = try await api.send(usNumber(5), from: "192.0.2.9")
                #expect(over.errorMessage == "QUOTA_EXCEEDED : Exceeded quota for sending verification codes.", "\(over.text)")
                #expect(over.status == .badRequest)
                #expect(await inbox.texts.count == 5)
                let use = try await codes.smsBudgetUse()
                #expect(use.sent == 5 && use.budget == 5)
                let metrics = try await api.metrics()
                #expect(metrics["flint_sms_budget_alerts_total"] == 1, "the alert is a metric too")
                #expect(metrics[#"flint_sms_codes_refused_total{region="US",reason="budget"}"#] == 1, "\(metrics.text)")

                api.clock.advance(by: .seconds(86_400))
                #expect(try await api.send(usNumber(6), from: "192.0.2.10").status == .ok)
                #expect(try await codes.smsBudgetUse().sent == 1)
            }
        }
        let alerts = lines.all.filter { $0.message == "sms daily budget 80% used" }
        #expect(alerts.count == 1, "one alert line a day")
        #expect(alerts.first?.level == .warning)
        #expect(alerts.first?.metadata["sentToday"] == "4" && alerts.first?.metadata["dailyBudget"] == "5")
    }

    @Test("a send refused by one limit takes nothing from the others")
    func noLeak() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            let node = try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 2, "dailyBudget": 10])
            let codes = node.server.flows.phoneCodes
            try await node.run { (api: API) async throws -> Void in
                // Refused by the address's limit: the budget and the country keep their room.
                for n in 0..<2 { #expect(try await api.send(usNumber(n), from: "192.0.2.1").status == .ok) }
                for n in 2..<6 { #expect(try await api.refusal(usNumber(n), from: "192.0.2.1") == "TOO_MANY_ATTEMPTS_TRY_LATER") }
                #expect(try await codes.smsBudgetUse().sent == 2)
                #expect(try await node.hits(.smsSends(country: "US", per: .hour), api.clock.now()) == 2)
                // Refused by the number's cap (5 an hour): nothing counted on the address or the budget.
                for n in 0..<5 {
                    #expect(try await api.send(alice, from: "192.0.2.2\(n)").status == .ok)
                    api.clock.advance(by: .seconds(301))
                }
                #expect(try await api.refusal(alice, from: "192.0.2.30") == "TOO_MANY_ATTEMPTS_TRY_LATER")
                #expect(try await node.hits(.smsSends(clientIP: "192.0.2.30", per: .hour), api.clock.now()) == 0)
                #expect(try await codes.smsBudgetUse().sent == 7)
                // Refused by the budget: the address's and the country's hits are not taken either.
                for n in 0..<3 { #expect(try await api.send(usNumber(10 + n), from: "192.0.2.4\(n)").status == .ok) }
                #expect(try await api.refusal(usNumber(20), from: "192.0.2.50") == "QUOTA_EXCEEDED")
                #expect(try await node.hits(.smsSends(clientIP: "192.0.2.50", per: .hour), api.clock.now()) == 0)
                #expect(try await node.hits(.smsSends(country: "US", per: .hour), api.clock.now()) == 10)
                #expect(try await codes.smsBudgetUse().sent == 10)
                #expect(await inbox.texts.count == 10)
            }
        }
    }

    @Test("a failed hand-over gives the hits back: the provider's refusals cost no budget")
    func failedHandOver() async throws {
        struct Down: SMSSender {
            func send(_ message: SMSMessage) async throws { throw SMSDeliveryError(.unavailable, "down") }
        }
        let node = try await productionNode(sms: Down(), clock: spendDayStart(), smsLimits: ["dailyBudget": 2])
        let codes = node.server.flows.phoneCodes
        try await node.run { (api: API) async throws -> Void in
            for n in 0..<4 { #expect(try await api.send(usNumber(n), from: "192.0.2.1").status == .internalServerError) }
            #expect(try await codes.smsBudgetUse().sent == 0)
        }
    }

    @Test("fictional numbers are exempt: never texted, never counted")
    func fictionalExempt() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            let node = try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 1, "perCountryPerHour": 1, "dailyBudget": 1])
            let codes = node.server.flows.phoneCodes
            try await node.run { api in
                try await api.setTestNumbers(["+16505559999": "123456"])
                for _ in 0..<30 { #expect(try await api.send("+16505559999", from: "192.0.2.1").status == .ok) }
                #expect(await inbox.texts.isEmpty)
                #expect(try await codes.smsBudgetUse().sent == 0)
                #expect(try await api.send(alice, from: "192.0.2.1").status == .ok, "the real number still has the room")
            }
        }
    }

    @Test("second-factor codes count against the same limits")
    func secondFactorCodes() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 2]).run { api in
                try await api.enableMFA()
                let created = try await api.admin(
                    .post, "\(Path.v1)/projects/\(project)/accounts",
                    body: #"{"email":"mfa@example.com","password":"password1","emailVerified":true}"#)
                #expect(created.status == .ok, "\(created.text)")
                let from: HTTPFields = [.xForwardedFor: "192.0.2.7"]
                let signedIn = try await api.signInWithPassword("mfa@example.com", "password1", headers: from)
                let idToken = try #require(signedIn.string("idToken"), "\(signedIn.text)")
                #expect(try await api.send(alice, from: "192.0.2.7").status == .ok)
                let enrol = try await api.postJSONFrom(
                    "192.0.2.7", Path.enrollStart, ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": bob]])
                #expect(enrol.status == .ok, "\(enrol.text)")
                let over = try await api.postJSONFrom(
                    "192.0.2.7", Path.enrollStart, ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550102"]])
                #expect(over.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(over.text)")
                #expect(await inbox.texts.count == 2)
            }
        }
    }

    @Test("two nodes sharing one store count exactly: 40 concurrent sends from one address, 10 texts")
    func acrossNodes() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        let path = temporaryDatabasePath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let accepted = try await inbox.serve(clock: clock) { sms in
            let first = try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 10], path: path)
            let second = try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 10], path: path)
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, node) in [first, second].enumerated() {
                    group.addTask {
                        try await node.run { api in
                            try await withThrowingTaskGroup(of: Bool.self) { sends in
                                for n in 0..<20 {
                                    sends.addTask { try await api.send(usNumber(index * 100 + n), from: "203.0.113.50").status == .ok }
                                }
                                return try await sends.reduce(0) { $0 + ($1 ? 1 : 0) }
                            }
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(accepted == 10)
        #expect(await inbox.texts.count == 10)
    }

    @Test("a refusal records one LOCKOUT audit event per limit and window, however many sends it refuses")
    func lockoutEvent() async throws {
        let inbox = TextInbox()
        let clock = spendDayStart()
        try await inbox.serve(clock: clock) { sms in
            try await productionNode(sms: sms, clock: clock, smsLimits: ["perIPPerHour": 1]).run { api in
                #expect(try await api.send(usNumber(0), from: "192.0.2.1").status == .ok)
                for n in 1..<6 { #expect(try await api.refusal(usNumber(n), from: "192.0.2.1") == "TOO_MANY_ATTEMPTS_TRY_LATER") }
                let events = try await api.auditEvents("kind=LOCKOUT")
                #expect(events.count == 1)
                #expect(events.first?["detail"]?["limit"] == "sms-ip:h:192.0.2.1")
                #expect(events.first?["ip"] == "192.0.2.1")
            }
        }
    }
}

extension API {
    /// A JSON body with nested objects, from the client address `ip`.
    func postJSONFrom(_ ip: String, _ path: String, _ object: [String: Any]) async throws -> Reply {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try await postRaw(path, String(decoding: data, as: UTF8.self), headers: [.xForwardedFor: ip])
    }
}

extension TestNode {
    /// The hits counted so far on `key` in the hour window of `now` (ms).
    func hits(_ key: CounterKey, _ now: Instant) async throws -> Int64 {
        let ms = now.millisecondsSince1970
        return try await store.read { try await $0.counterValue(key: key, windowStart: Instant(millisecondsSince1970: ms - ms % 3_600_000)) }
    }
}

extension API {
    /// The error code `sendVerificationCode` for `phone` from `ip` answered (`nil` when it succeeded).
    func refusal(_ phone: String, from ip: String) async throws -> String? {
        try await send(phone, from: ip).errorCode
    }
}

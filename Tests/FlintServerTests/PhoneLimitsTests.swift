import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

/// A clock at the start of a UTC day, so the hourly and daily windows of the caps do not roll over mid-test.
private func dayStartClock() -> ManualClock { ManualClock(Instant(secondsSince1970: 1_767_225_600)) }

@Suite("Per-number caps on SMS codes")
struct PhoneLimitsTests {
    @Test("a number is sent at most 5 new codes an hour and 10 a day; fictional numbers are exempt")
    func sendCap() async throws {
        try await withFlint(clock: dayStartClock()) { api in
            for _ in 0..<5 {
                _ = try await api.sendCode(alice)
                api.clock.advance(by: .seconds(301))  // the code expired, so the next send is a new text
            }
            let refused = try await api.post(Path.send, ["phoneNumber": alice])
            #expect(refused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.post(Path.send, ["phoneNumber": bob]).status == .ok, "other numbers are not affected")

            try await api.setTestNumbers(["+16505559999": "123456"])
            for _ in 0..<20 { _ = try await api.sendCode("+16505559999") }

            api.clock.advance(by: .seconds(3600))
            for _ in 0..<5 {
                _ = try await api.sendCode(alice)
                api.clock.advance(by: .seconds(301))
            }
            api.clock.advance(by: .seconds(3600))
            let daily = try await api.post(Path.send, ["phoneNumber": alice])
            #expect(daily.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "10 a day, even in a new hour")
        }
    }

    @Test("the per-number caps are flint.smsLimits.perNumberPerHour and perNumberPerDay; 0 turns one off")
    func configurableSendCap() async throws {
        try await withFlint(clock: dayStartClock()) { api in
            try await api.patchConfig(
                #"{"flint":{"smsLimits":{"perNumberPerHour":2,"perNumberPerDay":0}}}"#,
                mask: "flint.smsLimits.perNumberPerHour,flint.smsLimits.perNumberPerDay")
            let shown = try await api.admin(.get, Path.config)
            #expect(shown["flint"]?["smsLimits"]?["perNumberPerHour"] == .number(2))
            #expect(shown["flint"]?["smsLimits"]?["perNumberPerDay"] == .number(0))
            for hour in 0..<6 {
                for _ in 0..<2 {
                    _ = try await api.sendCode(alice)
                    api.clock.advance(by: .seconds(301))
                }
                let refused = try await api.post(Path.send, ["phoneNumber": alice])
                #expect(refused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "hour \(hour)")
                api.clock.advance(by: .seconds(3600 - 602))  // the next hour's window
            }
        }
    }

    @Test("a re-used live code is no new text and does not count")
    func reuseIsFree() async throws {
        try await withFlint(clock: dayStartClock()) { api in
            for _ in 0..<8 { _ = try await api.sendCode(alice) }
            #expect(try await api.outbox().count == 1)
        }
    }

    @Test("wrong codes count per number across sessions: past 10 an hour even the right code of a fresh session is refused")
    func wrongAnswerCap() async throws {
        try await withFlint(clock: dayStartClock()) { api in
            for round in 0..<2 {
                let sessionInfo = try await api.sendCode(alice)
                let code = try await api.pendingCode(for: alice)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 0..<5 { #expect(try await api.verify(sessionInfo, code: wrong).errorCode == "INVALID_CODE") }
                // A locked session takes no guess, so it does not count against the number.
                if round == 0 { #expect(try await api.verify(sessionInfo, code: code).errorCode == "SESSION_EXPIRED") }
            }
            let fresh = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            #expect(try await api.verify(fresh, code: code).errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")

            api.clock.advance(by: .seconds(3600))
            let nextHour = try await api.sendCode(alice)
            _ = try API.signedIn(try await api.verify(nextHour, code: try await api.pendingCode(for: alice)))
        }
    }

    @Test("the daily wrong-answer cap holds across hours")
    func dailyWrongAnswerCap() async throws {
        try await withFlint(clock: dayStartClock()) { api in
            for _ in 0..<4 {
                let sessionInfo = try await api.sendCode(alice)
                let code = try await api.pendingCode(for: alice)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 0..<5 { #expect(try await api.verify(sessionInfo, code: wrong).errorCode == "INVALID_CODE") }
                api.clock.advance(by: .seconds(1800))
            }
            api.clock.advance(by: .seconds(3600))
            let fresh = try await api.sendCode(alice)
            #expect(try await api.verify(fresh, code: try await api.pendingCode(for: alice)).errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test("second-factor codes share the caps: sends and wrong answers on the enrolment path")
    func mfaPath() async throws {
        let number = "+16505550150"
        try await withFlint(clock: dayStartClock()) { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("caps@example.com")
            for _ in 0..<2 {
                let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": number]])
                let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)
                let code = try await api.pendingCode(for: number)
                let wrong = code == "000000" ? "111111" : "000000"
                for _ in 0..<5 {
                    let reply = try await api.postJSON(
                        Path.enrollFinalize, ["idToken": user.idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": wrong]])
                    #expect(reply.errorCode == "INVALID_CODE")
                }
            }
            let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": number]])
            let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue)
            let code = try await api.pendingCode(for: number)
            let refused = try await api.postJSON(
                Path.enrollFinalize, ["idToken": user.idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
            #expect(refused.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")

            // Sign-in texts and second-factor texts count together: 3 enrolment texts + 2 sign-in texts.
            for _ in 0..<2 {
                api.clock.advance(by: .seconds(301))
                _ = try await api.sendCode(number)
            }
            api.clock.advance(by: .seconds(301))
            let fresh = try await api.signInWithEmailLink("caps@example.com")
            let over = try await api.postJSON(Path.enrollStart, ["idToken": fresh.idToken, "phoneEnrollmentInfo": ["phoneNumber": number]])
            #expect(over.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test("a fictional handle is spent after 5 wrong codes, and the number's wrong-answer caps apply, still without SMS")
    func fictionalAttempts() async throws {
        let fictional = "+16505559999"
        try await withFlint(clock: dayStartClock()) { api in
            try await api.setTestNumbers([fictional: "123456"])
            let handle = try await api.sendCode(fictional)
            for _ in 0..<5 { #expect(try await api.verify(handle, code: "654321").errorCode == "INVALID_CODE") }
            #expect(try await api.verify(handle, code: "123456").errorCode == "SESSION_EXPIRED", "the handle is spent")

            api.clock.advance(by: .seconds(1))
            let second = try await api.sendCode(fictional)
            _ = try API.signedIn(try await api.verify(second, code: "123456"))
            _ = try API.signedIn(try await api.verify(second, code: "123456"))  // a right code does not spend the handle

            api.clock.advance(by: .seconds(1))
            let third = try await api.sendCode(fictional)
            for _ in 0..<5 { #expect(try await api.verify(third, code: "654321").errorCode == "INVALID_CODE") }
            api.clock.advance(by: .seconds(1))
            let fourth = try await api.sendCode(fictional)
            #expect(try await api.verify(fourth, code: "123456").errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "10 wrong codes this hour")

            #expect(try await api.outbox().isEmpty, "no text, no stored session")
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Phone: sending a code")
struct PhoneSendTests {
    @Test("a send answers an opaque sessionInfo and puts one SMS with the code in the outbox")
    func sendAnswersSessionInfo() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            #expect(sessionInfo.count >= 22)
            #expect(sessionInfo.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })

            let code = try await api.pendingCode(for: alice)
            #expect(code.count == 6 && code.isDigits)
            let messages = try await api.outbox()
            #expect(messages.count == 1)
            #expect(messages.first?["to"]?.stringValue == alice)
            #expect(messages.first?["body"]?.stringValue?.contains(code) == true)
        }
    }

    @Test("two sends give sessions that differ (each is unguessable)")
    func sessionsDiffer() async throws {
        try await withFlint { api in
            let first = try await api.sendCode(alice)
            let second = try await api.sendCode(bob)
            #expect(first != second)
        }
    }

    @Test("the legacy v3 sendVerificationCode path works like v1")
    func legacySend() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice, path: "\(Path.v3)/sendVerificationCode")
            let code = try await api.pendingCode(for: alice)
            let signedIn = try API.signedIn(try await api.verify(sessionInfo, code: code))
            #expect(signedIn.reply["phoneNumber"]?.stringValue == alice)
        }
    }

    @Test("a second send while the code is valid sends no second SMS and its session accepts the first code")
    func reentrantSend() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            api.clock.advance(by: .seconds(30))
            let second = try await api.sendCode(alice)
            #expect(try await api.outbox().count == 1)

            let reply = try await api.verify(second, code: code)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["isNewUser"] == .bool(true))
        }
    }

    @Test("after the code expires a new send sends a new SMS")
    func sendAfterExpiry() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice)
            api.clock.advance(by: .seconds(301))
            let sessionInfo = try await api.sendCode(alice)
            #expect(try await api.outbox().count == 2)
            let code = try await api.pendingCode(for: alice)
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }

    @Test("a fictional test number gets no SMS, accepts its fixed code and refuses others")
    func fictionalNumber() async throws {
        try await withFlint { api in
            try await api.setTestNumbers(["+1 650-555-1234": "123456"])
            let sessionInfo = try await api.sendCode("+16505551234")
            #expect(try await api.outbox().isEmpty)
            #expect(try await api.pendingCodes().isEmpty)

            let wrong = try await api.verify(sessionInfo, code: "654321")
            #expect(wrong.status == .badRequest)
            #expect(wrong.errorCode == "INVALID_CODE")

            let signedIn = try API.signedIn(try await api.verify(sessionInfo, code: "123456"))
            #expect(signedIn.reply["phoneNumber"]?.stringValue == "+16505551234")
            #expect(signedIn.reply["isNewUser"] == .bool(true))
            let claims = try JWT.payload(signedIn.idToken)
            #expect(claims["phone_number"]?.stringValue == "+16505551234")

            let lookup = try await api.lookup(signedIn.idToken)
            #expect(lookup.status == .ok)
            #expect(lookup["users"]?.arrayValue?.first?["localId"]?.stringValue == signedIn.localId)
        }
    }

    @Test("a fictional number's session also expires after the TTL")
    func fictionalExpiry() async throws {
        try await withFlint { api in
            try await api.setTestNumbers(["+16505551234": "123456"])
            let sessionInfo = try await api.sendCode("+16505551234")
            api.clock.advance(by: .seconds(301))
            let reply = try await api.verify(sessionInfo, code: "123456")
            #expect(reply.errorCode == "SESSION_EXPIRED")
        }
    }

    static let invalidNumbers: [ErrorCase] = [
        ErrorCase("missing number", body: "{}", code: "INVALID_PHONE_NUMBER"),
        ErrorCase("empty number", body: #"{"phoneNumber":""}"#, code: "INVALID_PHONE_NUMBER"),
        ErrorCase("garbage", body: #"{"phoneNumber":"not a number"}"#, code: "INVALID_PHONE_NUMBER"),
        ErrorCase("no plus sign", body: #"{"phoneNumber":"16505553434"}"#, code: "INVALID_PHONE_NUMBER"),
        ErrorCase("too short", body: #"{"phoneNumber":"+1650"}"#, code: "INVALID_PHONE_NUMBER"),
    ]

    @Test("invalid numbers are refused with INVALID_PHONE_NUMBER and send nothing", arguments: invalidNumbers)
    func invalidNumber(_ row: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, row.body)
            #expect(Int(reply.status.code) == row.status)
            #expect(reply.errorCode == row.code, "\(reply.text)")
            #expect(reply["sessionInfo"] == nil)
            #expect(try await api.outbox().isEmpty)
        }
    }

    @Test("a missing number reads exactly `INVALID_PHONE_NUMBER : Invalid format.` in Firebase's error shape")
    func missingNumberShape() async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.send, "{}")
            #expect(reply.errorMessage == "INVALID_PHONE_NUMBER : Invalid format.")
            let error = reply["error"]
            #expect(error?["code"]?.intValue == 400)
            #expect(error?["errors"]?.arrayValue?.first?["reason"]?.stringValue == "invalid")
            #expect(error?["errors"]?.arrayValue?.first?["domain"]?.stringValue == "global")
            #expect(error?["errors"]?.arrayValue?.first?["message"]?.stringValue == reply.errorMessage)
        }
    }

    @Test("phone sign-in disabled in the config refuses sends with OPERATION_NOT_ALLOWED")
    func disabledPhoneSignIn() async throws {
        try await withFlint { api in
            let patch = try await api.admin(
                .patch, Path.config + "?updateMask=signIn.phoneNumber.enabled", body: #"{"signIn":{"phoneNumber":{"enabled":false}}}"#
            )
            #expect(patch.status == .ok)
            let reply = try await api.post(Path.send, ["phoneNumber": alice])
            #expect(reply.errorCode == "OPERATION_NOT_ALLOWED")
        }
    }

    // MARK: SMS text and locale

    @Test("the SMS names the app and the code, in English by default")
    func defaultTemplate() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            let message = try #require(try await api.outbox().first)
            let body = try #require(message["body"]?.stringValue)
            #expect(body.contains(code))
            #expect(body.contains(project))
            #expect(message["locale"]?.stringValue == "en")
            #expect(message["channel"]?.stringValue == "sms")
        }
    }

    @Test("X-Firebase-Locale: fr renders the French template")
    func firebaseLocaleFrench() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice, headers: [.firebaseLocale: "fr"])
            let code = try await api.pendingCode(for: alice)
            let message = try #require(try await api.outbox().first)
            #expect(message["locale"]?.stringValue == "fr")
            #expect(message["body"]?.stringValue?.contains(code) == true)
        }
    }

    @Test("without X-Firebase-Locale the Accept-Language header chooses the template")
    func acceptLanguageFallback() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice, headers: [.acceptLanguage: "de-DE,de;q=0.9,en;q=0.5"])
            let message = try #require(try await api.outbox().first)
            #expect(message["locale"]?.stringValue == "de")
        }
    }

    @Test("X-Firebase-Locale wins over Accept-Language")
    func firebaseLocaleWins() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice, headers: [.firebaseLocale: "es", .acceptLanguage: "de"])
            let message = try #require(try await api.outbox().first)
            #expect(message["locale"]?.stringValue == "es")
        }
    }

    @Test("an unknown locale falls back to English")
    func unknownLocale() async throws {
        try await withFlint { api in
            _ = try await api.sendCode(alice, headers: [.firebaseLocale: "xx-YY"])
            let message = try #require(try await api.outbox().first)
            #expect(message["locale"]?.stringValue == "en")
        }
    }
}

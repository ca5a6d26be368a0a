import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Phone: signing in with the code")
struct PhoneSignInTests {
    @Test("a first sign-in creates the user and answers Firebase's fields with a string-typed expiresIn")
    func firstSignIn() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = signedIn.reply
            #expect(reply["expiresIn"] == .string("3600"))
            #expect(reply["isNewUser"] == .bool(true))
            #expect(reply["phoneNumber"]?.stringValue == alice)
            #expect(signedIn.localId.count == 28)
            #expect(signedIn.localId.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(!signedIn.refreshToken.isEmpty)
            #expect(signedIn.idToken.split(separator: ".").count == 3)
            #expect(reply["temporaryProof"] == nil)
        }
    }

    @Test("a second sign-in with the same number is the same user and not new")
    func secondSignIn() async throws {
        try await withFlint { api in
            let first = try await api.signIn(alice)
            let second = try await api.signIn(alice)
            #expect(second.localId == first.localId)
            #expect(second.reply["isNewUser"] == .bool(false))
        }
    }

    @Test("`+1 650-555-3434` and `+16505553434` are the same user")
    func formattingDoesNotMatter() async throws {
        try await withFlint { api in
            let formatted = try await api.signIn("+1 650-555-3434", normalized: alice)
            #expect(formatted.reply["phoneNumber"]?.stringValue == alice)
            let plain = try await api.signIn(alice)
            #expect(plain.localId == formatted.localId)
            #expect(plain.reply["isNewUser"] == .bool(false))
        }
    }

    @Test("the legacy v3 verifyPhoneNumber path signs in")
    func legacyVerify() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            let signedIn = try API.signedIn(try await api.verify(sessionInfo, code: code, path: "\(Path.v3)/verifyPhoneNumber"))
            #expect(signedIn.reply["expiresIn"] == .string("3600"))
        }
    }

    // MARK: Errors

    enum Mangle: String, Sendable, CaseIterable {
        case missingSession, emptySession, missingCode, garbageSession, tamperedSession, truncatedSession, wrongCode
    }

    static let expectations: [(Mangle, String)] = [
        (.missingSession, "MISSING_SESSION_INFO"), (.emptySession, "MISSING_SESSION_INFO"), (.missingCode, "MISSING_CODE"),
        (.garbageSession, "INVALID_SESSION_INFO"), (.tamperedSession, "INVALID_SESSION_INFO"),
        (.truncatedSession, "INVALID_SESSION_INFO"), (.wrongCode, "INVALID_CODE"),
    ]

    @Test("bad requests get Firebase's error codes", arguments: expectations)
    func badRequests(_ mangle: Mangle, _ expected: String) async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            var fields: [String: String]
            switch mangle {
            case .missingSession: fields = ["code": code]
            case .emptySession: fields = ["sessionInfo": "", "code": code]
            case .missingCode: fields = ["sessionInfo": sessionInfo]
            case .garbageSession: fields = ["sessionInfo": "garbage-session-info", "code": code]
            case .tamperedSession:
                var chars = Array(sessionInfo)
                let i = chars.count / 2
                chars[i] = chars[i] == "A" ? "B" : "A"
                fields = ["sessionInfo": String(chars), "code": code]
            case .truncatedSession: fields = ["sessionInfo": String(sessionInfo.dropLast(4)), "code": code]
            case .wrongCode: fields = ["sessionInfo": sessionInfo, "code": code == "000000" ? "111111" : "000000"]
            }
            let reply = try await api.post(Path.signIn, fields)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == expected, "\(reply.text)")
            #expect(reply["idToken"] == nil)
            // The real session is untouched by all of these.
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }

    @Test("a code is refused with SESSION_EXPIRED once the TTL (300 s) has passed")
    func sessionExpires() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            api.clock.advance(by: .seconds(301))
            let reply = try await api.verify(sessionInfo, code: code)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "SESSION_EXPIRED")
        }
    }

    @Test("a code is still accepted just before the TTL ends")
    func sessionJustValid() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            api.clock.advance(by: .seconds(299))
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }

    @Test("after 5 wrong codes even the right code fails")
    func fiveWrongTries() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let reply = try await api.verify(sessionInfo, code: wrong)
                #expect(reply.errorCode == "INVALID_CODE")
            }
            let reply = try await api.verify(sessionInfo, code: code)
            #expect(reply.status == .badRequest)
            #expect(reply["idToken"] == nil)
            #expect(["SESSION_EXPIRED", "TOO_MANY_ATTEMPTS_TRY_LATER"].contains(reply.errorCode ?? ""), "\(reply.text)")
        }
    }

    @Test("4 wrong codes still leave the right one usable")
    func fourWrongTries() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<4 { _ = try await api.verify(sessionInfo, code: wrong) }
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }

    @Test("a code spent once cannot be used again")
    func codeSpentOnce() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
            let again = try await api.verify(sessionInfo, code: code)
            #expect(again.status == .badRequest)
            #expect(again.errorCode == "INVALID_SESSION_INFO")
        }
    }

    @Test("of 16 concurrent correct submissions exactly one succeeds")
    func concurrentSubmissions() async throws {
        try await withFlint { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try await api.pendingCode(for: alice)
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<16 { group.addTask { try await api.verify(sessionInfo, code: code) } }
                var all: [Reply] = []
                for try await reply in group { all.append(reply) }
                return all
            }
            #expect(replies.filter { $0.status == .ok }.count == 1)
            for failed in replies where failed.status != .ok {
                #expect(failed.status == .badRequest)
                #expect(failed.errorCode == "INVALID_SESSION_INFO")
            }
            let lookup = try await api.call(
                .post, Path.v1 + "/accounts:lookup", body: #"{"phoneNumber":["\#(alice)"]}"#, headers: [.authorization: "Bearer owner"])
            #expect(lookup["users"]?.arrayValue?.count == 1)
        }
    }

    @Test("concurrent first sign-ins of one number through two sessions create one account")
    func concurrentNewUsers() async throws {
        try await withFlint { api in
            try await api.setTestNumbers([alice: "123456"])
            let sessions = [try await api.sendCode(alice), try await api.sendCode(alice)]
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for s in sessions { group.addTask { try await api.verify(s, code: "123456").string("localId") } }
                var all: [String?] = []
                for try await id in group { all.append(id) }
                return all
            }
            #expect(Set(ids.compactMap { $0 }).count == 1)
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Sessions per device")
struct DeviceSessionsTests {
    static let iPhone: HTTPFields = [
        .userAgent:
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
        .xForwardedFor: "203.0.113.1",
    ]
    static let windows: HTTPFields = [
        .userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        .xForwardedFor: "198.51.100.2",
    ]
    static let ownList = "/flint/v1/accounts/sessions:list"
    static let ownEnd = "/flint/v1/accounts/sessions:end"
    static let ownEndOthers = "/flint/v1/accounts/sessions:endOthers"
    static let email = "ada@example.com"

    /// A node that trusts `X-Forwarded-For`, so the tests choose each request's address.
    static func withNode(_ body: @escaping @Sendable (API, TestNode) async throws -> Void) async throws {
        let node = try await TestNode.make(configure: { $0.trustForwardedFor = true })
        try await node.run { api in try await body(api, node) }
    }

    /// A password sign-in of ``email`` with `headers`.
    static func session(_ api: API, _ headers: HTTPFields) async throws -> SignedIn {
        try API.signedIn(try await api.signInWithPassword(email, "correct horse", headers: headers))
    }

    static func sessions(_ api: API, _ idToken: String) async throws -> [JSONValue] {
        let reply = try await api.post(ownList, ["idToken": idToken])
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["sessions"]?.arrayValue ?? []
    }

    static func sessionID(_ signedIn: SignedIn) throws -> String {
        try #require(try JWT.payload(signedIn.idToken)["firebase"]?["session_id"]?.stringValue)
    }

    @Test("a sign-in records its device, addresses, times and method; the owner lists them, theirs marked current")
    func listing() async throws {
        try await Self.withNode { api, _ in
            _ = try await api.signUp(Self.email)
            let phone = try await Self.session(api, Self.iPhone)
            api.clock.advance(by: .seconds(60))
            let desk = try await Self.session(api, Self.windows)
            let list = try await Self.sessions(api, phone.idToken)
            #expect(list.count == 3, "sign-up's session too")
            let mine = try #require(list.first { $0["sessionId"]?.stringValue == (try? Self.sessionID(phone)) })
            #expect(mine["current"] == .bool(true))
            #expect(mine["device"] == "Safari on iPhone")
            #expect(mine["firstIp"] == "203.0.113.1" && mine["lastIp"] == "203.0.113.1")
            #expect(mine["signInProvider"] == "password")
            #expect(mine["createdAt"] == mine["lastUsedAt"])
            let other = try #require(list.first)
            #expect(other["sessionId"]?.stringValue == (try Self.sessionID(desk)), "most recently used first")
            #expect(other["device"] == "Chrome on Windows" && other["current"] == .bool(false))
            #expect(list.filter { $0["current"] == .bool(true) }.count == 1)
        }
    }

    @Test("ending a session refuses its refresh at once and its ID tokens where Flint checks them; the others live")
    func endOne() async throws {
        try await Self.withNode { api, _ in
            let first = try await api.signUp(Self.email)
            let lost = try await Self.session(api, Self.iPhone)
            let stranger = try await api.signUp("bob@example.com")
            let missing = try await api.post(Self.ownEnd, ["idToken": first.idToken, "sessionId": try Self.sessionID(stranger)])
            #expect(missing.errorCode == "SESSION_NOT_FOUND", "another account's session is not found")
            let ended = try await api.post(Self.ownEnd, ["idToken": first.idToken, "sessionId": try Self.sessionID(lost)])
            #expect(ended.status == .ok, "\(ended.text)")
            #expect(try await api.refresh(lost.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.lookup(lost.idToken).errorCode == "TOKEN_EXPIRED")
            let update = try await api.post(Path.v1 + "/accounts:update", ["idToken": lost.idToken, "displayName": "Mallory"])
            #expect(update.errorCode == "TOKEN_EXPIRED", "a write's locked re-read checks the session too")
            #expect(try await api.refresh(first.refreshToken).status == .ok)
            #expect(try await api.lookup(first.idToken).status == .ok)
            #expect(try await api.refresh(stranger.refreshToken).status == .ok)
            let again = try await api.post(Self.ownEnd, ["idToken": first.idToken, "sessionId": try Self.sessionID(lost)])
            #expect(again.errorCode == "SESSION_NOT_FOUND")
            let events = try await api.auditEvents("kind=SESSION_ENDED")
            #expect(events.count == 1)
            #expect(events.first?["detail"] == ["session": .string(try Self.sessionID(lost)), "by": "owner"])
            #expect(events.first?["localId"]?.stringValue == first.localId)
        }
    }

    @Test("signing out everywhere else keeps the current session")
    func endOthers() async throws {
        try await Self.withNode { api, _ in
            let first = try await api.signUp(Self.email)
            let second = try await Self.session(api, Self.iPhone)
            let third = try await Self.session(api, Self.windows)
            let reply = try await api.post(Self.ownEndOthers, ["idToken": second.idToken])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply["endedCount"] == .number(2))
            #expect(try await api.refresh(first.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.refresh(third.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.refresh(second.refreshToken).status == .ok)
            #expect(try await Self.sessions(api, second.idToken).map { $0["sessionId"]?.stringValue } == [try Self.sessionID(second)])
            let events = try await api.auditEvents("kind=OTHER_SESSIONS_ENDED")
            #expect(events.first?["detail"]?["count"] == .number(2) && events.first?["detail"]?["by"] == "owner")
        }
    }

    @Test("a refresh writes a session's use only when the recorded one is ten minutes old or the address changed")
    func lastUseThreshold() async throws {
        try await Self.withNode { api, node in
            let first = try await api.signUp(Self.email)
            let activity = node.server.flows.sessions.activity
            let stored = { () async throws -> RefreshTokenRecord in
                try await activity.flush(to: node.store)
                return try #require(try await node.store.read { try await $0.sessions(tenant: .default, localID: first.localId) }.first)
            }
            let created = try await stored()
            api.clock.advance(by: .seconds(300))
            #expect(try await api.post(Path.token, ["grant_type": "refresh_token", "refresh_token": first.refreshToken]).status == .ok)
            #expect(try await stored().lastUsedAt == created.lastUsedAt, "within ten minutes from the same address: nothing written")
            api.clock.advance(by: .seconds(301))
            #expect(try await api.refresh(first.refreshToken).status == .ok)
            let moved = try await stored()
            #expect(moved.lastUsedAt == api.clock.now() && moved.lastIP == nil)
            api.clock.advance(by: .seconds(5))
            let fromPhone = try await api.post(
                Path.token, ["grant_type": "refresh_token", "refresh_token": first.refreshToken], headers: Self.iPhone)
            #expect(fromPhone.status == .ok)
            let roamed = try await stored()
            #expect(roamed.lastIP == "203.0.113.1" && roamed.lastUsedAt == api.clock.now() && roamed.firstIP == nil)
        }
    }

    @Test("idle and absolute lifetimes (off by default) refuse a refresh with TOKEN_EXPIRED and drop out of the listing")
    func lifetimes() async throws {
        try await Self.withNode { api, node in
            let old = try await api.signUp(Self.email)
            api.clock.advance(by: .seconds(400 * 86_400))
            #expect(try await api.refresh(old.refreshToken).status == .ok, "no lifetime by default")
            let patch = try await api.admin(
                .patch, Path.config + "?updateMask=flint.sessions", body: #"{"flint":{"sessions":{"idleTimeout":"7200s"}}}"#)
            #expect(patch.status == .ok, "\(patch.text)")
            let activity = node.server.flows.sessions.activity
            let idle = try await Self.session(api, [:])
            for _ in 0..<3 {
                api.clock.advance(by: .seconds(6_000))
                #expect(try await api.refresh(idle.refreshToken).status == .ok, "used within the idle timeout")
                try await activity.flush(to: node.store)
            }
            api.clock.advance(by: .seconds(7_201))
            #expect(try await api.refresh(idle.refreshToken).errorCode == "TOKEN_EXPIRED")

            let absolute = try await api.admin(
                .patch, Path.config + "?updateMask=flint.sessions", body: #"{"flint":{"sessions":{"absoluteLifetime":"10800s"}}}"#)
            #expect(absolute.status == .ok, "\(absolute.text)")
            let bounded = try await Self.session(api, [:])
            api.clock.advance(by: .seconds(7_200))
            let renewed = try #require(try await api.refresh(bounded.refreshToken).string("id_token"))
            #expect(try await Self.sessions(api, renewed).contains { $0["current"] == .bool(true) })
            api.clock.advance(by: .seconds(3_601))
            #expect(try await api.refresh(bounded.refreshToken).errorCode == "TOKEN_EXPIRED")
            let listed = try await api.admin(.get, "/flint/v1/projects/\(project)/accounts/\(bounded.localId)/sessions")
            #expect(listed["sessions"]?.arrayValue?.contains { $0["sessionId"]?.stringValue == (try? Self.sessionID(bounded)) } == false)

            let refused = try await api.admin(
                .patch, Path.config + "?updateMask=flint.sessions", body: #"{"flint":{"sessions":{"idleTimeout":"600s"}}}"#)
            #expect(refused.status == .badRequest, "shorter than an ID token's life")
        }
    }

    @Test("operators list an account's sessions and end one, audited as the operator's")
    func admin() async throws {
        try await Self.withNode { api, _ in
            let first = try await api.signUp(Self.email)
            let second = try await Self.session(api, Self.windows)
            let base = "/flint/v1/projects/\(project)/accounts/\(first.localId)/sessions"
            let listed = try await api.admin(.get, base)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(listed["sessions"]?.arrayValue?.count == 2)
            #expect(listed["sessions"]?.arrayValue?.first?["current"] == nil, "the operator has no session among them")
            #expect(try await api.call(.get, base + "?key=k").status != .ok, "an API key is no operator")
            let ended = try await api.admin(.delete, "\(base)/\(try Self.sessionID(second))")
            #expect(ended.status == .ok, "\(ended.text)")
            #expect(try await api.refresh(second.refreshToken).errorCode == "TOKEN_EXPIRED")
            #expect(try await api.admin(.delete, "\(base)/\(try Self.sessionID(second))").errorCode == "SESSION_NOT_FOUND")
            #expect(try await api.admin(.get, "/flint/v1/projects/\(project)/accounts/nobody/sessions").errorCode == "USER_NOT_FOUND")
            let events = try await api.auditEvents("kind=SESSION_ENDED")
            #expect(events.first?["detail"]?["by"] == "operator" && events.first?["actor"] == "owner")
        }
    }

    @Test("revoking an account's sessions ends every listed session; the next sign-in is the only one")
    func revocation() async throws {
        try await Self.withNode { api, _ in
            let first = try await api.signUp(Self.email)
            _ = try await Self.session(api, Self.windows)
            let revoke = try await api.admin(
                .post, Path.v1 + "/projects/\(project)/accounts:update",
                body: #"{"localId":"\#(first.localId)","validSince":"\#(api.clock.now().secondsSince1970)"}"#)
            #expect(revoke.status == .ok, "\(revoke.text)")
            let fresh = try await Self.session(api, Self.iPhone)
            #expect(try await Self.sessions(api, fresh.idToken).count == 1)
        }
    }
}

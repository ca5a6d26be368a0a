import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import JWTKit
import Testing

@testable import FlintServer

/// The claims of a session cookie, as a JWT library checks them.
struct SessionCookiePayload: JWTPayload {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var sub: SubjectClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: project)
    }
}

@Suite("Session cookies: createSessionCookie and the session-cookie keys")
struct SessionCookieTests {
    /// `createSessionCookie` as an operator.
    func create(_ api: API, _ fields: String) async throws -> Reply {
        try await api.admin(.post, Path.sessionCookie, body: fields)
    }

    @Test("a cookie carries the ID token's claims with the session issuer and its own lifetime, and verifies with both key forms")
    func creates() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let reply = try await create(api, #"{"idToken":"\#(user.idToken)","validDuration":"3600"}"#)
            #expect(reply.status == .ok, "\(reply.text)")
            let cookie = try #require(reply.string("sessionCookie"))
            let claims = try JWT.payload(cookie)
            let idClaims = try JWT.payload(user.idToken)
            #expect(claims["iss"] == .string("https://session.firebase.google.com/\(project)"))
            #expect(claims["aud"] == .string(project))
            #expect(claims["sub"] == .string(user.localId) && claims["user_id"] == .string(user.localId))
            #expect(claims["auth_time"] == idClaims["auth_time"])
            #expect(claims["phone_number"] == .string(alice))
            #expect(claims["firebase"] == idClaims["firebase"])
            let iat = try #require(claims["iat"]?.intValue)
            #expect(claims["exp"]?.intValue == iat + 3600)
            #expect(try JWT.header(cookie)["alg"] == "RS256")

            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: try await api.call(.get, API.keyed(Path.cookieJWKS)).text)
            let verified = try await keys.verify(cookie, as: SessionCookiePayload.self)
            #expect(verified.sub.value == user.localId)
            let x509 = try await api.call(.get, Path.cookieX509)
            #expect(x509.status == .ok)
            let kid = try #require(try JWT.header(cookie)["kid"]?.stringValue)
            #expect(x509.json[kid]?.stringValue?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
            #expect(x509.json == (try await api.call(.get, Path.x509)).json, "ID tokens and cookies share their keys")
        }
    }

    @Test("without validDuration a cookie lives 14 days, as the emulator's")
    func defaultDuration() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let claims = try JWT.payload(try #require(try await create(api, #"{"idToken":"\#(user.idToken)"}"#).string("sessionCookie")))
            #expect(try #require(claims["exp"]?.intValue) - (try #require(claims["iat"]?.intValue)) == 1_209_600)
        }
    }

    @Test(
        "refusals",
        arguments: [
            ("no ID token", #"{"validDuration":"3600"}"#, "MISSING_ID_TOKEN"),
            ("under 5 minutes", #"{"idToken":"ID","validDuration":"299"}"#, "INVALID_DURATION"),
            ("over 14 days", #"{"idToken":"ID","validDuration":1209601}"#, "INVALID_DURATION"),
            ("a token that is not one", #"{"idToken":"abc","validDuration":"3600"}"#, "INVALID_ID_TOKEN"),
        ])
    func refusals(_ name: String, _ body: String, _ code: String) async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let reply = try await create(api, body.replacingOccurrences(of: "\"ID\"", with: "\"\(user.idToken)\""))
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == code, "\(reply.text)")
        }
    }

    @Test("only the operator of this project may create cookies")
    func operatorOnly() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let body = #"{"idToken":"\#(user.idToken)"}"#
            #expect(try await api.postRaw(Path.sessionCookie, body).status == .forbidden, "an API key is not enough")
            #expect(try await api.call(.post, Path.sessionCookie, body: body).status == .forbidden)
            let other = try await api.admin(.post, "\(Path.v1)/projects/other-project:createSessionCookie", body: body)
            #expect(other.status == .notFound)
        }
    }

    @Test("a revoked session gets no cookie; a later one gets one carrying the new revocation generation")
    func revocation() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let now = api.clock.now().secondsSince1970
            #expect(try await api.adminUpdate(["localId": user.localId, "validSince": String(now)]).status == .ok)
            #expect(try await create(api, #"{"idToken":"\#(user.idToken)"}"#).errorCode == "TOKEN_EXPIRED")
            let again = try await api.signIn(alice)
            let cookie = try #require(try await create(api, #"{"idToken":"\#(again.idToken)"}"#).string("sessionCookie"))
            #expect(try JWT.payload(cookie)["firebase"]?["revocation_generation"] == .number(1))
        }
    }
}

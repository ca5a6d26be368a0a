import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Tokens: ID-token claims and the refresh grant")
struct TokenRefreshTests {
    @Test("the ID token carries Firebase's claims for a phone sign-in, with a kid header")
    func idTokenClaims() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let header = try JWT.header(signedIn.idToken)
            #expect(header["alg"]?.stringValue == "RS256")
            #expect(header["typ"]?.stringValue == "JWT")
            #expect(header["kid"]?.stringValue?.isEmpty == false)

            let claims = try JWT.payload(signedIn.idToken)
            #expect(claims["iss"]?.stringValue == "https://securetoken.google.com/\(project)")
            #expect(claims["aud"]?.stringValue == project)
            #expect(claims["sub"]?.stringValue == signedIn.localId)
            #expect(claims["user_id"]?.stringValue == signedIn.localId)
            #expect(claims["phone_number"]?.stringValue == alice)
            #expect(claims["firebase"]?["identities"]?["phone"] == .array([.string(alice)]))
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "phone")
            let iat = try #require(claims["iat"]?.intValue)
            let exp = try #require(claims["exp"]?.intValue)
            #expect(exp - iat == 3600)
            #expect(iat == api.clock.now().secondsSince1970)
            #expect(claims["auth_time"]?.intValue == iat)
        }
    }

    @Test("a JSON refresh answers Secure Token's snake_case fields with string-typed expires_in")
    func refreshJSON() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            api.clock.advance(by: .seconds(600))
            let reply = try await api.refresh(signedIn.refreshToken)
            #expect(reply.status == .ok, "\(reply.text)")
            let idToken = try #require(reply.string("id_token"))
            #expect(reply.string("access_token") == idToken)
            #expect(reply["expires_in"] == .string("3600"))
            #expect(reply.string("token_type") == "Bearer")
            #expect(reply.string("refresh_token")?.isEmpty == false)
            #expect(reply.string("user_id") == signedIn.localId)
            #expect(reply.string("project_id")?.isEmpty == false)

            let claims = try JWT.payload(idToken)
            #expect(claims["sub"]?.stringValue == signedIn.localId)
            #expect(claims["phone_number"]?.stringValue == alice)
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "phone")
            // A fresh token: issued now, but the session's auth_time is the sign-in.
            let original = try JWT.payload(signedIn.idToken)
            #expect(claims["iat"]?.intValue == (original["iat"]?.intValue ?? 0) + 600)
            #expect(claims["auth_time"] == original["auth_time"])

            // The refreshed ID token is accepted.
            #expect(try await api.lookup(idToken).status == .ok)
        }
    }

    @Test("a form-encoded refresh works like a JSON one")
    func refreshForm() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let token = signedIn.refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let reply = try await api.postRaw(
                Path.token, "grant_type=refresh_token&refresh_token=\(token)", contentType: "application/x-www-form-urlencoded"
            )
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("user_id") == signedIn.localId)
            #expect(reply["expires_in"] == .string("3600"))
            #expect(reply.string("token_type") == "Bearer")
        }
    }

    @Test("camelCase grantType/refreshToken are accepted too")
    func refreshCamelCase() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.post(Path.token, ["grantType": "refresh_token", "refreshToken": signedIn.refreshToken])
            #expect(reply.status == .ok)
        }
    }

    @Test("a refresh token keeps working after its ID token has expired")
    func refreshAfterExpiry() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            api.clock.advance(by: .seconds(2 * 3600))
            let reply = try await api.refresh(signedIn.refreshToken)
            #expect(reply.status == .ok)
            #expect(try await api.lookup(try #require(reply.string("id_token"))).status == .ok)
        }
    }

    static let badGrants: [ErrorCase] = [
        ErrorCase("no grant type", body: #"{"refresh_token":"x"}"#, code: "MISSING_GRANT_TYPE"),
        ErrorCase("empty body", body: "{}", code: "MISSING_GRANT_TYPE"),
        ErrorCase("wrong grant type", body: #"{"grant_type":"authorization_code","refresh_token":"x"}"#, code: "INVALID_GRANT_TYPE"),
        ErrorCase("no refresh token", body: #"{"grant_type":"refresh_token"}"#, code: "MISSING_REFRESH_TOKEN"),
        ErrorCase("unknown refresh token", body: #"{"grant_type":"refresh_token","refresh_token":"AMf-nope"}"#, code: "INVALID_REFRESH_TOKEN"),
        ErrorCase(
            "huge refresh token", body: #"{"grant_type":"refresh_token","refresh_token":"\#(String(repeating: "a", count: 4000))"}"#,
            code: "INVALID_REFRESH_TOKEN"
        ),
    ]

    @Test("bad refresh requests get Secure Token's error codes", arguments: badGrants)
    func badRefresh(_ row: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.token, row.body)
            #expect(Int(reply.status.code) == row.status)
            #expect(reply.errorCode == row.code, "\(reply.text)")
        }
    }

    @Test("a refresh after the account is deleted is USER_NOT_FOUND")
    func refreshAfterDelete() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            #expect(try await api.post(Path.delete, ["idToken": signedIn.idToken]).status == .ok)
            let reply = try await api.refresh(signedIn.refreshToken)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "USER_NOT_FOUND", "\(reply.text)")
        }
    }

    @Test("a forged token naming a deleted user is INVALID_REFRESH_TOKEN, not USER_NOT_FOUND")
    func forgedTokenForDeletedUser() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            #expect(try await api.post(Path.delete, ["idToken": signedIn.idToken]).status == .ok)
            let forged = "AMf-" + Base64URL.encode([UInt8](repeating: 7, count: 32) + Array(signedIn.localId.utf8) + [UInt8](repeating: 1, count: 16))
            let reply = try await api.refresh(forged)
            #expect(reply.errorCode == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("refresh needs an API key")
    func refreshNeedsKey() async throws {
        try await withFlint { api in
            let signedIn = try await api.signIn(alice)
            let reply = try await api.call(
                .post, Path.token, body: try API.json(["grant_type": "refresh_token", "refresh_token": signedIn.refreshToken])
            )
            #expect(reply.status == .forbidden)
        }
    }
}

import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Custom tokens: signInWithCustomToken and verifyCustomToken")
struct CustomTokenTests {
    /// A node that knows ``TestKeys/known``.
    func withKnownKey<T: Sendable>(
        configure: (inout ServerSettings) -> Void = { _ in }, _ body: @escaping @Sendable (API, TestNode) async throws -> T
    ) async throws -> T {
        let node = try await TestNode.make(configure: configure)
        try await node.know(TestKeys.known)
        return try await node.run { api in try await body(api, node) }
    }

    @Test(
        "a signed token creates the account, then signs it in again; sessions carry provider custom",
        arguments: [Path.customTokenV1, Path.customTokenV3])
    func signsIn(_ path: String) async throws {
        try await withKnownKey { api, _ in
            let first = try await api.signInWithCustomToken(try api.customToken("user-1"), path: path)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.string("kind") == "identitytoolkit#VerifyCustomTokenResponse")
            #expect(first["isNewUser"] == .bool(true))
            #expect(first["localId"] == nil, "Firebase's answer has no localId")
            #expect(first.string("expiresIn") == "3600")
            let idToken = try #require(first.string("idToken"))
            let claims = try JWT.payload(idToken)
            #expect(claims["sub"] == "user-1")
            #expect(claims["firebase"]?["sign_in_provider"] == "custom")
            let again = try await api.signInWithCustomToken(try api.customToken("user-1"), path: path)
            #expect(again["isNewUser"] == .bool(false))
            let lookup = try await api.lookup(try #require(again.string("idToken")))
            #expect(lookup.json["users"]?.arrayValue?.first?["localId"] == "user-1")
            #expect(try await api.refresh(try #require(first.string("refreshToken"))).status == .ok)
        }
    }

    @Test("developer claims are in the ID token, over the account's own claims, and in refreshed ID tokens")
    func developerClaims() async throws {
        try await withKnownKey { api, _ in
            _ = try await api.signInWithCustomToken(try api.customToken("claimed"))
            let set = try await api.adminUpdate(["localId": "claimed", "customAttributes": #"{"role":"admin","team":"red"}"#])
            #expect(set.status == .ok, "\(set.text)")
            let reply = try await api.signInWithCustomToken(try api.customToken("claimed", claims: ["premium": true, "team": "blue"]))
            let claims = try JWT.payload(try #require(reply.string("idToken")))
            #expect(claims["premium"] == .bool(true))
            #expect(claims["team"] == "blue", "the token's claims win over the account's")
            #expect(claims["role"] == "admin")
            let refreshed = try await api.refresh(try #require(reply.string("refreshToken")))
            let again = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(again["premium"] == .bool(true) && again["team"] == "blue" && again["role"] == "admin")
        }
    }

    @Test("refusals, with Firebase's codes", arguments: CustomTokenRefusal.all)
    func refusals(_ refusal: CustomTokenRefusal) async throws {
        try await withKnownKey { api, _ in
            let reply = try await api.postRaw(Path.customTokenV1, try refusal.body(api))
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == refusal.code, "\(reply.text)")
        }
    }

    @Test("a revoked service account's tokens are refused")
    func revoked() async throws {
        let node = try await TestNode.make()
        try await node.know(TestKeys.known, revokedAt: 5)
        try await node.run { api in
            let reply = try await api.signInWithCustomToken(try api.customToken("u"))
            #expect(reply.errorCode == "INVALID_CUSTOM_TOKEN")
        }
    }

    @Test("a disabled account is USER_DISABLED")
    func disabled() async throws {
        try await withKnownKey { api, _ in
            _ = try await api.signInWithCustomToken(try api.customToken("off"))
            #expect(try await api.adminUpdate(["localId": "off", "disableUser": "true"]).status == .ok)
            #expect(try await api.signInWithCustomToken(try api.customToken("off")).errorCode == "USER_DISABLED")
        }
    }

    @Test("dev mode takes unsigned tokens as the emulator does (alg none, plain JSON); production refuses them")
    func unsigned() async throws {
        let none = CustomToken.unsigned(payload: ["aud": .string(CustomToken.audience), "uid": "dev-user", "claims": ["x": .number(1)]])
        try await withFlint { api in
            let reply = try await api.signInWithCustomToken(none)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try JWT.payload(try #require(reply.string("idToken")))["x"] == .number(1))
            let json = try await api.postRaw(Path.customTokenV1, #"{"token":"{\"uid\":\"json-user\"}"}"#)
            #expect(json.status == .ok, "\(json.text)")
        }
        try await withFlint(configure: { $0.devMode = false }) { api in
            let reply = try await api.signInWithCustomToken(none)
            #expect(reply.errorCode == "INVALID_CUSTOM_TOKEN")
        }
    }

    @Test("second factors: a custom token gets tokens for an enrolled account and in a MANDATORY project, as in Firebase")
    func secondFactors() async throws {
        try await withKnownKey { api, node in
            try await api.enableMFA(state: "MANDATORY")
            let fresh = try await api.signInWithCustomToken(try api.customToken("mandatory"))
            #expect(fresh.string("idToken") != nil && fresh["mfaPendingCredential"] == nil, "\(fresh.text)")
            try await node.store.write { tx in
                try await tx.insertMFAEnrollment(
                    MFAEnrollmentRecord(enrollmentID: "e1", localID: "mandatory", factor: .phone, displayName: nil, phoneNumber: alice, enrolledAt: 1)
                )
            }
            let enrolled = try await api.signInWithCustomToken(try api.customToken("mandatory"))
            #expect(enrolled.string("idToken") != nil && enrolled["mfaPendingCredential"] == nil, "\(enrolled.text)")
        }
    }

    @Test("an operator's revocation ends a custom-token session, in the same second")
    func revocation() async throws {
        try await withKnownKey { api, _ in
            let reply = try await api.signInWithCustomToken(try api.customToken("rev"))
            let session = try API.signedIn(reply, localId: "rev")
            let now = api.clock.now().secondsSince1970
            #expect(try await api.adminUpdate(["localId": "rev", "validSince": String(now)]).status == .ok)
            try await api.expectRevoked(session, "a session minted before the revocation")
        }
    }
}

/// A refused custom token and the code Firebase answers.
struct CustomTokenRefusal: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let code: String
    let body: @Sendable (API) throws -> String

    init(_ name: String, _ code: String, token: @escaping @Sendable (API) throws -> String) {
        (testDescription, self.code) = (name, code)
        body = { api in #"{"token":"\#(try token(api))"}"# }
    }

    init(_ name: String, _ code: String, body: String) {
        (testDescription, self.code, self.body) = (name, code, { _ in body })
    }

    static let all: [CustomTokenRefusal] = [
        .init("no token", "MISSING_CUSTOM_TOKEN", body: "{}"),
        .init("an empty token", "MISSING_CUSTOM_TOKEN", body: #"{"token":""}"#),
        .init("not a JWT", "INVALID_CUSTOM_TOKEN", body: #"{"token":"abc.def"}"#),
        .init("another service account's token", "CREDENTIAL_MISMATCH") { try $0.customToken("u", key: TestKeys.unknown) },
        .init("signed by another key under the known account's name", "INVALID_CUSTOM_TOKEN") { api in
            try CustomToken.sign(
                uid: "u", clientEmail: TestKeys.known.clientEmail, keyID: TestKeys.known.keyID, privateKeyPEM: TestKeys.unknown.privateKeyPEM,
                now: api.clock.now().secondsSince1970)
        },
        .init("a kid the account does not have", "INVALID_CUSTOM_TOKEN") { api in
            try CustomToken.sign(
                uid: "u", clientEmail: TestKeys.known.clientEmail, keyID: "0000", privateKeyPEM: TestKeys.known.privateKeyPEM,
                now: api.clock.now().secondsSince1970)
        },
        .init("expired", "INVALID_CUSTOM_TOKEN") { api in
            try CustomToken.sign(
                uid: "u", clientEmail: TestKeys.known.clientEmail, keyID: TestKeys.known.keyID, privateKeyPEM: TestKeys.known.privateKeyPEM,
                now: api.clock.now().secondsSince1970 - 3601)
        },
        .init("living over an hour", "INVALID_CUSTOM_TOKEN") { try $0.customToken("u", lifetime: 7200) },
        .init("another audience (an ID token's)", "INVALID_CUSTOM_TOKEN") { try $0.customToken("u", extra: ["aud": .string(project)]) },
        .init("sub other than iss", "INVALID_CUSTOM_TOKEN") { try $0.customToken("u", extra: ["sub": "x@y.z"]) },
        .init("a uid over 128 characters", "INVALID_CUSTOM_TOKEN") { try $0.customToken(String(repeating: "u", count: 129)) },
        .init("no uid", "MISSING_IDENTIFIER") { try $0.customToken("") },
        .init("a reserved claim", "FORBIDDEN_CLAIM") { try $0.customToken("u", claims: ["auth_time": .number(1)]) },
        .init("claims over 1000 bytes", "CLAIMS_TOO_LARGE") { try $0.customToken("u", claims: ["x": .string(String(repeating: "x", count: 1000))]) },
        .init("claims that are not an object", "INVALID_CLAIMS") { try $0.customToken("u", extra: ["claims": "text"]) },
        .init("a tenant", "TENANT_ID_MISMATCH") { try $0.customToken("u", extra: ["tenant_id": "t-1"]) },
        .init("HS256", "INVALID_CUSTOM_TOKEN") { api in
            let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
            return header + "." + Base64URL.encode(Array(#"{"uid":"u"}"#.utf8)) + ".c2lnbmF0dXJl"
        },
    ]
}

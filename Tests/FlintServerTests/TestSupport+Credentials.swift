import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Service-account keys for the suites (2048-bit generation is slow in debug builds): the one the test node knows,
/// and one it does not.
enum TestKeys {
    static let known = generate("backend")
    static let unknown = generate("stranger")

    private static func generate(_ name: String) -> ServiceAccountKey {
        do { return try ServiceAccountKey.generate(name: name, projectID: project, random: SystemRandom()) } catch {
            preconditionFailure("key generation failed: \(error)")
        }
    }
}

extension Path {
    static let customTokenV1 = "\(v1)/accounts:signInWithCustomToken"
    static let customTokenV3 = "\(v3)/verifyCustomToken"
    static let sessionCookie = "\(v1)/projects/\(project):createSessionCookie"
    static let cookieX509 = "\(v3)/publicKeys"
    static let cookieJWKS = "\(v1)/sessionCookiePublicKeys"
    static let emulatorConfig = "/emulator/v1/projects/\(project)/config"
}

extension TestNode {
    /// Makes `key` a service account the node knows (as `flint admin service-accounts create` does).
    func know(_ key: ServiceAccountKey, revokedAt: Instant? = nil) async throws {
        let record = ServiceAccountRecord(
            keyID: key.keyID, name: key.name, clientEmail: key.clientEmail, clientID: key.clientID, publicKeyPEM: key.publicKeyPEM, createdAt: 1,
            revokedAt: revokedAt)
        try await store.write { tx in try await tx.insertServiceAccount(record) }
    }

    /// Stores a named admin credential and returns its secret (as `flint admin tokens create` does).
    func adminCredential(_ name: String, scope: AdminScope) async throws -> String {
        let secret = AdminSecret.generate(random: SystemRandom())
        let record = AdminCredentialRecord(secretHash: AdminSecret.hash(secret), name: name, scope: scope, createdAt: 1)
        try await store.write { tx in try await tx.insertAdminCredential(record) }
        return secret
    }
}

extension API {
    /// A custom token signed with `key` at the clock's time, as `create_custom_token` makes one.
    func customToken(
        _ uid: String, claims: [String: JSONValue]? = nil, key: ServiceAccountKey = TestKeys.known, lifetime: Int64 = 3600,
        extra: [String: JSONValue] = [:]
    ) throws -> String {
        try CustomToken.sign(
            uid: uid, claims: claims, clientEmail: key.clientEmail, keyID: key.keyID, privateKeyPEM: key.privateKeyPEM,
            now: clock.now().secondsSince1970, lifetime: lifetime, extra: extra)
    }

    /// `signInWithCustomToken` with `token`.
    func signInWithCustomToken(_ token: String, path: String = Path.customTokenV1) async throws -> Reply {
        try await postRaw(path, #"{"token":"\#(token)","returnSecureToken":true}"#)
    }

    /// A request with `Authorization: Bearer <secret>`.
    func bearer(_ secret: String, _ method: HTTPRequest.Method, _ path: String, body: String? = nil) async throws -> Reply {
        try await call(method, path, body: body, headers: [.authorization: "Bearer \(secret)"])
    }
}

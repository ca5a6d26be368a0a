import Crypto
import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// Sign in with Apple and Google through the SDK against `flint serve`, whose Apple and Google key addresses point at
/// a stand-in on loopback (`--idp-stand-in`, dev mode only) publishing the test's own RSA key.
@Suite("OAuth sign-in against flint serve")
struct OAuthFlowTests {
    static let bundleID = "com.example.flint"
    static let googleClientID = "1234-abc.apps.googleusercontent.com"

    /// A provider ID token signed with `key`.
    static func token(_ claims: [String: JSONValue], key: SigningKey) throws -> String {
        let header: JSONValue = ["alg": "RS256", "kid": .string(key.kid), "typ": "JWT"]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    static func appleToken(sub: String, email: String, rawNonce: String, key: SigningKey) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let nonce = SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
        return try token(
            [
                "iss": "https://appleid.apple.com", "aud": .string(bundleID), "sub": .string(sub), "email": .string(email),
                "email_verified": "true", "is_private_email": "true", "nonce": .string(nonce), "iat": .number(Double(now)),
                "exp": .number(Double(now + 600)), "auth_time": .number(Double(now)),
            ], key: key)
    }

    static func googleToken(sub: String, email: String, verified: Bool, key: SigningKey) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try token(
            [
                "iss": "https://accounts.google.com", "aud": .string(googleClientID), "azp": .string(googleClientID), "sub": .string(sub),
                "email": .string(email), "email_verified": .bool(verified), "name": "Ada Lovelace",
                "iat": .number(Double(now)), "exp": .number(Double(now + 600)),
            ], key: key)
    }

    /// Enables a provider through the admin API, as `firebase-admin` would (with its client secret when given).
    static func enable(_ provider: String, clientID: String, secret: String? = nil, on server: FlintProcess) async throws {
        var body: JSONValue = [
            "name": .string("projects/demo-flint/defaultSupportedIdpConfigs/\(provider)"), "enabled": true, "clientId": .string(clientID),
        ]
        if let secret { body = .object((body.objectValue ?? [:]).merging(["clientSecret": .string(secret)]) { $1 }) }
        let (status, data) = try await server.send(
            "POST", "/identitytoolkit.googleapis.com/v2/projects/demo-flint/defaultSupportedIdpConfigs?idpId=\(provider)",
            body: Data(body.serialized()), headers: ["Authorization": "Bearer owner"])
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test("Apple: first sign-in keeps the name; again: the same account; link, re-authenticate and unlink Google; needConfirmation")
    func appleAndGoogle() async throws {
        let key = try SigningKey.generate(now: Instant(Date()), random: SystemRandom())
        let jwks = String(
            decoding: JSONValue.object(["keys": .array([.object(try key.jwk().mapValues(JSONValue.string))])]).serialized(), as: UTF8.self)
        let standIn = try ScriptedHTTPServer(script: Array(repeating: .status(200, jwks), count: 40))
        defer { standIn.stop() }
        let origin = "http://127.0.0.1:\(standIn.port)"
        try await withFlint(extraArguments: ["--idp-stand-in", "apple.com=\(origin)", "--idp-stand-in", "google.com=\(origin)"]) { server in
            try await Self.enable("apple.com", clientID: Self.bundleID, on: server)
            try await Self.enable("google.com", clientID: Self.googleClientID, on: server)
            let auth = server.makeAuth()
            var name = PersonNameComponents()
            (name.givenName, name.familyName) = ("Zeynep", "Kaya")
            let relay = "x7\(UUID().uuidString.prefix(6).lowercased())@privaterelay.appleid.com"
            let first = try await auth.signIn(
                with: OAuthProvider.appleCredential(
                    withIDToken: try Self.appleToken(sub: "001.apple", email: relay, rawNonce: "raw-1", key: key), rawNonce: "raw-1", fullName: name))
            #expect(first.additionalUserInfo?.providerID == "apple.com" && first.additionalUserInfo?.isNewUser == true)
            #expect(first.user.email == relay && first.user.displayName == "Zeynep Kaya")
            #expect(first.user.providerData.contains { $0.providerID == "apple.com" })
            let uid = first.user.uid
            try auth.signOut()

            // Apple gives the name only once: the second sign-in keeps it.
            let again = try await auth.signIn(
                with: OAuthProvider.appleCredential(
                    withIDToken: try Self.appleToken(sub: "001.apple", email: relay, rawNonce: "raw-2", key: key), rawNonce: "raw-2", fullName: nil))
            #expect(again.user.uid == uid && again.additionalUserInfo?.isNewUser == false && again.user.displayName == "Zeynep Kaya")

            // A token whose nonce is not the SHA-256 of the raw nonce sent is refused (MISSING_OR_INVALID_NONCE).
            await expectAuthError(.missingOrInvalidNonce, "a wrong nonce signed in") {
                try await auth.signIn(
                    with: OAuthProvider.appleCredential(
                        withIDToken: try Self.appleToken(sub: "001.apple", email: relay, rawNonce: "raw-3", key: key), rawNonce: "other",
                        fullName: nil))
            }

            // Link Google, re-authenticate with it, unlink it.
            let user = try #require(auth.currentUser)
            let google = GoogleAuthProvider.credential(
                withIDToken: try Self.googleToken(sub: "g-42", email: uniqueEmail(), verified: true, key: key), accessToken: "ya29.test")
            let linked = try await user.link(with: google)
            #expect(linked.user.providerData.contains { $0.providerID == "google.com" })
            let reauthenticated = try await user.reauthenticate(
                with: GoogleAuthProvider.credential(
                    withIDToken: try Self.googleToken(sub: "g-42", email: uniqueEmail(), verified: true, key: key), accessToken: "ya29.test"))
            #expect(reauthenticated.user.uid == uid)
            _ = try await user.unlink(fromProvider: "google.com")
            #expect(!user.providerData.contains { $0.providerID == "google.com" })
            try auth.signOut()

            // Another account has the email with a password; Google says it is unverified: confirmation needed.
            let email = uniqueEmail()
            _ = try await auth.createUser(withEmail: email, password: "correct horse battery")
            try auth.signOut()
            do {
                _ = try await auth.signIn(
                    with: GoogleAuthProvider.credential(
                        withIDToken: try Self.googleToken(sub: "g-77", email: email, verified: false, key: key), accessToken: "ya29.other"))
                Issue.record("an unverified email of another account signed in")
            } catch let error as NSError {
                #expect(error.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue, "\(error)")
                #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == email)
            }
            #expect(auth.currentUser == nil)
        }
    }
}

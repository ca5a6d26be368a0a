import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// Runs `flint ARGS…` to completion; returns its exit status and standard output.
func runFlintCommand(_ arguments: [String]) async throws -> (Int32, String) {
    let outcome = try await ChildProcess.run(FlintProcess.binary, arguments, mergingError: false)
    return (outcome.status, outcome.output)
}

extension FlintProcess {
    /// Creates a service account with `flint admin service-accounts create` in this server's data directory and
    /// returns its credential file's fields.
    func createServiceAccount(_ name: String) async throws -> [String: JSONValue] {
        let file = directory + "/\(name).json"
        let (status, output) = try await runFlintCommand([
            "admin", "service-accounts", "create", name, "--data", directory + "/data", "--output", file,
        ])
        guard status == 0 else { throw FlintProcessError(message: "service-accounts create failed: \(output)") }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let fields = try JSONValue(parsing: Array(text.utf8)).objectValue else { throw FlintProcessError(message: "not a JSON object") }
        return fields
    }
}

/// A custom token signed with a service-account file's key, as `create_custom_token` makes one.
func customToken(_ uid: String, file: [String: JSONValue], claims: [String: JSONValue]? = nil) throws -> String {
    guard let email = file["client_email"]?.stringValue, let keyID = file["private_key_id"]?.stringValue,
        let pem = file["private_key"]?.stringValue
    else { throw FlintProcessError(message: "incomplete service-account file") }
    return try CustomToken.sign(
        uid: uid, claims: claims, clientEmail: email, keyID: keyID, privateKeyPEM: pem, now: Int64(Date().timeIntervalSince1970))
}

@Suite("Custom tokens against flint serve")
struct CustomTokenFlowTests {
    @Test("signIn(withCustomToken:) with a token signed by a service account the CLI created: a new user, then the same")
    func signedToken() async throws {
        try await withFlint { server in
            let file = try await server.createServiceAccount("sdk-backend")
            #expect(file["client_email"] == "sdk-backend@demo-flint.iam.gserviceaccount.com")
            let auth = server.makeAuth()
            let result = try await auth.signIn(withCustomToken: try customToken("custom-uid-1", file: file, claims: ["premium": true]))
            #expect(result.user.uid == "custom-uid-1")
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(result.additionalUserInfo?.providerID == "", "as FirebaseAuth's")
            #expect(auth.currentUser === result.user)
            let token = try await result.user.getIDTokenResult()
            #expect(token.signInProvider == "custom")
            #expect(token.claims["premium"] as? Bool == true)
            let refreshed = try await result.user.getIDTokenResult(forcingRefresh: true)
            #expect(refreshed.claims["premium"] as? Bool == true, "a refreshed token keeps the custom token's claims")

            try auth.signOut()
            let again: AuthDataResult = try await withCheckedThrowingContinuation { continuation in
                do {
                    auth.signIn(withCustomToken: try customToken("custom-uid-1", file: file)) { result, error in
                        if let result { continuation.resume(returning: result) } else { continuation.resume(throwing: error ?? CancellationError()) }
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            #expect(again.user.uid == "custom-uid-1")
            #expect(again.additionalUserInfo?.isNewUser == false)
        }
    }

    @Test("an unsigned token, as the Admin SDKs make them for the emulator, signs in against a dev-mode server")
    func unsignedToken() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let token = CustomToken.unsigned(payload: ["aud": .string(CustomToken.audience), "uid": "dev-uid"])
            let result = try await auth.signIn(withCustomToken: token)
            #expect(result.user.uid == "dev-uid")
        }
    }

    @Test("an imported account's federated providers are in providerData, and unlinking one removes it")
    func importedFederatedProviders() async throws {
        try await withFlint { server in
            let user: [String: Any] = [
                "localId": "imported-google", "email": "ada@example.com",
                "providerUserInfo": [
                    [
                        "providerId": "google.com", "rawId": "1093", "email": "ada@gmail.com", "displayName": "Ada G",
                        "photoUrl": "https://example.com/g.png",
                    ]
                ],
            ]
            let (status, body) = try await server.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:batchCreate",
                body: try JSONSerialization.data(withJSONObject: ["users": [user]]), headers: ["Authorization": "Bearer owner"])
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            let auth = server.makeAuth()
            let token = CustomToken.unsigned(payload: ["aud": .string(CustomToken.audience), "uid": "imported-google"])
            let signedIn = try await auth.signIn(withCustomToken: token).user
            let google = try #require(signedIn.providerData.first { $0.providerID == "google.com" })
            #expect(google.uid == "1093")
            #expect(google.email == "ada@gmail.com")
            #expect(google.displayName == "Ada G")
            #expect(google.photoURL?.absoluteString == "https://example.com/g.png")
            #expect(!signedIn.isAnonymous)
            try await signedIn.unlink(fromProvider: "google.com")
            #expect(signedIn.providerData.isEmpty)
        }
    }

    @Test("a malformed token is invalidCustomToken; one from a service account the server does not know is customTokenMismatch")
    func errors() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            await expectAuthError(.invalidCustomToken, "a malformed token was accepted") { try await auth.signIn(withCustomToken: "not.a.token") }
            let stranger = try ServiceAccountKey.generate(name: "stranger", projectID: "demo-flint", random: SystemRandom())
            let file = try #require(try JSONValue(parsing: Array(stranger.fileJSON.utf8)).objectValue)
            await expectAuthError(.customTokenMismatch, "an unknown service account's token was accepted") {
                try await auth.signIn(withCustomToken: try customToken("u", file: file))
            }
            #expect(auth.currentUser == nil)
        }
    }
}

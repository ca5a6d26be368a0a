import FlintAuthTestSupport
import FlintCore
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

/// The origin a browser on the test project's authorized domain (`localhost`) reports.
private let origin = "http://localhost"

extension SoftwareAuthenticator {
    /// The authenticator's answer to an SDK enrolment request: a `none` attestation with flags UP, UV and AT.
    func registration(for request: PasskeyRegistrationRequest) throws -> PasskeyRegistration {
        let (client, attestation) = try register(
            rpID: request.relyingPartyIdentifier, challenge: Base64URL.encode(Array(request.challenge)), origin: origin)
        return PasskeyRegistration(credentialID: Data(credentialID), rawClientDataJSON: Data(client), rawAttestationObject: Data(attestation))
    }

    /// The authenticator's answer to an SDK sign-in request, for the account `uid`.
    mutating func assertion(for request: PasskeyAssertionRequest, uid: String) throws -> PasskeyAssertion {
        let (client, data, signature) = try assert(
            rpID: request.relyingPartyIdentifier, challenge: Base64URL.encode(Array(request.challenge)), origin: origin)
        return PasskeyAssertion(
            credentialID: Data(credentialID), rawClientDataJSON: Data(client), rawAuthenticatorData: Data(data), signature: Data(signature),
            userID: Data(uid.utf8))
    }
}

@Suite("Passkeys against flint serve")
struct PasskeyFlowTests {
    @Test("enrol, sign out, sign in with the passkey, list, unenroll; the withdrawn passkey no longer signs in")
    func lifecycle() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            #expect(user.enrolledPasskeys?.isEmpty == true)

            let request = try await user.startPasskeyEnrollment(withName: "Work laptop")
            #expect(request.relyingPartyIdentifier == "localhost")
            #expect(request.userID == Data(user.uid.utf8))
            #expect(request.name == "Work laptop")
            #expect(request.challenge.count >= 16)
            var authenticator = SoftwareAuthenticator()
            let enrolled = try await user.finalizePasskeyEnrollment(withPlatformCredential: try authenticator.registration(for: request))
            #expect(enrolled.user === user)
            #expect(auth.currentUser === user)
            #expect(user.enrolledPasskeys?.map(\.name) == ["Work laptop"])
            #expect(user.enrolledPasskeys?.map(\.credentialID) == [authenticator.id])

            try auth.signOut()
            let signInRequest = try await auth.startPasskeySignIn()
            #expect(signInRequest.relyingPartyIdentifier == "localhost")
            let result = try await auth.finalizePasskeySignIn(withPlatformCredential: try authenticator.assertion(for: signInRequest, uid: user.uid))
            #expect(result.user.uid == user.uid)
            #expect(result.additionalUserInfo == nil, "as FirebaseAuth's")
            #expect(auth.currentUser === result.user)
            #expect(try await result.user.getIDTokenResult().signInProvider == "passkey")
            #expect(result.user.enrolledPasskeys?.map(\.credentialID) == [authenticator.id])

            try await result.user.unenrollPasskey(withCredentialID: authenticator.id)
            #expect(result.user.enrolledPasskeys?.isEmpty == true)
            #expect(auth.currentUser === result.user, "the session continues with the new tokens")

            try auth.signOut()
            let refused = try await auth.startPasskeySignIn()
            let assertion = try authenticator.assertion(for: refused, uid: user.uid)
            await expectAuthError(.missingPasskeyEnrollment, "a withdrawn passkey signed in") {
                try await auth.finalizePasskeySignIn(withPlatformCredential: assertion)
            }
            #expect(auth.currentUser == nil)
        }
    }

    @Test("a registration for another challenge, or an assertion with a bad signature, is invalidAuthenticatorResponse")
    func refusedResponses() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            var authenticator = SoftwareAuthenticator()
            var stale = try await user.startPasskeyEnrollment(withName: nil)
            stale.challenge = Data(repeating: 7, count: stale.challenge.count)
            await expectAuthError(.invalidAuthenticatorResponse, "a registration of a made-up challenge was accepted") {
                try await user.finalizePasskeyEnrollment(withPlatformCredential: try authenticator.registration(for: stale))
            }
            #expect(user.enrolledPasskeys?.isEmpty == true)

            let request = try await user.startPasskeyEnrollment(withName: "")
            _ = try await user.finalizePasskeyEnrollment(withPlatformCredential: try authenticator.registration(for: request))
            #expect(user.enrolledPasskeys?.map(\.name) == [User.defaultPasskeyName], "an empty name is FirebaseAuth's default")

            try auth.signOut()
            var assertion = try authenticator.assertion(for: try await auth.startPasskeySignIn(), uid: user.uid)
            assertion.signature[assertion.signature.count - 1] ^= 0x01
            await expectAuthError(.invalidAuthenticatorResponse, "a forged signature signed in") {
                try await auth.finalizePasskeySignIn(withPlatformCredential: assertion)
            }
            #expect(auth.currentUser == nil)
        }
    }

    @Test("the completion forms enrol and sign in; the enrolled passkeys are stored with the user")
    func completionFormsAndPersistence() async throws {
        try await withFlint { server in
            let name = "passkeys-\(UUID().uuidString)"
            let directory = URL(fileURLWithPath: server.directory).appendingPathComponent("store-\(name)")
            let auth = server.makeAuth(appName: name, storeDirectory: directory)
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            var authenticator = SoftwareAuthenticator()
            let request: PasskeyRegistrationRequest = try await withCheckedThrowingContinuation { continuation in
                user.startPasskeyEnrollment(withName: "Phone") { request, error in
                    if let request { continuation.resume(returning: request) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            let registration = try authenticator.registration(for: request)
            let enrolled: AuthDataResult = try await withCheckedThrowingContinuation { continuation in
                user.finalizePasskeyEnrollment(withPlatformCredential: registration) { result, error in
                    if let result { continuation.resume(returning: result) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            #expect(enrolled.user.enrolledPasskeys?.map(\.name) == ["Phone"])

            let restored = try #require(server.makeAuth(appName: name, storeDirectory: directory).currentUser)
            #expect(restored.enrolledPasskeys?.map(\.credentialID) == [authenticator.id], "the list is kept with the stored user")

            try auth.signOut()
            let signInRequest: PasskeyAssertionRequest = try await withCheckedThrowingContinuation { continuation in
                auth.startPasskeySignIn { request, error in
                    if let request { continuation.resume(returning: request) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            let assertion = try authenticator.assertion(for: signInRequest, uid: user.uid)
            let signedIn: AuthDataResult = try await withCheckedThrowingContinuation { continuation in
                auth.finalizePasskeySignIn(withPlatformCredential: assertion) { result, error in
                    if let result { continuation.resume(returning: result) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            #expect(signedIn.user.uid == user.uid)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                signedIn.user.unenrollPasskey(withCredentialID: authenticator.id) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
            #expect(signedIn.user.enrolledPasskeys?.isEmpty == true)
        }
    }

    @Test("a passkey is a first factor: an account with a second factor gets the resolver, which completes the sign-in")
    func secondFactor() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            let auth = server.makeAuth()
            let user = try await server.signedInVerifiedUser(on: auth).user
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            let codes = try await user.multiFactor.enrollReturningRecoveryCodes(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(
                    with: secret, oneTimePassword: MultiFactorFlowTests.totp(secret.sharedSecretKey(), offset: 0)),
                displayName: "Phone app")
            var authenticator = SoftwareAuthenticator()
            let request = try await user.startPasskeyEnrollment(withName: "Laptop")
            _ = try await user.finalizePasskeyEnrollment(withPlatformCredential: try authenticator.registration(for: request))

            try auth.signOut()
            let assertion = try authenticator.assertion(for: try await auth.startPasskeySignIn(), uid: user.uid)
            let error = try await server.expectSecondFactor { try await auth.finalizePasskeySignIn(withPlatformCredential: assertion) }
            #expect(auth.currentUser == nil)
            let resolver = try #require(error.userInfo[AuthErrors.userInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let result = try await resolver.resolveSignIn(withRecoveryCode: codes[0])
            #expect(result.user.uid == user.uid)
            #expect(auth.currentUser === result.user)
            #expect(try await result.user.getIDTokenResult().signInProvider == "passkey")
        }
    }

    @Test("unenrollPasskey with an empty credential ID is missingPasskeyEnrollment, before any request")
    func emptyCredentialID() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            await expectAuthError(.missingPasskeyEnrollment, "an empty credential ID was sent") {
                try await user.unenrollPasskey(withCredentialID: "")
            }
        }
    }
}

import Foundation

#if canImport(AuthenticationServices) && !os(watchOS)
    public import AuthenticationServices

    /// The start calls and finalize overloads on Apple platforms, as FirebaseAuth's: AuthenticationServices'
    /// requests and credentials.
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension User {
        /// Starts a passkey enrolment: the request to hand an `ASAuthorizationController`, for the RP ID, challenge
        /// and user handle the server chose, under `name` (FirebaseAuth's default when `nil` or empty).
        /// - Throws: `requiresRecentLogin`, `userTokenExpired`, `networkError`.
        public func startPasskeyEnrollment(withName name: String?) async throws -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            try await passkeyRegistrationRequest(withName: name).platformRequest()
        }

        /// Starts a passkey enrolment; `completion` runs on the main queue.
        public func startPasskeyEnrollment(
            withName name: String?, completion: ((ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest?, (any Error)?) -> Void)?
        ) {
            let callback = Callback(function: completion)
            Task {
                do {
                    let request = try await self.passkeyRegistrationRequest(withName: name)
                    callbackQueue.async { callback.function?(request.platformRequest(), nil) }
                } catch {
                    callbackQueue.async { callback.function?(nil, error) }
                }
            }
        }

        /// Completes a passkey enrolment with the controller's registration.
        public func finalizePasskeyEnrollment(
            withPlatformCredential platformCredential: ASAuthorizationPlatformPublicKeyCredentialRegistration
        ) async throws -> AuthDataResult {
            let registration = PasskeyRegistration(
                credentialID: platformCredential.credentialID, rawClientDataJSON: platformCredential.rawClientDataJSON,
                rawAttestationObject: platformCredential.rawAttestationObject ?? Data())
            return try await finalizePasskeyEnrollment(withPlatformCredential: registration)
        }
    }

    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension Auth {
        /// Starts a passkey sign-in: the assertion request to hand an `ASAuthorizationController`.
        /// - Throws: `networkError`.
        public func startPasskeySignIn() async throws -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
            try await passkeyAssertionRequest().platformRequest()
        }

        /// Starts a passkey sign-in; `completion` runs on the main queue.
        public func startPasskeySignIn(completion: ((ASAuthorizationPlatformPublicKeyCredentialAssertionRequest?, (any Error)?) -> Void)?) {
            let callback = Callback(function: completion)
            Task {
                do {
                    let request = try await self.passkeyAssertionRequest()
                    callbackQueue.async { callback.function?(request.platformRequest(), nil) }
                } catch {
                    callbackQueue.async { callback.function?(nil, error) }
                }
            }
        }

        /// Signs in with the controller's assertion.
        public func finalizePasskeySignIn(
            withPlatformCredential platformCredential: ASAuthorizationPlatformPublicKeyCredentialAssertion
        ) async throws -> AuthDataResult {
            let assertion = PasskeyAssertion(
                credentialID: platformCredential.credentialID, rawClientDataJSON: platformCredential.rawClientDataJSON,
                rawAuthenticatorData: platformCredential.rawAuthenticatorData ?? Data(), signature: platformCredential.signature ?? Data(),
                userID: platformCredential.userID ?? Data())
            return try await finalizePasskeySignIn(withPlatformCredential: assertion)
        }
    }

    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeyRegistrationRequest {
        /// The AuthenticationServices request for these options.
        func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest {
            ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyIdentifier)
                .createCredentialRegistrationRequest(challenge: challenge, name: name, userID: userID)
        }
    }

    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeyAssertionRequest {
        /// The AuthenticationServices request for these options.
        func platformRequest() -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest {
            ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyIdentifier)
                .createCredentialAssertionRequest(challenge: challenge)
        }
    }
#else
    /// The start calls where AuthenticationServices is not available: the options as plain values, for an
    /// authenticator the app drives itself; its answer goes to the finalize calls as ``PasskeyRegistration`` /
    /// ``PasskeyAssertion``.
    extension User {
        /// Starts a passkey enrolment: the RP ID, challenge and user handle the server chose, and the passkey's name
        /// (FirebaseAuth's default when `name` is `nil` or empty).
        /// - Throws: `requiresRecentLogin`, `userTokenExpired`, `networkError`.
        public func startPasskeyEnrollment(withName name: String?) async throws -> PasskeyRegistrationRequest {
            try await passkeyRegistrationRequest(withName: name)
        }

        /// Starts a passkey enrolment; `completion` runs on the main queue.
        public func startPasskeyEnrollment(withName name: String?, completion: ((PasskeyRegistrationRequest?, (any Error)?) -> Void)?) {
            deliver(completion) { try await self.passkeyRegistrationRequest(withName: name) }
        }
    }

    extension Auth {
        /// Starts a passkey sign-in: the RP ID and challenge an authenticator signs.
        /// - Throws: `networkError`.
        public func startPasskeySignIn() async throws -> PasskeyAssertionRequest {
            try await passkeyAssertionRequest()
        }

        /// Starts a passkey sign-in; `completion` runs on the main queue.
        public func startPasskeySignIn(completion: ((PasskeyAssertionRequest?, (any Error)?) -> Void)?) {
            deliver(completion) { try await self.passkeyAssertionRequest() }
        }
    }
#endif

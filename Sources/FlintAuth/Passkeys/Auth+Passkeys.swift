import Foundation

/// Signing in with a passkey, as FirebaseAuth's passkey API: `passkeySignIn:start` gives the challenge an
/// authenticator signs, `passkeySignIn:finalize` verifies the assertion and signs its account in.
extension Auth {
    /// Asks the server for a passkey sign-in's challenge and RP ID.
    func passkeyAssertionRequest() async throws -> PasskeyAssertionRequest {
        let response = try await backend.callV2("accounts/passkeySignIn:start", StartPasskeySignInRequest(), as: StartPasskeySignInResponse.self)
        guard let rpID = response.credentialRequestOptions?.rpId, !rpID.isEmpty else {
            throw AuthErrorCode.internalError.error(detail: "The server's passkey options had no RP ID.")
        }
        let challenge = try PasskeyBase64.required(response.credentialRequestOptions?.challenge, "challenge")
        return PasskeyAssertionRequest(relyingPartyIdentifier: rpID, challenge: challenge)
    }

    /// Signs in with the authenticator's assertion (`passkeySignIn:finalize`) and makes its account the current
    /// user. As FirebaseAuth's, the result has no `additionalUserInfo`. An account with second factors throws
    /// `secondFactorRequired` carrying its resolver.
    /// - Throws: `missingPasskeyEnrollment` when no account holds the credential (withdrawn, or never enrolled),
    ///   `invalidAuthenticatorResponse` when the assertion fails verification, `userDisabled`, `tooManyRequests`,
    ///   `networkError`.
    public func finalizePasskeySignIn(withPlatformCredential platformCredential: PasskeyAssertion) async throws -> AuthDataResult {
        let request = FinalizePasskeySignInRequest(
            authenticatorAuthenticationResponse: .init(
                id: platformCredential.credentialID.base64EncodedString(),
                response: .init(
                    clientDataJSON: platformCredential.rawClientDataJSON.base64EncodedString(),
                    authenticatorData: platformCredential.rawAuthenticatorData.base64EncodedString(),
                    signature: platformCredential.signature.base64EncodedString(),
                    userHandle: platformCredential.userID.base64EncodedString())))
        let response = try await backend.callV2("accounts/passkeySignIn:finalize", request, as: SignInResponse.self)
        let result = try await completeSignIn(response, isNewUser: false, providerID: PasskeyProvider.id)
        return AuthDataResult(user: result.user, additionalUserInfo: nil)
    }

    /// Signs in with a passkey assertion; `completion` runs on the main queue.
    public func finalizePasskeySignIn(
        withPlatformCredential platformCredential: PasskeyAssertion, completion: ((AuthDataResult?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.finalizePasskeySignIn(withPlatformCredential: platformCredential) }
    }
}

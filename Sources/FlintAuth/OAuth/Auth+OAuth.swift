import Foundation

extension Auth {
    /// Signs in with an OAuth credential (`accounts:signInWithIdp`): the provider's account, created on its first
    /// sign-in, or the account its verified email already belongs to.
    /// - Throws: `accountExistsWithDifferentCredential` when another account has the provider's (unverified) email
    ///   (its `userInfo` holds the email and an updated credential to link once signed in to that account);
    ///   `invalidCredential` for a token the server refused; `operationNotAllowed` for a provider the project does not
    ///   enable; `userDisabled`; `secondFactorRequired` with a resolver.
    func signIn(withOAuth credential: OAuthCredential) async throws -> AuthDataResult {
        let response = try await backend.idpAssertion(credential.request(), credential: credential)
        let providerID = response.extra.providerID(or: credential.provider)
        let updated = OAuthCredential(assertion: response.extra, fallbackProviderID: providerID)
        if response.extra.needConfirmation == true {
            var userInfo: [String: Any] = [:]
            if let email = response.tokens.email { userInfo[AuthErrors.userInfoEmailKey] = email }
            if let updated { userInfo[AuthErrors.userInfoUpdatedCredentialKey] = updated }
            throw AuthErrorCode.accountExistsWithDifferentCredential.error(userInfo: userInfo)
        }
        let result = try await completeSignIn(
            response.tokens, isNewUser: response.tokens.isNewUser ?? false, providerID: providerID, username: response.extra.username)
        return AuthDataResult(user: result.user, additionalUserInfo: result.additionalUserInfo, credential: updated)
    }
}

extension Backend {
    /// Posts `accounts:signInWithIdp`. As FirebaseAuth does, an `errorMessage` in a 200 answer is thrown as its error,
    /// and a refusal because the identity or email belongs to another account (`credentialAlreadyInUse`,
    /// `emailAlreadyInUse`) carries the email and a credential to sign in to that account with.
    func idpAssertion(_ request: VerifyAssertionRequest, credential: OAuthCredential) async throws -> VerifyAssertionResponse {
        let response: VerifyAssertionResponse
        do {
            response = try await call("accounts:signInWithIdp", request)
        } catch let error as NSError where error.domain == AuthErrors.domain {
            throw Self.withUpdatedCredential(error, credential: credential, email: nil)
        }
        guard let message = response.extra.errorMessage, !message.isEmpty else { return response }
        let (name, detail) = Self.serverMessageParts(message)
        let code = AuthErrorCode(serverMessage: name) ?? .internalError
        let updated = OAuthCredential(assertion: response.extra, fallbackProviderID: credential.provider) ?? credential
        throw Self.withUpdatedCredential(code.error(detail: detail ?? message), credential: updated, email: response.tokens.email)
    }

    /// `error` with the credential to use instead and the email, when it says another account has them.
    private static func withUpdatedCredential(_ error: NSError, credential: OAuthCredential, email: String?) -> NSError {
        guard error.code == AuthErrorCode.credentialAlreadyInUse.rawValue || error.code == AuthErrorCode.emailAlreadyInUse.rawValue else {
            return error
        }
        var userInfo = error.userInfo
        userInfo[AuthErrors.userInfoUpdatedCredentialKey] = credential
        if let email { userInfo[AuthErrors.userInfoEmailKey] = email }
        return NSError(domain: error.domain, code: error.code, userInfo: userInfo)
    }
}

extension User {
    /// Links an OAuth credential to this account (`accounts:signInWithIdp` with the ID token).
    func link(withOAuth credential: OAuthCredential) async throws -> AuthDataResult {
        let response = try await backend.idpAssertion(credential.request(idToken: try await getIDToken()), credential: credential)
        let providerID = response.extra.providerID(or: credential.provider)
        try await adopt(response.tokens, providerID: providerID)
        return AuthDataResult(
            user: self, additionalUserInfo: response.returningUserInfo(providerID: providerID),
            credential: OAuthCredential(assertion: response.extra, fallbackProviderID: providerID))
    }

    /// Signs in again with an OAuth credential (`accounts:signInWithIdp`, `autoCreate` false).
    func reauthenticate(withOAuth credential: OAuthCredential) async throws -> (SignInResponse, AdditionalUserInfo, OAuthCredential?) {
        let response = try await backend.idpAssertion(credential.request(autoCreate: false), credential: credential)
        let providerID = response.extra.providerID(or: credential.provider)
        return (
            response.tokens, response.returningUserInfo(providerID: providerID),
            OAuthCredential(assertion: response.extra, fallbackProviderID: providerID)
        )
    }
}

extension SignInResponse.With where Extra == IdpAssertion {
    /// The provider details of a link or re-authentication: the account is not new.
    func returningUserInfo(providerID: String) -> AdditionalUserInfo {
        AdditionalUserInfo(providerID: providerID, isNewUser: false, rawUserInfo: tokens.rawUserInfo, screenName: extra.username)
    }
}

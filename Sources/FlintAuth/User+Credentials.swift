import Foundation

extension User {
    /// Links an email credential to this account: a password (`accounts:signUp` with the ID token) or an email
    /// link (`accounts:signInWithEmailLink` with the ID token).
    /// - Throws: `providerAlreadyLinked` when the account already has the email provider, and the server's errors.
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        let credential = try Self.emailCredential(credential)
        if providerData.contains(where: { $0.providerID == credential.provider }) {
            throw AuthErrorCode.providerAlreadyLinked.error()
        }
        let idToken = try await getIDToken()
        let response: SignInResponse
        switch credential.secret {
        case .password(let password):
            response = try await backend.call(
                "accounts:signUp", SignUpRequest(email: credential.email, password: password, idToken: idToken))
        case .link(let link):
            let code = try Auth.oobCode(inSignInLink: link)
            response = try await backend.call(
                "accounts:signInWithEmailLink", SignInWithEmailLinkRequest(email: credential.email, oobCode: code, idToken: idToken))
        }
        try await adopt(response)
        return AuthDataResult(user: self, additionalUserInfo: nil)
    }

    /// Signs in again with an email credential, for operations that need a recent sign-in.
    /// - Throws: `userMismatch` when the credential belongs to another account (or to none).
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let credential = try Self.emailCredential(credential)
        let response: SignInResponse
        do {
            switch credential.secret {
            case .password(let password):
                response = try await backend.call(
                    "accounts:signInWithPassword", SignInWithPasswordRequest(email: credential.email, password: password))
            case .link(let link):
                let code = try Auth.oobCode(inSignInLink: link)
                response = try await backend.call(
                    "accounts:signInWithEmailLink", SignInWithEmailLinkRequest(email: credential.email, oobCode: code))
            }
        } catch let error as NSError where error.domain == AuthErrors.domain && error.code == AuthErrorCode.userNotFound.rawValue {
            throw AuthErrorCode.userMismatch.error()
        }
        guard response.localId == uid else { throw AuthErrorCode.userMismatch.error() }
        try await adopt(response)
        return AuthDataResult(user: self, additionalUserInfo: AdditionalUserInfo(providerID: EmailAuthProvider.id, isNewUser: false))
    }

    /// Takes the tokens of a link or re-authentication answer, reloads the profile and tells the `Auth`.
    private func adopt(_ response: SignInResponse) async throws {
        let tokens = try Auth.tokens(of: response)
        await tokenService.replace(with: tokens)
        try await load(idToken: tokens.accessToken)
        await auth?.userTokensDidChange(self)
    }

    static func emailCredential(_ credential: AuthCredential) throws -> EmailAuthCredential {
        guard let email = credential as? EmailAuthCredential else {
            throw AuthErrorCode.invalidCredential.error(detail: "Only email credentials are supported.")
        }
        return email
    }
}

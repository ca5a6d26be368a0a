import Foundation

extension User {
    /// Links a credential to this account: a password (`accounts:signUp` with the ID token), an email link
    /// (`accounts:signInWithEmailLink` with the ID token), a phone number (`accounts:signInWithPhoneNumber`,
    /// operation `LINK`, with the ID token), an OAuth provider's (`accounts:signInWithIdp` with the ID token) or a Game
    /// Center player (`accounts:signInWithGameCenter` with the ID token; no `additionalUserInfo`, as FirebaseAuth).
    /// - Throws: `providerAlreadyLinked` when the account already has the provider; `credentialAlreadyInUse` when
    ///   another account has the phone number or the provider's identity (its `userInfoUpdatedCredentialKey` holds a
    ///   credential that signs in to that account); `emailAlreadyInUse`; and the server's errors.
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        if providerData.contains(where: { $0.providerID == credential.provider }) {
            throw AuthErrorCode.providerAlreadyLinked.error()
        }
        if let oauth = credential as? OAuthCredential { return try await link(withOAuth: oauth) }
        if let gameCenter = credential as? GameCenterAuthCredential {
            let response = try await backend.signIn(withGameCenter: gameCenter.request(idToken: try await getIDToken()))
            try await adopt(response, providerID: GameCenterAuthProvider.id)
            return AuthDataResult(user: self, additionalUserInfo: nil)
        }
        if let phone = credential as? PhoneAuthCredential {
            let idToken = try await getIDToken()
            let response = try await backend.call(
                "accounts:signInWithPhoneNumber", phone.request(operation: .link, idToken: idToken),
                as: VerifyPhoneNumberResponse.self)
            try await adopt(try response.signInResponse())
            return AuthDataResult(user: self, additionalUserInfo: nil)
        }
        let credential = try Self.emailCredential(credential)
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

    /// Signs in again with an email, phone (`accounts:signInWithPhoneNumber`, operation `REAUTH`), OAuth
    /// (`accounts:signInWithIdp`, creating no account) or Game Center credential (`accounts:signInWithGameCenter`,
    /// which has no such flag), for operations that need a recent sign-in.
    /// - Throws: `userMismatch` when the credential belongs to another account (or to none).
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        let response: SignInResponse
        var providerID = credential.provider
        var federated: (info: AdditionalUserInfo, credential: OAuthCredential?)?
        do {
            if let oauth = credential as? OAuthCredential {
                let (tokens, info, updated) = try await reauthenticate(withOAuth: oauth)
                (response, federated, providerID) = (tokens, (info, updated), info.providerID)
            } else if let gameCenter = credential as? GameCenterAuthCredential {
                response = try await backend.signIn(withGameCenter: gameCenter.request())
            } else if let phone = credential as? PhoneAuthCredential {
                response = try await backend.call(
                    "accounts:signInWithPhoneNumber", phone.request(operation: .reauth), as: VerifyPhoneNumberResponse.self
                ).signInResponse()
            } else {
                let credential = try Self.emailCredential(credential)
                switch credential.secret {
                case .password(let password):
                    response = try await backend.call(
                        "accounts:signInWithPassword", SignInWithPasswordRequest(email: credential.email, password: password))
                case .link(let link):
                    let code = try Auth.oobCode(inSignInLink: link)
                    response = try await backend.call(
                        "accounts:signInWithEmailLink", SignInWithEmailLinkRequest(email: credential.email, oobCode: code))
                }
            }
        } catch let error as NSError where error.domain == AuthErrors.domain && error.code == AuthErrorCode.userNotFound.rawValue {
            throw AuthErrorCode.userMismatch.error()
        }
        // An answer that asks for a second factor may carry no `localId`; one with tokens must be this user's.
        if response.localId != uid, response.localId != nil || response.idToken != nil { throw AuthErrorCode.userMismatch.error() }
        try await adopt(response, providerID: providerID)
        return AuthDataResult(
            user: self, additionalUserInfo: federated?.info ?? AdditionalUserInfo(providerID: providerID, isNewUser: false),
            credential: federated?.credential)
    }

    /// Takes the tokens of a link, re-authentication or second-factor change, reloads the profile and tells the
    /// `Auth`.
    func adopt(_ response: SignInResponse, providerID: String = EmailAuthProvider.id) async throws {
        try await install(try Auth.tokens(of: response, auth: auth, providerID: providerID))
    }

    static func emailCredential(_ credential: AuthCredential) throws -> EmailAuthCredential {
        guard let email = credential as? EmailAuthCredential else {
            throw AuthErrorCode.invalidCredential.error(detail: "Only email credentials are supported.")
        }
        return email
    }
}

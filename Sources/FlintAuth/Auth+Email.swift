import Foundation

extension Auth {
    /// Creates an account with an email and password and signs it in (`accounts:signUp`).
    /// - Throws: `emailAlreadyInUse`, `invalidEmail`, `weakPassword`, `operationNotAllowed`, `networkError`.
    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        let response: SignInResponse = try await backend.call("accounts:signUp", SignUpRequest(email: email, password: password))
        return try await completeSignIn(response, isNewUser: true)
    }

    /// Signs in with an email and password (`accounts:signInWithPassword`).
    /// - Throws: `invalidCredential` for a wrong email or password (the server does not tell which), `userDisabled`,
    ///   `tooManyRequests`, `networkError`.
    @discardableResult
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        let response: SignInResponse = try await backend.call(
            "accounts:signInWithPassword", SignInWithPasswordRequest(email: email, password: password))
        return try await completeSignIn(response, isNewUser: false)
    }

    /// Signs in with an emailed sign-in link (`accounts:signInWithEmailLink`); creates the account if needed.
    /// - Throws: `invalidActionCode` when `link` is not a sign-in link or its code was used,
    ///   `expiredActionCode`, `invalidEmail`.
    @discardableResult
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        let code = try Self.oobCode(inSignInLink: link)
        let response: SignInResponse = try await backend.call(
            "accounts:signInWithEmailLink", SignInWithEmailLinkRequest(email: email, oobCode: code))
        return try await completeSignIn(response, isNewUser: response.isNewUser ?? false)
    }

    /// Signs in with a credential: email and password, email and link, phone (`accounts:signInWithPhoneNumber`,
    /// which creates the account if needed), an OAuth provider's (`accounts:signInWithIdp`: Sign in with Apple,
    /// Google, Facebook, GitHub, X, Microsoft, Yahoo, `oidc.*`), or a Game Center player's
    /// (`accounts:signInWithGameCenter`).
    /// - Throws: for a phone credential `invalidVerificationCode`, `invalidVerificationID`, `sessionExpired`,
    ///   `userDisabled`, `networkError`; for an OAuth credential `accountExistsWithDifferentCredential` (with the
    ///   email and an updated credential), `invalidCredential`, `operationNotAllowed`, `userDisabled`; for a Game
    ///   Center credential `invalidCredential` (a signature the server refused), `operationNotAllowed`.
    @discardableResult
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        if let oauth = credential as? OAuthCredential { return try await signIn(withOAuth: oauth) }
        if let gameCenter = credential as? GameCenterAuthCredential {
            let response = try await backend.signIn(withGameCenter: gameCenter.request())
            return try await completeSignIn(response, isNewUser: response.isNewUser ?? false, providerID: GameCenterAuthProvider.id)
        }
        if let phone = credential as? PhoneAuthCredential {
            let response = try await backend.call(
                "accounts:signInWithPhoneNumber", phone.request(operation: .signUpOrIn), as: VerifyPhoneNumberResponse.self)
            let signIn = try response.signInResponse()
            return try await completeSignIn(signIn, isNewUser: signIn.isNewUser ?? false, providerID: PhoneAuthProvider.id)
        }
        let credential = try User.emailCredential(credential)
        switch credential.secret {
        case .password(let password): return try await signIn(withEmail: credential.email, password: password)
        case .link(let link): return try await signIn(withEmail: credential.email, link: link)
        }
    }

    /// Signs in a new anonymous account (`accounts:signUp` with no email).
    @discardableResult
    public func signInAnonymously() async throws -> AuthDataResult {
        let response: SignInResponse = try await backend.call("accounts:signUp", SignUpRequest())
        let result = try await completeSignIn(response, isNewUser: true)
        return AuthDataResult(user: result.user, additionalUserInfo: AdditionalUserInfo(providerID: "anonymous", isNewUser: true))
    }

    /// Emails a sign-in link (`accounts:sendOobCode`, `EMAIL_SIGNIN`) built from `actionCodeSettings`.
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        try await sendOobCode(actionCodeSettings.request(type: "EMAIL_SIGNIN", email: email))
    }

    /// Emails a password-reset link (`accounts:sendOobCode`, `PASSWORD_RESET`), whose continue URL and apps come
    /// from `actionCodeSettings` when given.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let request =
            actionCodeSettings?.request(type: "PASSWORD_RESET", email: email) ?? SendOobCodeRequest(requestType: "PASSWORD_RESET", email: email)
        try await sendOobCode(request)
    }

    func sendOobCode(_ request: SendOobCodeRequest) async throws {
        _ = try await backend.call("accounts:sendOobCode", request, as: SendOobCodeResponse.self)
    }

    /// The sign-in methods of an email (`password`, `emailLink`), from `accounts:createAuthUri`.
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        let response: CreateAuthURIResponse = try await backend.call(
            "accounts:createAuthUri", CreateAuthURIRequest(identifier: email), idempotent: true)
        return response.signinMethods ?? []
    }

    /// Whether `link` is an email sign-in link: its query, percent-decoded once, has an `oobCode` and
    /// `mode=signIn` (links wrapped in another link's query count too).
    public func isSignIn(withEmailLink link: String) -> Bool {
        let items = actionLinkParameters(link)
        return items["oobCode"] != nil && items["mode"] == "signIn"
    }

    /// The code of a sign-in link, or `invalidActionCode`.
    static func oobCode(inSignInLink link: String) throws -> String {
        let items = actionLinkParameters(link)
        guard let code = items["oobCode"], !code.isEmpty, items["mode"] == "signIn" else {
            throw AuthErrorCode.invalidActionCode.error(detail: "The link is not an email sign-in link.")
        }
        return code
    }
}

import Foundation

extension User {
    /// The refresh token, as FirebaseAuth's `refreshToken`.
    public var refreshToken: String? { tokenService.snapshot.current.refreshToken }

    /// A request that changes the display name and photo URL when committed.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }

    /// Sets a new password (`accounts:update` with the ID token). The server ends the earlier sessions and answers
    /// with new tokens, which replace the user's.
    /// - Throws: `weakPassword`, `requiresRecentLogin` (sign in again first), `userTokenExpired`, `networkError`.
    public func updatePassword(to password: String) async throws {
        try await updateAccount(SetAccountInfoRequest(password: password))
    }

    /// Changes the email address directly (`accounts:update`), without verifying the new one. FirebaseAuth deprecates
    /// it in favour of `sendEmailVerification(beforeUpdatingEmail:)`, and projects that require verified changes
    /// refuse it; it is kept for apps that still call it.
    /// - Throws: `emailAlreadyInUse`, `invalidEmail`, `requiresRecentLogin`, `userTokenExpired`, `networkError`.
    public func updateEmail(to email: String) async throws {
        try await updateAccount(SetAccountInfoRequest(email: email))
    }

    /// Emails a link that verifies the user's address (`accounts:sendOobCode`, `VERIFY_EMAIL`), continuing as
    /// `actionCodeSettings` says when given.
    /// - Throws: `userTokenExpired`, `invalidUserToken`, `tooManyRequests`, `invalidContinueURI`,
    ///   `unauthorizedDomain`, `networkError`.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await sendOobCode(Self.verifyEmailRequest(actionCodeSettings))
    }

    /// The `VERIFY_EMAIL` request, without the ID token.
    static func verifyEmailRequest(_ settings: ActionCodeSettings?) -> SendOobCodeRequest {
        settings?.request(type: "VERIFY_EMAIL", email: nil) ?? SendOobCodeRequest(requestType: "VERIFY_EMAIL")
    }

    /// Emails `email` a link that, once followed (or applied with `Auth.applyActionCode(_:)`), makes it the user's
    /// verified address (`accounts:sendOobCode`, `VERIFY_AND_CHANGE_EMAIL`). The change ends the earlier sessions,
    /// so the user signs in again with the new address.
    /// - Throws: `emailAlreadyInUse`, `requiresRecentLogin`, `userTokenExpired`, `networkError`.
    public func sendEmailVerification(beforeUpdatingEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await sendOobCode(Self.changeEmailRequest(email, actionCodeSettings))
    }

    /// The `VERIFY_AND_CHANGE_EMAIL` request for `email`, without the ID token.
    static func changeEmailRequest(_ email: String, _ settings: ActionCodeSettings?) -> SendOobCodeRequest {
        settings?.request(type: "VERIFY_AND_CHANGE_EMAIL", email: nil, newEmail: email)
            ?? SendOobCodeRequest(requestType: "VERIFY_AND_CHANGE_EMAIL", newEmail: email)
    }

    /// Sends `request` (`accounts:sendOobCode`) with the current ID token.
    func sendOobCode(_ request: SendOobCodeRequest) async throws {
        var request = request
        request.idToken = try await getIDToken()
        _ = try await backend.call("accounts:sendOobCode", request, as: SendOobCodeResponse.self)
    }

    /// Removes a provider (`password` or `phone`) from the account (`accounts:update`, `deleteProvider`) and reloads
    /// the profile.
    /// - Returns: this user.
    /// - Throws: `noSuchProvider` when the account does not have the provider, `requiresRecentLogin`,
    ///   `userTokenExpired`, `networkError`.
    @discardableResult
    public func unlink(fromProvider provider: String) async throws -> User {
        guard providerData.contains(where: { $0.providerID == provider }) else {
            throw AuthErrorCode.noSuchProvider.error()
        }
        try await updateAccount(SetAccountInfoRequest(deleteProvider: [provider]))
        return self
    }

    /// Replaces the account's phone number with the one `credential` proves (`accounts:signInWithPhoneNumber`,
    /// operation `UPDATE`, with the ID token), taking the tokens the server returns.
    /// - Throws: `invalidVerificationCode`, `invalidVerificationID`, `sessionExpired`, `credentialAlreadyInUse` when
    ///   another account has the number, `userTokenExpired`, `networkError`.
    public func updatePhoneNumber(_ credential: PhoneAuthCredential) async throws {
        let idToken = try await getIDToken()
        let response = try await backend.call(
            "accounts:signInWithPhoneNumber", credential.request(operation: .update, idToken: idToken), as: VerifyPhoneNumberResponse.self)
        let signIn = try response.signInResponse()
        try await adoptTokens(idToken: signIn.idToken, refreshToken: signIn.refreshToken, expiresIn: signIn.expiresIn)
    }
}

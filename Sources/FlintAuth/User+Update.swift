import Foundation

extension User {
    /// Sends `request` to `accounts:update` with the current ID token, takes the new tokens the server returns when
    /// the change ended the earlier sessions (email, password), reloads the profile, stores the user and, when the
    /// token changed, tells the ID-token listeners.
    func updateAccount(_ request: SetAccountInfoRequest) async throws {
        var request = request
        request.idToken = try await getIDToken()
        let response = try await backend.call("accounts:update", request, as: SignInResponse.self)
        try await adoptTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
    }

    /// Replaces the tokens when an answer carries both, then reloads the profile and tells the `Auth`.
    func adoptTokens(idToken: String?, refreshToken: String?, expiresIn: String?) async throws {
        guard let idToken, !idToken.isEmpty, let refreshToken, !refreshToken.isEmpty else { return try await install(nil) }
        try await install(.init(accessToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn, now: backend.now()))
    }

    /// Takes `tokens` (when the server issued new ones), reloads the profile and tells the `Auth`: stores the user,
    /// and with new tokens tells the ID-token listeners too.
    func install(_ tokens: SecureTokenService.Tokens?) async throws {
        if let tokens {
            await tokenService.replace(with: tokens)
            try await load(idToken: tokens.accessToken)
            await auth?.userTokensDidChange(self)
        } else {
            try await load(idToken: try await getIDToken())
            await auth?.persistIfCurrent(self)
        }
    }
}

import Foundation

extension User {
    /// Sends `request` to `accounts:update` with the current ID token, takes the new tokens the server returns when
    /// the change ended the earlier sessions (email, password), reloads the profile, stores the user and, when the
    /// token changed, tells the ID-token listeners.
    func updateAccount(_ request: SetAccountInfoRequest) async throws {
        var request = request
        request.idToken = try await getIDToken()
        let response = try await backend.call("accounts:update", request, as: SetAccountInfoResponse.self)
        try await adoptTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
    }

    /// Replaces the tokens when an answer carries both, then reloads the profile and tells the `Auth` (persist, and
    /// notify the listeners when the ID token is new).
    func adoptTokens(idToken: String?, refreshToken: String?, expiresIn: String?) async throws {
        var changed = false
        if let idToken, !idToken.isEmpty, let refreshToken, !refreshToken.isEmpty {
            let lifetime = expiresIn.flatMap(TimeInterval.init) ?? 3600
            await tokenService.replace(
                with: .init(accessToken: idToken, refreshToken: refreshToken, expirationDate: Date(timeIntervalSinceNow: lifetime)))
            changed = true
        }
        try await load(idToken: try await getIDToken())
        if changed {
            await auth?.userTokensDidChange(self)
        } else {
            await auth?.persistIfCurrent(self)
        }
    }
}

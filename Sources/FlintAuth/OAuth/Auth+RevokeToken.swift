import Foundation

/// The body of `v2/accounts:revokeToken`, as FirebaseAuth sends it: Sign in with Apple, the token type as the number
/// of `CODE` in a string, the authorization code and the signed-in user's ID token; no tenant.
struct RevokeTokenRequest: Encodable {
    var providerId = "apple.com"
    var tokenType = "3"
    var token: String
    var idToken: String
}

extension Auth {
    /// Revokes the app's Sign in with Apple authorization of the signed-in user, with an authorization code Apple
    /// just gave the app (`ASAuthorizationAppleIDCredential.authorizationCode` as text), as an app must when the user
    /// deletes their account. Does nothing when no user is signed in.
    /// - Parameter authorizationCode: the authorization code.
    /// - Throws: `invalidCredential` when Apple refuses the code (or the project's apple.com has no code-flow key),
    ///   `noSuchProvider` when the user has no Apple identity, the session's errors (`userTokenExpired`…).
    public func revokeToken(withAuthorizationCode authorizationCode: String) async throws {
        guard let user = currentUser else { return }
        let request = RevokeTokenRequest(token: authorizationCode, idToken: try await user.getIDToken())
        _ = try await backend.callV2("accounts:revokeToken", request, as: EmptyResponse.self)
    }

    /// Revokes the app's Sign in with Apple authorization of the signed-in user, with an authorization code Apple
    /// just gave the app; `completion` runs on the main queue.
    public func revokeToken(withAuthorizationCode authorizationCode: String, completion: (((any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.revokeToken(withAuthorizationCode: authorizationCode) }
    }
}

import Foundation

extension Auth {
    /// Signs in with a custom token a backend signed with a service-account key (`relyingparty/verifyCustomToken`,
    /// the v3 endpoint FirebaseAuth calls); the server creates the account when the token's uid has none. As
    /// FirebaseAuth's, the result's `additionalUserInfo` has an empty `providerID`.
    /// - Throws: `invalidCustomToken` (malformed, badly signed, expired, or unsigned outside dev mode),
    ///   `customTokenMismatch` (signed by a service account the server does not know), `userDisabled`,
    ///   `networkError`.
    @discardableResult
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        let request = VerifyCustomTokenRequest(token: token, tenantId: tenantID)
        let response: SignInResponse = try await backend.callV3("verifyCustomToken", request)
        return try await completeSignIn(response, isNewUser: response.isNewUser ?? false, providerID: "")
    }

    /// Signs in with a custom token; `completion` runs on the main queue.
    public func signIn(withCustomToken token: String, completion: ((AuthDataResult?, (any Error)?) -> Void)? = nil) {
        deliver(completion) { try await self.signIn(withCustomToken: token) }
    }
}

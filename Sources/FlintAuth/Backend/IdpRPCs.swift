/// The body of `accounts:signInWithIdp` (v3 `verifyAssertion`), as FirebaseAuth's `VerifyAssertionRequest` writes
/// it: the provider's credential form-encoded in `postBody`, a `requestUri` the server requires but does not use,
/// the signed-in user's ID token when linking, and `autoCreate` false when re-authenticating.
struct VerifyAssertionRequest: Encodable {
    var requestUri = "http://localhost"
    var postBody: String
    var pendingToken: String?
    /// The signed-in user's ID token: the provider is linked to that account.
    var idToken: String?
    var returnSecureToken = true
    var returnIdpCredential = true
    var autoCreate: Bool
    /// The session ID of a hosted-handler sign-in, whose response is `requestUri`.
    var sessionId: String?

    init(postBody: String, pendingToken: String?, idToken: String?, autoCreate: Bool) {
        (self.postBody, self.pendingToken, self.idToken, self.autoCreate) = (postBody, pendingToken, idToken, autoCreate)
    }
}

/// What `signInWithIdp` answers beside the tokens: the provider's identity, whether the email needs confirmation
/// (another account has it), the provider's tokens (`returnIdpCredential`), a pending token, and — in a 200 answer
/// to a request with `returnIdpCredential` — an `errorMessage` FirebaseAuth reports as an error.
struct IdpAssertion: Decodable {
    var providerId: String?
    var federatedId: String?
    var emailVerified: Bool?
    var needConfirmation: Bool?
    var oauthIdToken: String?
    var oauthAccessToken: String?
    var oauthTokenSecret: String?
    var pendingToken: String?
    var username: String?
    var errorMessage: String?
}

extension IdpAssertion {
    /// The provider the answer names, else `fallback` (the credential's).
    func providerID(or fallback: String) -> String { providerId.flatMap { $0.isEmpty ? nil : $0 } ?? fallback }
}

/// The answer of `accounts:signInWithIdp`.
typealias VerifyAssertionResponse = SignInResponse.With<IdpAssertion>

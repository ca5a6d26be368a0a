/// `relyingparty/verifyCustomToken` (FirebaseAuth's `VerifyCustomTokenRequest`): a custom token for a session. The
/// answer has `idToken`, `refreshToken`, `expiresIn` and `isNewUser`, no `localId`.
struct VerifyCustomTokenRequest: Encodable {
    var token: String
    var returnSecureToken = true
    var tenantId: String?
}

extension Backend {
    /// POSTs `request` as JSON to a v3 `relyingparty` endpoint such as `verifyCustomToken`, where FirebaseAuth sends
    /// its requests that are not Identity Platform (v2) ones: `www.googleapis.com/identitytoolkit/v3/relyingparty/…`.
    func callV3<Response: Decodable>(_ endpoint: String, _ request: some Encodable, as: Response.Type = Response.self) async throws -> Response {
        try await post(host: "www.googleapis.com", path: "/identitytoolkit/v3/relyingparty/" + endpoint, request)
    }
}

import AsyncHTTPClient
import NIOHTTP1

/// The calls of the `apple`, `applenew` and `passkey` scenarios.
extension FlintAPI {
    /// `accounts:signInWithIdp` as the iOS SDK sends a Sign in with Apple credential: the ID token and the raw nonce
    /// in `postBody`, `requestUri` `http://localhost`, the session's tokens and the provider's credential asked for.
    func signInWithApple(idToken: String, rawNonce: String) async throws -> Reply {
        try await post(
            base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=" + key,
            #"{"requestUri":"http://localhost","returnSecureToken":true,"returnIdpCredential":true,"postBody":"#
                + JSONText.quote("id_token=" + idToken + "&providerId=apple.com&nonce=" + rawNonce) + "}")
    }

    /// Enables Sign in with Apple for `bundleID` (the admin API, dev credential); an existing config is left as it is.
    func enableApple(bundleID: String) async throws {
        var request = HTTPClientRequest(
            url: base + "/identitytoolkit.googleapis.com/v2/projects/\(project)/defaultSupportedIdpConfigs?idpId=apple.com")
        request.method = .POST
        request.headers = ["content-type": "application/json", "authorization": "Bearer owner"]
        let body =
            "{\"enabled\":true,\"clientId\":" + JSONText.quote(bundleID) + ",\"appleSignInConfig\":{\"bundleIds\":[" + JSONText.quote(bundleID)
            + "]}}"
        request.body = .bytes(Array(body.utf8))
        let reply = try await execute(request, limit: 1 << 20)
        guard reply.ok || reply.text.contains("CONFIGURATION_EXISTS") else {
            throw BenchError("enabling apple.com failed: HTTP \(reply.status) \(reply.text)")
        }
    }

    /// A v2 passkey call (`passkeyEnrollment:start`, `passkeySignIn:finalize`, ...) sent from the web page at `origin`.
    func passkey(_ method: String, _ body: String, origin: String) async throws -> Reply {
        try await post(v2 + method + "?key=" + key, body, origin: origin)
    }
}

/// `securetoken.googleapis.com/v1/token` with a refresh token (`SecureTokenRequest`, sent as JSON).
struct SecureTokenRequest: Encodable {
    var grantType = "refresh_token"
    var refreshToken: String
}

/// The answer of the token endpoint; `access_token` becomes the new ID token, as in FirebaseAuth (its copy in
/// `id_token` is not read).
struct SecureTokenResponse: Decodable {
    var access_token: String?
    var refresh_token: String?
    var expires_in: String?
}

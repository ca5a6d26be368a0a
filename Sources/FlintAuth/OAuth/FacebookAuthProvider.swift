/// Builds Facebook credentials, as FirebaseAuth's `FacebookAuthProvider`, from the access token of Facebook Login
/// (`AccessToken.current.tokenString`). A Limited Login ID token goes through
/// `OAuthProvider.credential(providerID: .facebook, idToken:rawNonce:)` instead, as FirebaseAuth spells it.
public enum FacebookAuthProvider {
    /// The provider ID, `facebook.com`.
    public static let id = FacebookAuthProviderID

    /// A credential from Facebook Login's access token, sent to `signInWithIdp` as
    /// `postBody` `providerId=facebook.com&access_token=…`.
    public static func credential(withAccessToken accessToken: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: accessToken)
    }
}

/// Builds X (Twitter) credentials, as FirebaseAuth's `TwitterAuthProvider`, from an OAuth 1.0a access token and its
/// secret. `OAuthProvider(providerID: "twitter.com")` runs X's sign-in through the hosted handler instead.
public enum TwitterAuthProvider {
    /// The provider ID, `twitter.com`.
    public static let id = TwitterAuthProviderID

    /// A credential from an OAuth 1.0a access token and its token secret, sent to `signInWithIdp` as
    /// `postBody` `providerId=twitter.com&access_token=…&oauth_token_secret=…`.
    public static func credential(withToken token: String, secret: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: token, secret: secret)
    }
}

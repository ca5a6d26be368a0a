/// Builds GitHub credentials, as FirebaseAuth's `GitHubAuthProvider`, from a GitHub OAuth access token the app
/// obtained itself (GitHub's web or device flow). `OAuthProvider(providerID: "github.com")` runs GitHub's sign-in
/// through the hosted handler instead.
public enum GitHubAuthProvider {
    /// The provider ID, `github.com`.
    public static let id = GitHubAuthProviderID

    /// A credential from a GitHub OAuth access token, sent to `signInWithIdp` as
    /// `postBody` `providerId=github.com&access_token=…`.
    public static func credential(withToken token: String) -> AuthCredential {
        OAuthCredential(providerID: id, accessToken: token)
    }
}

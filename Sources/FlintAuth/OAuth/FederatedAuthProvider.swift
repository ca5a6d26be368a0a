/// A provider whose credential comes from a web sign-in, as FirebaseAuth's `FederatedAuthProvider`: `OAuthProvider`
/// opens the provider's sign-in through the hosted handler and hands back the credential its callback gives.
public protocol FederatedAuthProvider: AnyObject, Sendable {
    /// Runs the web sign-in through `uiDelegate` and returns its credential.
    /// - Throws: `webContextCancelled` when the page was closed, the callback's error, or the configuration's.
    func credential(with uiDelegate: (any AuthUIDelegate)?) async throws -> AuthCredential
}

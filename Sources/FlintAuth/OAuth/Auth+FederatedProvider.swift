import Foundation

/// Signing in, linking and re-authenticating through a provider's web sign-in, as FirebaseAuth's
/// `signIn(with:uiDelegate:)`, `User.link(with:uiDelegate:)` and `User.reauthenticate(with:uiDelegate:)`: the
/// provider's credential (``FederatedAuthProvider/credential(with:)``), then the credential's call.
extension Auth {
    /// Signs in with the account of `provider`'s web sign-in, created on its first sign-in.
    /// - Throws: the web sign-in's errors (`webContextCancelled`…), then those of ``signIn(with:)``.
    @discardableResult
    public func signIn(with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws -> AuthDataResult {
        try await signIn(with: try await provider.credential(with: uiDelegate))
    }

    /// Signs in through `provider`'s web sign-in; `completion` gets the result or the error, on the main queue.
    public func signIn(
        with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: ((AuthDataResult?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.signIn(with: provider, uiDelegate: uiDelegate) }
    }
}

extension User {
    /// Links the account of `provider`'s web sign-in to this user.
    /// - Throws: the web sign-in's errors, then those of ``link(with:)``.
    @discardableResult
    public func link(with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws -> AuthDataResult {
        try await link(with: try await provider.credential(with: uiDelegate))
    }

    /// Links through `provider`'s web sign-in; `completion` gets the result or the error, on the main queue.
    public func link(
        with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: ((AuthDataResult?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.link(with: provider, uiDelegate: uiDelegate) }
    }

    /// Signs this user in again through `provider`'s web sign-in (which must give this user's account).
    /// - Throws: the web sign-in's errors, then those of ``reauthenticate(with:)`` (`userMismatch`…).
    @discardableResult
    public func reauthenticate(with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?) async throws
        -> AuthDataResult
    {
        try await reauthenticate(with: try await provider.credential(with: uiDelegate))
    }

    /// Re-authenticates through `provider`'s web sign-in; `completion` gets the result or the error, on the main queue.
    public func reauthenticate(
        with provider: any FederatedAuthProvider, uiDelegate: (any AuthUIDelegate)?,
        completion: ((AuthDataResult?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.reauthenticate(with: provider, uiDelegate: uiDelegate) }
    }
}

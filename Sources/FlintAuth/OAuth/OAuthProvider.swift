public import Foundation

/// Builds credentials of OAuth and OpenID Connect providers, as FirebaseAuth's `OAuthProvider`: Sign in with Apple
/// (`apple.com`), and any provider configured on the server (`oidc.*`, `google.com`…), from tokens the app obtained
/// itself (AuthenticationServices, a provider SDK). An instance names a provider with the scopes and custom
/// parameters of its authorization request, for the web sign-in through the hosted handler (`microsoft.com`,
/// `yahoo.com`, `github.com`, `twitter.com`, `oidc.*`…).
public final class OAuthProvider: @unchecked Sendable {
    // `scopes` and `customParameters` are set by the app before use, as in FirebaseAuth.

    /// FirebaseAuth's generic provider ID, `OAuth` (what `OAuthProvider.id` names; an instance's own is ``providerID``).
    public static let id = "OAuth"

    /// The provider, such as `apple.com` or `oidc.example`.
    public let providerID: String
    /// The scopes to ask the provider for, beyond its defaults.
    public var scopes: [String]?
    /// Extra parameters of the provider's authorization request (`prompt`, `login_hint`, `locale`…).
    public var customParameters: [String: String]?
    /// The `Auth` whose project configures the provider.
    public let auth: Auth

    /// A provider of `auth` (the default app's when omitted).
    public init(providerID: String, auth: Auth = Auth.auth()) {
        (self.providerID, self.auth) = (providerID, auth)
    }

    /// A provider of `auth` (the default app's when omitted), named by its ID value.
    public convenience init(providerID: AuthProviderID, auth: Auth = Auth.auth()) {
        self.init(providerID: providerID.rawValue, auth: auth)
    }

    /// A provider of the default app, as FirebaseAuth's `OAuthProvider.provider(providerID:)`.
    public static func provider(providerID: String) -> OAuthProvider { OAuthProvider(providerID: providerID) }

    /// A provider of `auth`, as FirebaseAuth's `OAuthProvider.provider(providerID:auth:)`.
    public static func provider(providerID: String, auth: Auth) -> OAuthProvider { OAuthProvider(providerID: providerID, auth: auth) }

    /// A provider of `auth` (the default app's when omitted), named by its ID value.
    public static func provider(providerID: AuthProviderID, auth: Auth = Auth.auth()) -> OAuthProvider {
        OAuthProvider(providerID: providerID, auth: auth)
    }

    /// A credential from an OpenID Connect ID token, with the raw nonce its `nonce` claim hashes and the access
    /// token when the provider gave one.
    public static func credential(providerID: AuthProviderID, idToken: String, rawNonce: String? = nil, accessToken: String? = nil)
        -> OAuthCredential
    {
        OAuthCredential(providerID: providerID.rawValue, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// A credential from an OAuth access token alone.
    public static func credential(providerID: AuthProviderID, accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID.rawValue, accessToken: accessToken)
    }

    /// A credential from an ID token and access token, as FirebaseAuth's older `credential(withProviderID:idToken:accessToken:)`.
    public static func credential(withProviderID providerID: String, idToken: String, accessToken: String?) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, accessToken: accessToken)
    }

    /// A credential from an access token, as FirebaseAuth's older `credential(withProviderID:accessToken:)`.
    public static func credential(withProviderID providerID: String, accessToken: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID, accessToken: accessToken)
    }

    /// A credential from an ID token, its raw nonce and an access token, as FirebaseAuth's older
    /// `credential(withProviderID:idToken:rawNonce:accessToken:)`.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String, accessToken: String?)
        -> OAuthCredential
    {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// A credential from an ID token and its raw nonce, as FirebaseAuth's older `credential(withProviderID:idToken:rawNonce:)`.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String) -> OAuthCredential {
        OAuthCredential(providerID: providerID, idToken: idToken, rawNonce: rawNonce)
    }

    /// A Sign in with Apple credential: the identity token of `ASAuthorizationAppleIDCredential`, the raw nonce the
    /// request's SHA-256 `nonce` was made from, and the name Apple gives only at the first authorization (the server
    /// keeps it as the account's display name).
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?, fullName: PersonNameComponents?) -> OAuthCredential {
        OAuthCredential(providerID: AuthProviderID.apple.rawValue, idToken: idToken, rawNonce: rawNonce, fullName: fullName)
    }
}

/// Builds Google credentials, as FirebaseAuth's `GoogleAuthProvider`, from the tokens of Google Sign-In.
public enum GoogleAuthProvider {
    /// The provider ID, `google.com`.
    public static let id = GoogleAuthProviderID

    /// A credential from Google Sign-In's ID token and access token.
    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        OAuthCredential(providerID: id, idToken: idToken, accessToken: accessToken)
    }
}

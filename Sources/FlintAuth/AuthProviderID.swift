/// The provider ID of email and password (and email link) accounts.
public let EmailAuthProviderID = "password"
/// The provider ID of phone accounts.
public let PhoneAuthProviderID = "phone"
/// The provider ID of Google accounts (``GoogleAuthProvider``).
public let GoogleAuthProviderID = "google.com"
/// The provider ID of Facebook accounts.
public let FacebookAuthProviderID = "facebook.com"
/// The provider ID of GitHub accounts.
public let GitHubAuthProviderID = "github.com"
/// The provider ID of Twitter accounts.
public let TwitterAuthProviderID = "twitter.com"
/// The provider ID of Game Center accounts.
public let GameCenterAuthProviderID = "gc.apple.com"

// For these providers the sign-in method is the provider ID itself, as in FirebaseAuth.

/// The sign-in method `fetchSignInMethods(forEmail:)` lists for phone accounts.
public let PhoneAuthSignInMethod = PhoneAuthProviderID
/// The sign-in method listed for Google accounts.
public let GoogleAuthSignInMethod = GoogleAuthProviderID
/// The sign-in method listed for Facebook accounts.
public let FacebookAuthSignInMethod = FacebookAuthProviderID
/// The sign-in method listed for GitHub accounts.
public let GitHubAuthSignInMethod = GitHubAuthProviderID
/// The sign-in method listed for Twitter accounts.
public let TwitterAuthSignInMethod = TwitterAuthProviderID
/// The sign-in method listed for Game Center accounts.
public let GameCenterAuthSignInMethod = GameCenterAuthProviderID

/// A provider ID as a value, as FirebaseAuth's `AuthProviderID` (`.email`, `.phone`, `.google`, …, `.custom(_:)`).
public struct AuthProviderID: Equatable, Hashable, Sendable {
    /// The ID as the server writes it, such as `password`.
    public let rawValue: String

    private init(rawValue: String) { self.rawValue = rawValue }

    /// Sign in with Apple, `apple.com`.
    public static var apple: Self { Self(rawValue: "apple.com") }
    /// Email and password, `password`.
    public static var email: Self { Self(rawValue: EmailAuthProviderID) }
    /// Facebook, `facebook.com`.
    public static var facebook: Self { Self(rawValue: FacebookAuthProviderID) }
    /// Game Center, `gc.apple.com`.
    public static var gameCenter: Self { Self(rawValue: GameCenterAuthProviderID) }
    /// GitHub, `github.com`.
    public static var gitHub: Self { Self(rawValue: GitHubAuthProviderID) }
    /// Google, `google.com`.
    public static var google: Self { Self(rawValue: GoogleAuthProviderID) }
    /// Phone, `phone`.
    public static var phone: Self { Self(rawValue: PhoneAuthProviderID) }
    /// Microsoft, `microsoft.com` (a Flint addition: FirebaseAuth spells it `.custom("microsoft.com")`).
    public static var microsoft: Self { Self(rawValue: "microsoft.com") }
    /// X (Twitter), `twitter.com` (a Flint addition, as ``microsoft``).
    public static var twitter: Self { Self(rawValue: TwitterAuthProviderID) }
    /// Yahoo, `yahoo.com` (a Flint addition, as ``microsoft``).
    public static var yahoo: Self { Self(rawValue: "yahoo.com") }
    /// Any other provider, such as `oidc.example` or `saml.example`.
    public static func custom(_ value: String) -> Self { Self(rawValue: value) }
}

import Foundation

/// The settings of one Flint (Firebase-compatible) project, as `FirebaseOptions`.
public struct FlintOptions: Sendable, Equatable {
    /// The API key sent as `key=` on every request.
    public var apiKey: String
    /// The project ID (the `aud` of ID tokens).
    public var projectID: String
    /// The root of a self-hosted Flint deployment, such as `https://auth.example.com`. Requests go to
    /// `<baseURL>/identitytoolkit.googleapis.com/...` and `<baseURL>/securetoken.googleapis.com/...`.
    /// `nil` addresses Google's hosts, as FirebaseAuth does. `Auth.useEmulator(withHost:port:)` overrides it.
    public var baseURL: URL?
    /// The app's ID in the project (`GOOGLE_APP_ID`, `1:1234:ios:abcd`); names the Keychain entry of the signed-in user.
    /// Without a `clientID`, app verification's web challenge returns to the app through `app-1-1234-ios-abcd`.
    public var googleAppID: String?
    /// The iOS bundle identifier (`BUNDLE_ID`); the web challenge's `ibi` (`nil` there uses
    /// `Bundle.main.bundleIdentifier`).
    public var bundleID: String?
    /// The OAuth client ID (`CLIENT_ID`). When set, the web challenge returns to the app through its reversed form as
    /// URL scheme (`com.googleusercontent.apps.…`).
    public var clientID: String?
    /// The sender ID (`GCM_SENDER_ID`), also the project number.
    public var gcmSenderID: String?

    /// Options for a project.
    public init(
        apiKey: String, projectID: String, baseURL: URL? = nil, clientID: String? = nil, googleAppID: String? = nil, bundleID: String? = nil
    ) {
        self.apiKey = apiKey
        self.projectID = projectID
        self.baseURL = baseURL
        self.clientID = clientID
        self.googleAppID = googleAppID
        self.bundleID = bundleID
    }
}

/// A configured app, as `FirebaseApp`: a name and its options.
public final class FlintApp: Sendable {
    /// The default app's name, as FirebaseCore's.
    public static let defaultName = "__FIRAPP_DEFAULT"

    /// The app's name.
    public let name: String
    /// The app's options.
    public let options: FlintOptions

    private static let apps = Locked<[String: FlintApp]>([:])

    private init(name: String, options: FlintOptions) {
        self.name = name
        self.options = options
    }

    /// Configures the default app, which `Auth.auth()` uses. Configuring it again replaces its options.
    public static func configure(options: FlintOptions) {
        configure(name: defaultName, options: options)
    }

    /// Configures a named app.
    public static func configure(name: String, options: FlintOptions) {
        let app = FlintApp(name: name, options: options)
        apps.withLock { $0[name] = app }
    }

    /// The default app, if configured.
    public static func app() -> FlintApp? { app(name: defaultName) }

    /// A named app, if configured.
    public static func app(name: String) -> FlintApp? { apps.withLock { $0[name] } }
}

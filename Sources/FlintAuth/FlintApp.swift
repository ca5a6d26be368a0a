public import Foundation

/// The settings of one Flint (Firebase-compatible) project, as FirebaseCore's `FirebaseOptions` (which is the same
/// type): a class, so options made with `init(googleAppID:gcmSenderID:)` can be filled in one property at a time.
/// `FlintApp.configure(options:)` keeps a copy, so changing the options afterwards does not change a configured app.
public final class FlintOptions: Sendable, Equatable {
    /// The values, behind a lock so the options can be shared between tasks and still be set property by property.
    struct Values: Sendable, Equatable {
        var apiKey: String
        var projectID: String
        var baseURL: URL?
        var googleAppID: String?
        var bundleID: String?
        var clientID: String?
        var gcmSenderID: String?
        var storageBucket: String?
        var databaseURL: String?
        var appGroupID: String?
    }

    let values: Locked<Values>

    /// One value, read or set under the lock.
    private subscript<T>(field: WritableKeyPath<Values, T>) -> T {
        get { values.current[keyPath: field] }
        set { values.withLock { $0[keyPath: field] = newValue } }
    }

    /// The API key sent as `key=` on every request.
    public var apiKey: String {
        get { self[\.apiKey] }
        set { self[\.apiKey] = newValue }
    }
    /// The project ID (the `aud` of ID tokens).
    public var projectID: String {
        get { self[\.projectID] }
        set { self[\.projectID] = newValue }
    }
    /// The root of a self-hosted Flint deployment, such as `https://auth.example.com`. Requests go to
    /// `<baseURL>/identitytoolkit.googleapis.com/...` and `<baseURL>/securetoken.googleapis.com/...`.
    /// `nil` addresses Google's hosts, as FirebaseAuth does. `Auth.useEmulator(withHost:port:)` overrides it.
    public var baseURL: URL? {
        get { self[\.baseURL] }
        set { self[\.baseURL] = newValue }
    }
    /// The app's ID in the project (`GOOGLE_APP_ID`, `1:1234:ios:abcd`); names the Keychain entry of the signed-in user.
    /// Without a `clientID`, app verification's web challenge returns to the app through `app-1-1234-ios-abcd`.
    public var googleAppID: String? {
        get { self[\.googleAppID] }
        set { self[\.googleAppID] = newValue }
    }
    /// The iOS bundle identifier (`BUNDLE_ID`); the web challenge's `ibi` (`nil` there uses
    /// `Bundle.main.bundleIdentifier`).
    public var bundleID: String? {
        get { self[\.bundleID] }
        set { self[\.bundleID] = newValue }
    }
    /// The OAuth client ID (`CLIENT_ID`). When set, the web challenge returns to the app through its reversed form as
    /// URL scheme (`com.googleusercontent.apps.…`).
    public var clientID: String? {
        get { self[\.clientID] }
        set { self[\.clientID] = newValue }
    }
    /// The sender ID (`GCM_SENDER_ID`), also the project number.
    public var gcmSenderID: String? {
        get { self[\.gcmSenderID] }
        set { self[\.gcmSenderID] = newValue }
    }
    /// The Cloud Storage bucket (`STORAGE_BUCKET`); kept for apps that read it, unused by Flint.
    public var storageBucket: String? {
        get { self[\.storageBucket] }
        set { self[\.storageBucket] = newValue }
    }
    /// The Realtime Database URL (`DATABASE_URL`); kept for apps that read it, unused by Flint.
    public var databaseURL: String? {
        get { self[\.databaseURL] }
        set { self[\.databaseURL] = newValue }
    }
    /// The App Group ID shared with app extensions; kept for apps that set it, unused by Flint.
    public var appGroupID: String? {
        get { self[\.appGroupID] }
        set { self[\.appGroupID] = newValue }
    }

    /// Options for a project.
    public init(
        apiKey: String, projectID: String, baseURL: URL? = nil, clientID: String? = nil, googleAppID: String? = nil, bundleID: String? = nil
    ) {
        values = Locked(
            Values(apiKey: apiKey, projectID: projectID, baseURL: baseURL, googleAppID: googleAppID, bundleID: bundleID, clientID: clientID))
    }

    /// Options that name the app and its sender, as `FirebaseOptions(googleAppID:gcmSenderID:)`; set `apiKey` and
    /// `projectID` (and `baseURL` for a self-hosted server) before configuring an app with them.
    public init(googleAppID: String, gcmSenderID: String) {
        values = Locked(Values(apiKey: "", projectID: "", googleAppID: googleAppID, gcmSenderID: gcmSenderID))
    }

    init(values: Values) { self.values = Locked(values) }

    /// An independent copy (as `FirebaseOptions.copy()`).
    public func copy() -> FlintOptions { FlintOptions(values: values.current) }

    /// Whether two options hold the same values.
    public static func == (lhs: FlintOptions, rhs: FlintOptions) -> Bool { lhs.values.current == rhs.values.current }
}

/// A configured app, as FirebaseCore's `FirebaseApp` (which is the same type): a name and its options.
public final class FlintApp: Sendable {
    /// The default app's name, as FirebaseCore's.
    public static let defaultName = "__FIRAPP_DEFAULT"

    /// The app's name.
    public let name: String
    /// The app's options: a copy of those it was configured with.
    public let options: FlintOptions

    private static let apps = Locked<[String: FlintApp]>([:])

    private init(name: String, options: FlintOptions) {
        self.name = name
        self.options = options.copy()
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

    /// Every configured app by name, or `nil` when none is (as `FirebaseApp.allApps`).
    public static var allApps: [String: FlintApp]? {
        let all = apps.current
        return all.isEmpty ? nil : all
    }

    /// Forgets the app: `app(name:)` no longer returns it and `Auth.auth(app:)` of a later app with its name starts
    /// afresh. The completion gets `true`, as FirebaseCore's.
    public func delete(_ completion: @escaping (Bool) -> Void) {
        Self.apps.withLock { apps in
            if apps[name] === self { apps[name] = nil }
        }
        completion(true)
    }
}

/// FirebaseCore's name for `FlintApp`.
public typealias FirebaseApp = FlintApp
/// FirebaseCore's name for `FlintOptions`.
public typealias FirebaseOptions = FlintOptions

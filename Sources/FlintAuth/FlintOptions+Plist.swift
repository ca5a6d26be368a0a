import Foundation

extension FlintOptions {
    /// The plist key of Flint's own setting: the root of a self-hosted server (`FlintOptions.baseURL`), such as
    /// `https://auth.example.com`. Firebase's tools do not write it; add it to `GoogleService-Info.plist` by hand.
    public static let baseURLKey = "FLINT_BASE_URL"
    /// The environment variable naming the `GoogleService-Info.plist` that `FlintApp.configure()` reads.
    public static let plistPathVariable = "FLINT_GOOGLE_SERVICE_INFO"

    /// The options of a `GoogleService-Info.plist` (`API_KEY`, `PROJECT_ID`, `GOOGLE_APP_ID`, `BUNDLE_ID`,
    /// `CLIENT_ID`, `GCM_SENDER_ID`, and Flint's `FLINT_BASE_URL`), or `nil` when it cannot be read (as
    /// `FirebaseOptions(contentsOfFile:)`); `load(contentsOfFile:)` says why.
    public convenience init?(contentsOfFile plistPath: String) {
        guard let options = try? Self.load(contentsOfFile: plistPath) else { return nil }
        self.init(values: options.values.current)
    }

    /// The options of a `GoogleService-Info.plist`.
    /// - Throws: an `NSError` in `FIRAuthErrorDomain`: `internalError` when the file cannot be read or is not a
    ///   dictionary plist, `invalidAPIKey` when `API_KEY` is missing, `internalError` when `PROJECT_ID` is missing
    ///   or `FLINT_BASE_URL` is not an absolute URL. The message names the file and the key.
    public static func load(contentsOfFile plistPath: String) throws -> FlintOptions {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: plistPath))
        } catch {
            throw AuthErrorCode.internalError.error(
                detail: "Could not read \(plistPath): \(error.localizedDescription)", userInfo: [NSUnderlyingErrorKey: error])
        }
        let plist: [String: Any]
        do {
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw AuthErrorCode.internalError.error(detail: "\(plistPath) is not a dictionary property list.")
            }
            plist = dictionary
        } catch let error as NSError where error.domain == AuthErrors.domain {
            throw error
        } catch {
            throw AuthErrorCode.internalError.error(
                detail: "\(plistPath) is not a property list: \(error.localizedDescription)", userInfo: [NSUnderlyingErrorKey: error])
        }
        let text = { (key: String) -> String? in (plist[key] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        guard let apiKey = text("API_KEY") else {
            throw AuthErrorCode.invalidAPIKey.error(detail: "\(plistPath) has no API_KEY.")
        }
        guard let projectID = text("PROJECT_ID") else {
            throw AuthErrorCode.internalError.error(detail: "\(plistPath) has no PROJECT_ID.")
        }
        var baseURL: URL?
        if let base = text(baseURLKey) {
            guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil
            else {
                throw AuthErrorCode.internalError.error(detail: "\(baseURLKey) in \(plistPath) is not an http(s) URL: \(base)")
            }
            baseURL = url
        }
        let options = FlintOptions(apiKey: apiKey, projectID: projectID, baseURL: baseURL)
        options.googleAppID = text("GOOGLE_APP_ID")
        options.bundleID = text("BUNDLE_ID")
        options.clientID = text("CLIENT_ID")
        options.gcmSenderID = text("GCM_SENDER_ID")
        options.storageBucket = text("STORAGE_BUCKET")
        options.databaseURL = text("DATABASE_URL")
        return options
    }

    /// Where `FlintApp.configure()` looks for `GoogleService-Info.plist`, in order: the path in
    /// `FLINT_GOOGLE_SERVICE_INFO`, the main bundle's resource, the current directory.
    static func defaultPlistCandidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var paths: [String] = []
        if let path = environment[plistPathVariable], !path.isEmpty { paths.append(path) }
        if let path = Bundle.main.path(forResource: "GoogleService-Info", ofType: "plist") { paths.append(path) }
        paths.append(FileManager.default.currentDirectoryPath + "/GoogleService-Info.plist")
        return paths
    }

    /// The options of the first `GoogleService-Info.plist` found (see `FlintApp.configure()`).
    /// - Throws: as `load(contentsOfFile:)`; `internalError` naming the places searched when there is none.
    public static func loadDefault() throws -> FlintOptions {
        try loadDefault(environment: ProcessInfo.processInfo.environment)
    }

    /// As ``loadDefault()``, with `environment` read in place of the process's (tests pass one rather than change the
    /// process's: `setenv` while another thread starts a process can crash it).
    static func loadDefault(environment: [String: String]) throws -> FlintOptions {
        let candidates = defaultPlistCandidates(environment: environment)
        let explicit = environment[plistPathVariable].flatMap { $0.isEmpty ? nil : $0 }
        for path in candidates where path == explicit || FileManager.default.fileExists(atPath: path) {
            return try load(contentsOfFile: path)
        }
        throw AuthErrorCode.internalError.error(
            detail: "No GoogleService-Info.plist found (looked in: \(candidates.joined(separator: ", "))). "
                + "Add it to the app bundle or the current directory, set \(plistPathVariable) to its path, "
                + "or call FlintApp.configure(options:).")
    }

    /// The options of the default `GoogleService-Info.plist`, or `nil` (as `FirebaseOptions.defaultOptions()`).
    public static func defaultOptions() -> FlintOptions? { try? loadDefault() }
}

extension FlintApp {
    /// Configures the default app from `GoogleService-Info.plist`: the file named by `FLINT_GOOGLE_SERVICE_INFO`, else
    /// the main bundle's, else the current directory's (as `FirebaseApp.configure()`). When none can be read it
    /// writes the reason to standard error and leaves the app unconfigured; `configureFromPlist()` throws it instead.
    public static func configure() {
        do {
            try configureFromPlist()
        } catch {
            FileHandle.standardError.write(Data("FlintApp.configure(): \(error.localizedDescription)\n".utf8))
        }
    }

    /// Configures the default app from `GoogleService-Info.plist`, as `configure()`.
    /// - Throws: the reason the file could not be found or read (see `FlintOptions.load(contentsOfFile:)`).
    public static func configureFromPlist() throws {
        configure(options: try FlintOptions.loadDefault())
    }
}

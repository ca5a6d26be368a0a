import Foundation

/// The entry point of the SDK, as FirebaseAuth's `Auth`: one instance per app, holding the signed-in user.
public final class Auth: Sendable {
    /// The app this instance serves.
    let flintApp: FlintApp
    /// The app this instance serves (optional, as FirebaseAuth's `Auth.app`).
    public var app: FlintApp? { flintApp }
    let backend: Backend
    /// The directory of the file stores when tests give one; `nil` uses the platform's stores.
    let storeDirectory: URL?
    /// Where the user is kept (the app's own store or an access group's), and the settings that choose it.
    let sharing: Locked<Sharing>
    /// Where the current user is kept.
    var store: any UserStorage { sharing.current.store }
    /// Keeps the current user's ID token fresh once a token has been handed out.
    let autoRefresh: TokenAutoRefresh
    let state: Locked<State>
    /// App verification: APNs token, app credential, pending pushes and web challenges.
    let appVerifier: AppVerifier
    /// The observer waiting for protected data (UIKit platforms), while a locked Keychain kept the user unread.
    let protectedDataObserver = Locked<ObserverToken?>(nil)
    private let settingsStorage = Locked<AuthSettings?>(AuthSettings())
    /// The instance's settings, such as `isAppVerificationDisabledForTesting`; optional and replaced by a copy when
    /// set, as FirebaseAuth's (a new instance always has settings).
    public var settings: AuthSettings? {
        get { settingsStorage.current }
        set { settingsStorage.withLock { $0 = newValue?.copy() } }
    }

    struct Sharing: Sendable {
        var store: any UserStorage
        var accessGroup: String?
        var shareAcrossDevices = false
        var customAuthDomain: String?
    }

    struct State: Sendable {
        var currentUser: User?
        var stateListeners: [ObjectIdentifier: StateListener] = [:]
        var tokenListeners: [ObjectIdentifier: Callback<IDTokenDidChangeListenerBlock>] = [:]
    }

    struct StateListener: Sendable {
        var block: Callback<AuthStateDidChangeListenerBlock>
        var lastUID: String?
    }

    private static let instances = Locked<[String: Auth]>([:])

    /// The instance of the default app (`FlintApp.configure(options:)` must have run).
    public static func auth() -> Auth {
        guard let app = FlintApp.app() else {
            preconditionFailure("FlintApp.configure(options:) must run before Auth.auth().")
        }
        return auth(app: app)
    }

    /// The instance of `app`.
    public static func auth(app: FlintApp) -> Auth {
        instances.withLock { instances in
            if let existing = instances[app.name], existing.flintApp === app { return existing }
            let auth = Auth(app: app)
            instances[app.name] = auth
            return auth
        }
    }

    /// A new instance, restoring the user stored for the app: from a file in `storeDirectory` when given, otherwise
    /// from the platform's store (`Auth.defaultStore(for:)`). `now` is the clock token lifetimes are read on.
    init(
        app: FlintApp, storeDirectory: URL? = nil, autoRefresh: TokenAutoRefresh = TokenAutoRefresh(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        flintApp = app
        backend = Backend(options: app.options, now: now)
        self.storeDirectory = storeDirectory
        let userStore =
            storeDirectory.map { UserStore(appName: app.name, apiKey: app.options.apiKey, directory: $0) as any UserStorage }
            ?? Self.defaultStore(for: app)
        sharing = Locked(Sharing(store: userStore))
        self.autoRefresh = autoRefresh
        appVerifier = AppVerifier(store: AppCredentialStore(appName: app.name, apiKey: app.options.apiKey, directory: storeDirectory))
        state = Locked(State())
        if let group = rememberedAccessGroup() {
            let groupStore = store(forAccessGroup: group)
            sharing.withLock {
                $0.store = groupStore
                $0.accessGroup = group
            }
        }
        if let user = storedUser() {
            // As FirebaseAuth: a restored user brings back its tenant (not when it comes from an access group).
            if userAccessGroup == nil { tenantID = user.tenantID }
            state.withLock { $0.currentUser = user }
        }
        restoreWhenProtectedDataIsAvailable()
    }

    /// The signed-in user, or `nil`.
    public var currentUser: User? { state.current.currentUser }

    /// The language of emails and texts the server sends, sent as `X-Firebase-Locale`.
    public var languageCode: String? {
        get { backend.configuration.current.languageCode }
        set { backend.configuration.withLock { $0.languageCode = newValue } }
    }

    /// The tenant the instance signs users in to, `nil` for the project itself. Sent as `tenantId` in the body of
    /// every Identity Toolkit request that FirebaseAuth sends it with; users signed in while it is set carry it as
    /// `User.tenantID`, and `updateCurrentUser(_:)` refuses a user of another tenant (`tenantIDMismatch`). A new
    /// instance that restores a stored user takes that user's tenant, as FirebaseAuth's does.
    public var tenantID: String? {
        get { backend.configuration.current.tenantID }
        set { backend.configuration.withLock { $0.tenantID = newValue } }
    }

    /// Sets `languageCode` to the device's preferred language.
    public func useAppLanguage() {
        languageCode = Locale.preferredLanguages.first
    }

    /// Sends every request to a Flint (or Firebase Auth emulator) at `http://host:port/`, as FirebaseAuth does, and
    /// turns on `settings.isAppVerificationDisabledForTesting`.
    public func useEmulator(withHost host: String, port: Int) {
        let address = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        backend.configuration.withLock { $0.emulatorHost = address }
        settings?.isAppVerificationDisabledForTesting = true
    }

    /// Signs the user out locally: forgets the stored user and tells the listeners. No server call.
    public func signOut() throws {
        signOutCurrentUser { _ in true }
    }

    /// Signs `user` out if it is still the current user (after `delete()` or a session that ended).
    func signOutIfCurrent(_ user: User) {
        signOutCurrentUser { $0 === user }
    }

    /// Forgets the current user if there is one and `matches` it, stops its refresh and tells the listeners.
    private func signOutCurrentUser(where matches: (User) -> Bool) {
        let signedOut = state.withLock { state -> Bool in
            guard let current = state.currentUser, matches(current) else { return false }
            state.currentUser = nil
            store.remove()
            return true
        }
        if signedOut {
            autoRefresh.stop()
            notifyListeners()
        }
    }

    /// Makes `user` the current user, stores it and tells the listeners.
    func makeCurrent(_ user: User) async throws {
        let tokens = await user.tokenService.tokens
        try state.withLock { state in
            state.currentUser = user
            do {
                try store.save(StoredUser(profile: user.profile.current, tokens: tokens))
            } catch {
                throw AuthErrorCode.keychainError.error(userInfo: [NSUnderlyingErrorKey: error])
            }
        }
        autoRefresh.currentUserChanged(to: user, auth: self)
        notifyListeners()
    }

    /// Stores a refreshed token of the current user and tells the ID-token listeners.
    func userTokensDidChange(_ user: User) async {
        await persistIfCurrent(user)
        if currentUser === user { notifyListeners() }
    }

    /// Stores `user` again (new tokens or profile) when it is the current user.
    func persistIfCurrent(_ user: User) async {
        let tokens = await user.tokenService.tokens
        state.withLock { state in
            guard state.currentUser === user else { return }
            try? store.save(StoredUser(profile: user.profile.current, tokens: tokens))
        }
    }

    /// The tokens of a sign-in answer, with FirebaseAuth's checks. An answer that asks for a second factor throws
    /// `secondFactorRequired` carrying a `MultiFactorResolver` (when `auth` is known) that completes in `auth`.
    static func tokens(of response: SignInResponse, auth: Auth?, providerID: String) throws -> SecureTokenService.Tokens {
        guard let idToken = response.idToken, let refreshToken = response.refreshToken else {
            if let pending = response.mfaPendingCredential, !pending.isEmpty {
                guard let auth else { throw AuthErrorCode.secondFactorRequired.error() }
                throw MultiFactorResolver.secondFactorRequiredError(response, pendingCredential: pending, providerID: providerID, auth: auth)
            }
            throw AuthErrorCode.invalidUserToken.error()
        }
        return .init(accessToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn, now: auth?.backend.now() ?? Date())
    }

    /// Builds the user of a sign-in answer (profile from `accounts:lookup`) and makes it current; `username` is the
    /// provider's user name when the answer names it apart from `screenName`.
    func completeSignIn(
        _ response: SignInResponse, isNewUser: Bool, providerID: String = EmailAuthProvider.id, username: String? = nil
    ) async throws -> AuthDataResult {
        let tokens = try Self.tokens(of: response, auth: self, providerID: providerID)
        var profile = UserProfile(uid: response.localId ?? "")
        profile.tenantID = tenantID
        let user = User(profile: profile, tokens: tokens, backend: backend, auth: self)
        try await user.load(idToken: tokens.accessToken)
        try await makeCurrent(user)
        return AuthDataResult(
            user: user,
            additionalUserInfo: AdditionalUserInfo(
                providerID: providerID, isNewUser: isNewUser, rawUserInfo: response.rawUserInfo, screenName: username ?? response.screenName))
    }
}

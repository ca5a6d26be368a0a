public import Foundation

/// A signed-in user: a cached profile and the tokens that act for it. Its `UserInfo` is the account's own (provider
/// `Firebase`); two `User` values are equal when they are the same object, as FirebaseAuth's (an `NSObject`) are.
public final class User: UserInfo, Hashable {
    let profile: Locked<UserProfile>
    let tokenService: SecureTokenService
    let backend: Backend
    private let owner: Locked<AuthReference>
    /// The name `startPasskeyEnrollment(withName:)` chose, which `finalizePasskeyEnrollment` sends.
    let passkeyName = Locked<String?>(nil)

    struct AuthReference: Sendable {
        weak var auth: Auth?
    }

    init(profile: UserProfile, tokens: SecureTokenService.Tokens, backend: Backend, auth: Auth?) {
        self.profile = Locked(profile)
        self.tokenService = SecureTokenService(tokens: tokens, now: backend.now)
        self.backend = backend
        self.owner = Locked(AuthReference(auth: auth))
    }

    var auth: Auth? { owner.current.auth }

    /// Binds the user to `auth` (`Auth.updateCurrentUser(_:)` with a user of another app).
    func attach(to auth: Auth) { owner.withLock { $0.auth = auth } }

    /// The user's ID (`localId`).
    public var uid: String { profile.current.uid }
    /// Always `Firebase`, as FirebaseAuth.
    public var providerID: String { "Firebase" }
    /// The email address.
    public var email: String? { profile.current.email }
    /// The phone number (E.164).
    public var phoneNumber: String? { profile.current.phoneNumber }
    /// Whether the email address is verified.
    public var isEmailVerified: Bool { profile.current.emailVerified }
    /// The display name.
    public var displayName: String? { profile.current.displayName }
    /// The photo URL.
    public var photoURL: URL? { profile.current.photoURL }
    /// Whether the account has no provider at all (an anonymous sign-in).
    public var isAnonymous: Bool { profile.current.providerData.isEmpty }
    /// ``isAnonymous``, under the name FirebaseAuth also offers (its Objective-C spelling).
    public func anonymous() -> Bool { isAnonymous }
    /// ``isEmailVerified``, under the name FirebaseAuth also offers (its Objective-C spelling).
    public func emailVerified() -> Bool { isEmailVerified }
    /// The user's details at each linked provider.
    public var providerData: [any UserInfo] { profile.current.providerData }
    /// When the account was created and last signed in.
    public var metadata: UserMetadata { profile.current.metadata }
    /// The tenant the user belongs to (`Auth.tenantID` when it signed in), `nil` for the project itself.
    public var tenantID: String? { profile.current.tenantID }

    /// Whether `lhs` and `rhs` are the same object.
    public static func == (lhs: User, rhs: User) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The ID token: the cached one while it has more than five minutes left, otherwise (or when forced) a fresh one
    /// from `securetoken.googleapis.com/v1/token`. Concurrent calls share one refresh.
    /// - Throws: `userTokenExpired`, `userDisabled`, `userNotFound` or `invalidUserToken` when the session is over
    ///   (the user is then signed out), `networkError` when the server cannot be reached.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        do {
            let (token, changed) = try await tokenService.accessToken(forcingRefresh: forcingRefresh, backend: backend)
            if changed { await auth?.userTokensDidChange(self) }
            auth?.tokenWasHandedOut(by: self)
            return token
        } catch let error as NSError {
            let sessionOver: Set<AuthErrorCode> = [.userNotFound, .userDisabled, .invalidUserToken, .userTokenExpired]
            if error.domain == AuthErrors.domain, let code = AuthErrorCode(rawValue: error.code), sessionOver.contains(code) {
                auth?.signOutIfCurrent(self)
            }
            throw error
        }
    }

    /// The ID token, refreshed first when `forceRefresh` is `true`; the same as `getIDToken(forcingRefresh:)`.
    public func idTokenForcingRefresh(_ forceRefresh: Bool) async throws -> String {
        try await getIDToken(forcingRefresh: forceRefresh)
    }

    /// The ID token with its decoded claims.
    /// - Throws: as `getIDToken(forcingRefresh:)`, and `malformedJWT` when the token cannot be read.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// Reads the profile again from the server (`accounts:lookup`).
    public func reload() async throws {
        let token = try await getIDToken()
        try await load(idToken: token)
        await auth?.persistIfCurrent(self)
    }

    /// Fills the profile from `accounts:lookup` with `idToken`.
    func load(idToken: String) async throws {
        let response = try await backend.call(
            "accounts:lookup", IDTokenRequest(idToken: idToken), as: LookupResponse.self, idempotent: true)
        guard let accounts = response.users, accounts.count == 1 else {
            throw AuthErrorCode.internalError.error(detail: "accounts:lookup did not answer with exactly one user.")
        }
        profile.withLock { profile in
            let tenantID = profile.tenantID
            profile = UserProfile(accounts[0])
            if profile.tenantID == nil { profile.tenantID = tenantID }
        }
    }

    /// Deletes the account (`accounts:delete`) and signs it out.
    public func delete() async throws {
        let token = try await getIDToken()
        _ = try await backend.call("accounts:delete", DeleteAccountRequest(idToken: token, localId: uid), as: EmptyResponse.self)
        auth?.signOutIfCurrent(self)
    }
}

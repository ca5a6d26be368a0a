import FirebaseAuth
import FirebaseCore
import Foundation

// App code as FirebaseAuth's guides and quickstarts write it. These functions are compiled, not run (they need a
// server); `ProbeTests` runs the offline parts. One call per FirebaseAuth member FlintAuth offers.

/// An app's own model named `User`, the reason apps write `FirebaseAuth.User`.
struct User {
    let name: String
}

/// FirebaseCore: configuring apps.
func configureApps() {
    FirebaseApp.configure()
    let secondary = FirebaseOptions(googleAppID: "1:27992087142:ios:2a4732a34787067a", gcmSenderID: "27992087142")
    secondary.apiKey = "AIzaSyExample"
    secondary.projectID = "project-12345"
    secondary.bundleID = "com.example.app"
    secondary.clientID = "123-abc.apps.googleusercontent.com"
    FirebaseApp.configure(name: "secondary", options: secondary)
    guard let app = FirebaseApp.app(name: "secondary") else { return }
    let clientID: String? = FirebaseApp.app()?.options.clientID
    _ = clientID
    _ = FirebaseOptions(contentsOfFile: "GoogleService-Info.plist")
    _ = FirebaseOptions.defaultOptions()
    _ = FirebaseApp.allApps
    let auth: FirebaseAuth.Auth = Auth.auth(app: app)
    let owner: FirebaseCore.FirebaseApp? = auth.app
    let copied: FirebaseCore.FirebaseOptions = app.options
    _ = (owner?.name, copied.googleAppID)
    app.delete { _ in }
}

/// Auth's properties and state listeners.
func authState(modelUser: User) {
    let auth = Auth.auth()
    let current: FirebaseAuth.User? = auth.currentUser
    _ = current
    auth.languageCode = "fr"
    auth.useAppLanguage()
    auth.settings?.isAppVerificationDisabledForTesting = true
    auth.settings = AuthSettings()
    auth.tenantID = "tenant-1"
    auth.customAuthDomain = "auth.example.com"
    auth.shareAuthStateAcrossDevices = false
    _ = auth.userAccessGroup
    try? auth.useUserAccessGroup("TEAMID.com.example.shared")
    _ = try? auth.getStoredUser(forAccessGroup: "TEAMID.com.example.shared")
    auth.useEmulator(withHost: "localhost", port: 9099)
    var handle: AuthStateDidChangeListenerHandle?
    handle = auth.addStateDidChangeListener { auth, user in _ = (auth, user?.uid) }
    if let handle { auth.removeStateDidChangeListener(handle) }
    let tokenHandle: IDTokenDidChangeListenerHandle = auth.addIDTokenDidChangeListener { _, _ in }
    auth.removeIDTokenDidChangeListener(tokenHandle)
    try? auth.signOut()
    _ = modelUser.name
}

/// The async sequences of sign-in state and ID tokens.
func observe() async {
    for await user in Auth.auth().authStateChanges {
        _ = user?.uid
        break
    }
    for await user in Auth.auth().idTokenChanges {
        _ = user?.email
        break
    }
}

/// Email and password, email links, action codes.
func email(actionCodeSettings: ActionCodeSettings) async throws {
    let auth = Auth.auth()
    let created = try await auth.createUser(withEmail: "a@example.com", password: "secret123")
    _ = created.additionalUserInfo?.isNewUser
    let result = try await auth.signIn(withEmail: "a@example.com", password: "secret123")
    let profile: [String: Any]? = result.additionalUserInfo?.profile
    _ = (profile?["name"] as? String, result.additionalUserInfo?.username, result.additionalUserInfo?.providerID)
    actionCodeSettings.url = URL(string: "https://example.com/finish")
    actionCodeSettings.handleCodeInApp = true
    actionCodeSettings.iOSBundleID = "com.example.app"
    actionCodeSettings.androidPackageName = "com.example.android"
    actionCodeSettings.androidInstallIfNotAvailable = true
    actionCodeSettings.androidMinimumVersion = "12"
    actionCodeSettings.setAndroidPackageName("com.example.android", installIfNotAvailable: false, minimumVersion: "12")
    actionCodeSettings.linkDomain = "example.page.link"
    try await auth.sendSignInLink(toEmail: "a@example.com", actionCodeSettings: actionCodeSettings)
    try await auth.sendPasswordReset(withEmail: "a@example.com")
    try await auth.sendPasswordReset(withEmail: "a@example.com", actionCodeSettings: nil)
    try await auth.sendPasswordReset(withEmail: "a@example.com", actionCodeSettings: actionCodeSettings)
    auth.sendPasswordReset(withEmail: "a@example.com", actionCodeSettings: nil) { error in _ = error }
    let link = "https://example.com/?mode=signIn&oobCode=abc"
    if auth.isSignIn(withEmailLink: link) {
        _ = try await auth.signIn(withEmail: "a@example.com", link: link)
    }
    if let url = ActionCodeURL(link: link), url.operation == .emailLink {
        _ = (url.code, url.apiKey, url.continueURL, url.languageCode)
    }
    let info = try await auth.checkActionCode("abc")
    _ = (info.operation, info.email, info.previousEmail)
    try await auth.applyActionCode("abc")
    _ = try await auth.verifyPasswordResetCode("abc")
    try await auth.confirmPasswordReset(withCode: "abc", newPassword: "secret456")
    let methods = try await auth.fetchSignInMethods(forEmail: "a@example.com")
    _ = methods.contains(EmailPasswordAuthSignInMethod) || methods.contains(EmailLinkAuthSignInMethod)
    let credential = EmailAuthProvider.credential(withEmail: "a@example.com", password: "secret123")
    _ = try await auth.signIn(with: credential)
    _ = try await auth.signInAnonymously()
    let custom = try await auth.signIn(withCustomToken: "token-from-the-backend")
    _ = (custom.user.uid, custom.additionalUserInfo?.isNewUser)
    auth.signIn(withCustomToken: "token-from-the-backend") { result, error in _ = (result?.user.uid, error) }
}

/// The signed-in user.
func user(_ user: FirebaseAuth.User, other: FirebaseAuth.User) async throws {
    let info: any UserInfo = user
    _ = (info.providerID, info.uid, info.displayName, info.photoURL, info.email, info.phoneNumber)
    _ = user == other
    var seen = Set<FirebaseAuth.User>()
    seen.insert(user)
    _ = (user.isAnonymous, user.isEmailVerified, user.metadata.creationDate, user.metadata.lastSignInDate, user.tenantID)
    _ = user.refreshToken
    for provider in user.providerData where provider.providerID == EmailAuthProviderID || provider.providerID == PhoneAuthProviderID {
        _ = provider.uid
    }
    _ = [GoogleAuthProviderID, FacebookAuthProviderID, GitHubAuthProviderID, TwitterAuthProviderID, GameCenterAuthProviderID]
    _ = [PhoneAuthSignInMethod, GoogleAuthSignInMethod, FacebookAuthSignInMethod, GitHubAuthSignInMethod, TwitterAuthSignInMethod]
    _ = GameCenterAuthSignInMethod
    _ = AuthProviderID.google.rawValue == AuthProviderID.custom("oidc.example").rawValue
    _ = try await user.idTokenForcingRefresh(true)
    _ = try await user.getIDToken()
    _ = try await user.getIDTokenResult(forcingRefresh: false).claims
    try await user.reload()
    let change = user.createProfileChangeRequest()
    change.displayName = "Ada"
    try await change.commitChanges()
    try await user.updatePassword(to: "secret789")
    try await user.sendEmailVerification()
    _ = try await user.link(with: EmailAuthProvider.credential(withEmail: "a@example.com", password: "x"))
    _ = try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: "a@example.com", password: "x"))
    try await Auth.auth().updateCurrentUser(user)
    try await user.delete()
}

/// Phone sign-in and multi-factor.
func phone(session: MultiFactorSession, hint: PhoneMultiFactorInfo, user: FirebaseAuth.User) async throws {
    let provider = PhoneAuthProvider.provider()
    let verificationID = try await provider.verifyPhoneNumber("+16505550101")
    _ = try await provider.verifyPhoneNumber("+16505550101", multiFactorSession: session)
    _ = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: session)
    provider.verifyPhoneNumber("+16505550101", multiFactorSession: session) { id, error in _ = (id, error) }
    let credential = provider.credential(withVerificationID: verificationID, verificationCode: "123456")
    _ = try await Auth.auth().signIn(with: credential)
    let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
    try await user.multiFactor.enroll(with: assertion, displayName: "phone")
    _ = (PhoneMultiFactorID, TOTPMultiFactorID)
}

/// Errors as apps read them.
func handle(_ error: any Error) -> String {
    let error = error as NSError
    guard error.domain == AuthErrorDomain, let code = AuthErrorCode(rawValue: error.code) else { return "other" }
    switch code {
    case .secondFactorRequired:
        let resolver = error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver
        return "mfa \(resolver?.hints.count ?? 0)"
    case .emailAlreadyInUse:
        return error.userInfo[AuthErrorUserInfoEmailKey] as? String ?? ""
    case .credentialAlreadyInUse:
        return "\(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? AuthCredential != nil)"
    case .tenantIDMismatch, .rejectedCredential, .invalidRecaptchaToken, .missingClientType:
        return error.userInfo[AuthErrorUserInfoNameKey] as? String ?? ""
    default:
        return error.localizedDescription
    }
}

/// Sign in with Apple and Google, as apps write them with AuthenticationServices and Google Sign-In.
func federated(_ auth: Auth, appleIDToken: String, rawNonce: String, fullName: PersonNameComponents?) async throws {
    let apple = OAuthProvider.appleCredential(withIDToken: appleIDToken, rawNonce: rawNonce, fullName: fullName)
    let result = try await auth.signIn(with: apple)
    _ = (result.credential?.idToken, result.additionalUserInfo?.profile, result.additionalUserInfo?.providerID)
    let google = GoogleAuthProvider.credential(withIDToken: "google-id-token", accessToken: "google-access-token")
    _ = try await result.user.link(with: google)
    _ = try await result.user.reauthenticate(with: google)
    _ = try await result.user.unlink(fromProvider: GoogleAuthProvider.id)
    let oidc = OAuthProvider.credential(providerID: AuthProviderID.custom("oidc.corp"), idToken: "id-token", rawNonce: rawNonce)
    auth.signIn(with: oidc) { result, error in _ = (result?.user.uid, error) }
    _ = OAuthProvider.credential(withProviderID: "oidc.corp", idToken: "id-token", accessToken: nil)
    let provider = OAuthProvider(providerID: "apple.com")
    provider.scopes = ["email", "name"]
    provider.customParameters = ["locale": "tr"]
    do {
        _ = try await auth.signIn(with: apple)
    } catch let error as NSError where error.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue {
        let email = error.userInfo[AuthErrorUserInfoEmailKey] as? String
        let pending = error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential
        _ = (email, pending?.idToken, pending?.accessToken)
    }
    // Account deletion: Apple's authorization revoked with a fresh authorization code.
    try await auth.revokeToken(withAuthorizationCode: "apple-authorization-code")
    auth.revokeToken(withAuthorizationCode: "apple-authorization-code") { error in _ = error }
}

/// A provider's web sign-in, as apps write it with FirebaseAuth's `OAuthProvider` and a view controller as the UI
/// delegate.
func webSignIn(_ auth: Auth, uiDelegate: (any AuthUIDelegate)?) async throws {
    let provider = OAuthProvider(providerID: "oidc.corp")
    provider.scopes = ["groups"]
    provider.getCredentialWith(uiDelegate) { credential, error in _ = (credential?.provider, error) }
    let credential = try await provider.credential(with: uiDelegate)
    _ = try await auth.signIn(with: credential)
    let result = try await auth.signIn(with: provider, uiDelegate: uiDelegate)
    _ = try await result.user.link(with: provider, uiDelegate: uiDelegate)
    _ = try await result.user.reauthenticate(with: provider, uiDelegate: uiDelegate)
    auth.signIn(with: provider, uiDelegate: uiDelegate) { result, error in _ = (result?.user.uid, error) }
    _ = auth.canHandle(URL(fileURLWithPath: "/"))
}

/// Passkeys, as FirebaseAuth's passkey API names them: the start calls hand back what an authenticator needs (on
/// Apple platforms AuthenticationServices' requests), the enrolled passkeys are listed and withdrawn by credential ID.
func passkeys(_ auth: Auth, user: FirebaseAuth.User) async throws {
    _ = try await user.startPasskeyEnrollment(withName: "Work laptop")
    for passkey in user.enrolledPasskeys ?? [] {
        _ = passkey.name
        if let id = passkey.credentialID { try await user.unenrollPasskey(withCredentialID: id) }
    }
    _ = try await auth.startPasskeySignIn()
    do {
        try await user.unenrollPasskey(withCredentialID: "")
    } catch let error as NSError where error.code == AuthErrorCode.missingPasskeyEnrollment.rawValue {
        _ = AuthErrorCode.invalidAuthenticatorResponse
    }
}

/// Facebook (Facebook Login and Limited Login), GitHub, X, Microsoft, Yahoo and Game Center, as FirebaseAuth's guides
/// and the quickstart's AuthViewController and AccountLinkingViewController write them.
func identityProviders(_ auth: Auth, user: FirebaseAuth.User, facebookToken: String, limitedLoginToken: String, nonce: String) async throws {
    let facebook = FacebookAuthProvider.credential(withAccessToken: facebookToken)
    auth.signIn(with: facebook) { result, error in _ = (result?.additionalUserInfo?.isNewUser, error) }
    user.link(with: facebook) { result, error in _ = (result?.user.uid, error) }
    let limited = OAuthProvider.credential(providerID: AuthProviderID.facebook, idToken: limitedLoginToken, rawNonce: nonce)
    _ = try await auth.signIn(with: limited)
    _ = try await user.link(with: GitHubAuthProvider.credential(withToken: "gho_token"))
    let result = try await auth.signIn(with: TwitterAuthProvider.credential(withToken: "token", secret: "secret"))
    _ = (result.credential?.accessToken, result.credential?.secret, result.credential?.idToken)
    _ = (result.additionalUserInfo?.newUser(), result.additionalUserInfo?.username, result.additionalUserInfo?.profile)
    let microsoft = OAuthProvider(providerID: "microsoft.com")
    microsoft.customParameters = ["prompt": "consent", "login_hint": "user@firstadd.onmicrosoft.com", "tenant": "TENANT_ID"]
    microsoft.scopes = ["mail.read", "calendars.read"]
    microsoft.getCredentialWith(nil) { credential, error in
        guard error == nil, let credential else { return }
        Auth.auth().signIn(with: credential) { authResult, _ in _ = (authResult?.credential?.accessToken, authResult?.credential?.idToken) }
    }
    let yahoo = OAuthProvider(providerID: AuthProviderID.yahoo.rawValue)
    yahoo.scopes = ["mail-r", "sdct-w"]
    yahoo.customParameters = ["prompt": "login", "language": "fr"]
    _ = try await user.reauthenticate(with: yahoo, uiDelegate: nil)
    _ = [FacebookAuthProvider.id, GitHubAuthProvider.id, TwitterAuthProvider.id, GameCenterAuthProvider.id, OAuthProvider.id]
    GameCenterAuthProvider.getCredential { credential, error in
        guard error == nil, let credential else { return }
        Auth.auth().signIn(with: credential) { result, _ in _ = result?.user.displayName }
    }
    _ = try await user.link(with: try await GameCenterAuthProvider.getCredential())
    _ = (user.anonymous(), user.emailVerified(), user.isAnonymous, user.isEmailVerified)
}

/// Auth's notification and reCAPTCHA set-up, and an enrolled TOTP secret opened in the authenticator app.
func launchAndTOTP(session: MultiFactorSession, user: FirebaseAuth.User) async throws {
    let observer = NotificationCenter.default.addObserver(forName: .AuthStateDidChange, object: Auth.auth(), queue: .main) { note in
        _ = (note.object as? Auth)?.currentUser?.uid
    }
    NotificationCenter.default.removeObserver(observer)
    _ = Auth.authStateDidChangeNotification
    try await Auth.auth().initializeRecaptchaConfig()
    Auth.auth().initializeRecaptchaConfig { error in _ = error }
    let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
    let url = secret.generateQRCodeURL(withAccountName: user.email ?? "", issuer: "Flint")
    await MainActor.run { secret.openInOTPApp(withQRCodeURL: url) }
}

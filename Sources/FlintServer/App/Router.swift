import FlintCore
import HTTPTypes
import Hummingbird

/// The whole HTTP surface, top to bottom. Paths are Firebase's production paths prefixed with their host,
/// exactly as the SDKs address the emulator (`/identitytoolkit.googleapis.com/v1/...`).
func buildRouter(services: AuthServices) -> Router<FlintRequestContext> {
    let router = Router(context: FlintRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    // CORS outside the error middleware: error answers are plain responses by the time CORS adds its headers.
    router.add(middleware: CORSMiddleware.firebase())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: CallerMiddleware(settings: services.settings))

    let v1 = "/identitytoolkit.googleapis.com/v1"
    let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty"

    let phone = PhoneRoutes(services: services)
    router.post("\(v1)/accounts:sendVerificationCode", use: phone.sendVerificationCode)
    router.post("\(v3)/sendVerificationCode", use: phone.sendVerificationCode)
    router.post("\(v1)/accounts:signInWithPhoneNumber", use: phone.signInWithPhoneNumber)
    router.post("\(v3)/verifyPhoneNumber", use: phone.signInWithPhoneNumber)

    let appVerification = AppVerificationRoutes(services: services)
    router.post("\(v1)/accounts:verifyClient", use: appVerification.verifyClient)
    router.post("\(v3)/verifyClient", use: appVerification.verifyClient)
    router.get("/identitytoolkit.googleapis.com/v2/recaptchaConfig", use: appVerification.recaptchaConfig)
    router.get("\(v1)/recaptchaParams", use: appVerification.recaptchaParams)
    router.get("\(v3)/getRecaptchaParam", use: appVerification.recaptchaParams)
    router.get(RouterPath(AppVerificationRoutes.handlerPath), use: appVerification.showChallenge)
    router.post(RouterPath(AppVerificationRoutes.handlerPath), use: appVerification.submitChallenge)

    let accounts = AccountRoutes(services: services)
    router.post("\(v1)/accounts:lookup", use: accounts.lookup)
    router.post("\(v3)/getAccountInfo", use: accounts.lookup)
    router.post("\(v1)/projects/{project}/accounts:lookup", use: accounts.lookup)
    router.post("\(v1)/accounts:delete", use: accounts.delete)
    router.post("\(v3)/deleteAccount", use: accounts.delete)
    router.post("\(v1)/projects/{project}/accounts:delete", use: accounts.delete)

    let email = EmailLinkRoutes(services: services)
    router.post("\(v1)/accounts:sendOobCode", use: email.sendOobCode)
    router.post("\(v1)/projects/{project}/accounts:sendOobCode", use: email.sendOobCode)
    router.post("\(v3)/getOobConfirmationCode", use: email.sendOobCode)
    router.post("\(v1)/accounts:signInWithEmailLink", use: email.signInWithEmailLink)
    router.post("\(v3)/emailLinkSignin", use: email.signInWithEmailLink)

    let password = PasswordRoutes(services: services)
    router.post("\(v1)/accounts:signUp", use: password.signUp)
    router.post("\(v3)/signupNewUser", use: password.signUp)
    router.post("\(v1)/projects/{project}/accounts", use: password.signUp)
    router.post("\(v1)/accounts:signInWithPassword", use: password.signInWithPassword)
    router.post("\(v3)/verifyPassword", use: password.signInWithPassword)
    router.post("\(v1)/accounts:resetPassword", use: password.resetPassword)
    router.post("\(v3)/resetPassword", use: password.resetPassword)
    router.post("\(v1)/accounts:createAuthUri", use: password.createAuthURI)
    router.post("\(v3)/createAuthUri", use: password.createAuthURI)
    router.post("\(v1)/accounts:update", use: accounts.update)
    router.post("\(v3)/setAccountInfo", use: accounts.update)
    router.post("\(v1)/projects/{project}/accounts:update", use: accounts.update)

    let mfa = MFARoutes(services: services)
    let v2 = "/identitytoolkit.googleapis.com/v2/accounts"
    router.post("\(v2)/mfaEnrollment:start", use: mfa.startEnrollment)
    router.post("\(v2)/mfaEnrollment:finalize", use: mfa.finalizeEnrollment)
    router.post("\(v2)/mfaEnrollment:withdraw", use: mfa.withdraw)
    router.post("\(v2)/mfaSignIn:start", use: mfa.startSignIn)
    router.post("\(v2)/mfaSignIn:finalize", use: mfa.finalizeSignIn)
    router.post("/flint/v1/accounts/mfaRecoveryCodes:regenerate", use: mfa.regenerateRecoveryCodes)

    let action = ActionRoutes(services: services)
    router.get(RouterPath(ActionRoutes.path), use: action.show)
    router.post(RouterPath(ActionRoutes.path), use: action.submit)
    let appLinks = AppLinkRoutes(services: services)
    router.get("/.well-known/apple-app-site-association", use: appLinks.appleAppSiteAssociation)
    router.get("/apple-app-site-association", use: appLinks.appleAppSiteAssociation)
    router.get("/.well-known/assetlinks.json", use: appLinks.assetLinks)

    let tokens = TokenRoutes(services: services)
    router.post("/securetoken.googleapis.com/v1/token", use: tokens.refresh)
    router.get("/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", use: tokens.x509)
    router.get("/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com", use: tokens.jwks)
    router.get("/.well-known/jwks.json", use: tokens.jwks)

    let config = ProjectConfigRoutes(services: services)
    router.get("/identitytoolkit.googleapis.com/admin/v2/projects/{project}/config", use: config.show)
    router.patch("/identitytoolkit.googleapis.com/admin/v2/projects/{project}/config", use: config.update)
    router.get("/identitytoolkit.googleapis.com/v2/projects/{project}/config", use: config.show)
    router.patch("/identitytoolkit.googleapis.com/v2/projects/{project}/config", use: config.update)
    router.get("\(v1)/projects", use: config.publicConfig)
    router.post("/flint/v1/projects/{project}/keys:rotate", use: KeyRotationRoutes(services: services).rotate)
    router.get("\(v3)/getProjectConfig", use: config.publicConfig)
    // The delivery log, for operators in any mode (bodies and links are dropped once delivered outside dev mode).
    router.get("/flint/v1/projects/{project}/outbox", use: DevRoutes(services: services).adminOutbox)

    if services.settings.devMode {
        let dev = DevRoutes(services: services)
        router.get("/", use: dev.ready)
        router.get("/emulator/v1/projects/{project}/verificationCodes", use: dev.verificationCodes)
        router.get("/emulator/v1/projects/{project}/outbox", use: dev.outbox)
        router.get("/emulator/v1/projects/{project}/oobCodes", use: dev.oobCodes)
        router.get("/emulator/v1/projects/{project}/pushes", use: dev.pushes)
        router.delete("/emulator/v1/projects/{project}/accounts", use: dev.deleteAccounts)
    }
    return router
}

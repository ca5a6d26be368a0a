import FlintCore
import FlintTexts
import HTTPTypes
import Hummingbird

/// The whole HTTP surface, top to bottom. Paths are Firebase's production paths prefixed with their host,
/// exactly as the SDKs address the emulator (`/identitytoolkit.googleapis.com/v1/...`).
func buildRouter(flows: Flows) -> Router<FlintRequestContext> {
    let router = Router(context: FlintRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    // CORS outside the error middleware: error answers are plain responses by the time CORS adds its headers.
    router.add(middleware: CORSMiddleware.firebase())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: flows.node.metrics))
    router.add(middleware: CallerMiddleware(settings: flows.node.settings, credentials: flows.adminCredentials))
    router.add(middleware: AuditMiddleware(node: flows.node))

    let v1 = IdentityToolkitPath.v1
    let v3 = IdentityToolkitPath.v3

    router.identityToolkit(
        v1: "accounts:sendVerificationCode", v3: "sendVerificationCode", use: BodyHandlers.client(flows.phoneCodes.sendVerificationCode))
    router.identityToolkit(v1: "accounts:signInWithPhoneNumber", v3: "verifyPhoneNumber", use: BodyHandlers.client(flows.phone.signInWithPhoneNumber))

    let appVerification = AppVerificationRoutes(verifier: flows.verifier)
    router.identityToolkit(v1: "accounts:verifyClient", v3: "verifyClient", use: BodyHandlers.client(flows.verifier.verifyClient))
    router.get("\(IdentityToolkitPath.v2)/recaptchaConfig", use: appVerification.recaptchaConfig)
    router.get("\(IdentityToolkitPath.v2)/passwordPolicy", use: PasswordPolicyRoutes(config: flows.node.config).passwordPolicy)
    router.identityToolkit(.get, v1: "recaptchaParams", v3: "getRecaptchaParam", use: appVerification.recaptchaParams)
    let handler = AuthHandlerRoutes(challenge: appVerification, redirect: FederatedRedirect(flow: flows.federated))
    router.get(RouterPath(AppVerificationRoutes.handlerPath), use: handler.get)
    router.post(RouterPath(AppVerificationRoutes.handlerPath), use: handler.post)
    router.get(RouterPath(AuthHandlerRoutes.emulatorPath), use: handler.get)
    let iframe = AuthIframeRoutes(node: flows.node)
    router.get(RouterPath(AuthIframeRoutes.path), use: iframe.iframe)
    router.get(RouterPath(AuthIframeRoutes.emulatorPath), use: iframe.iframe)
    router.get(RouterPath(WebSDKPage.iframeScriptPath), use: iframe.iframeScript)
    router.get(RouterPath(WebSDKPage.handlerScriptPath), use: iframe.handlerScript)
    router.get(RouterPath(GapiStandIn.path), use: iframe.gapiStandIn)

    let accounts = AccountRoutes(accounts: flows.accounts)
    router.identityToolkit(v1: "accounts:lookup", v3: "getAccountInfo", operator: "accounts:lookup", use: accounts.lookup)
    router.identityToolkit(v1: "accounts:delete", v3: "deleteAccount", operator: "accounts:delete", use: accounts.delete)
    router.identityToolkit(v1: "accounts:update", v3: "setAccountInfo", operator: "accounts:update", use: accounts.update)
    let imports = ImportRoutes(flow: flows.imports)
    router.identityToolkit(v1: "accounts:batchCreate", v3: "uploadAccount", operator: "accounts:batchCreate", use: imports.batchCreate)

    let users = UserAdminRoutes(flow: flows.users)
    let operatorV1 = "\(v1)/projects/{project}"
    router.get("\(operatorV1)/accounts:batchGet", use: users.batchGet)
    router.post("\(v3)/downloadAccount", use: users.downloadAccount)
    let query = BodyHandlers.operatorOnly(projectID: users.projectID, flows.users.queryAccounts)
    router.endpoint(.post, "\(operatorV1)/accounts:query", "\(operatorV1):queryAccounts", use: query)
    router.post("\(operatorV1)/accounts:batchDelete", use: BodyHandlers.operatorOnly(projectID: users.projectID, flows.users.batchDelete))

    let email = EmailLinkRoutes(flow: flows.emailLink)
    router.identityToolkit(v1: "accounts:sendOobCode", v3: "getOobConfirmationCode", operator: "accounts:sendOobCode", use: email.sendOobCode)
    router.identityToolkit(v1: "accounts:signInWithEmailLink", v3: "emailLinkSignin", use: BodyHandlers.client(flows.emailLink.signInWithEmailLink))

    let password = PasswordRoutes(flow: flows.password)
    router.identityToolkit(v1: "accounts:signUp", v3: "signupNewUser", operator: "accounts", use: password.signUp)
    router.identityToolkit(v1: "accounts:signInWithPassword", v3: "verifyPassword", use: BodyHandlers.client(flows.password.signInWithPassword))
    router.identityToolkit(v1: "accounts:resetPassword", v3: "resetPassword", use: BodyHandlers.client(flows.password.resetPassword))
    router.identityToolkit(v1: "accounts:createAuthUri", v3: "createAuthUri", use: password.createAuthURI)

    let federated = FederatedRoutes(flow: flows.federated)
    router.identityToolkit(v1: "accounts:signInWithIdp", v3: "verifyAssertion", operator: "accounts:signInWithIdp", use: federated.signInWithIdp)
    router.post("\(IdentityToolkitPath.v2)/accounts:revokeToken", use: BodyHandlers.client(flows.federated.revokeToken))

    let customToken = CustomTokenRoutes(flow: flows.customTokens)
    router.identityToolkit(v1: "accounts:signInWithCustomToken", v3: "verifyCustomToken", use: customToken.signIn)

    // Multi-factor authentication, Firebase's v2 API, plus Flint's recovery codes.
    let mfa = flows.mfa
    let v2 = "\(IdentityToolkitPath.v2)/accounts"
    router.post("\(v2)/mfaEnrollment:start", use: BodyHandlers.client(mfa.startEnrollment))
    router.post("\(v2)/mfaEnrollment:finalize", use: BodyHandlers.client(mfa.finalizeEnrollment))
    router.post("\(v2)/mfaEnrollment:withdraw", use: BodyHandlers.client(mfa.withdraw))
    router.post("\(v2)/mfaSignIn:start", use: BodyHandlers.client(mfa.startMFASignIn))
    router.post("\(v2)/mfaSignIn:finalize", use: BodyHandlers.client(mfa.finalizeMFASignIn))
    router.post("/flint/v1/accounts/mfaRecoveryCodes:regenerate", use: BodyHandlers.client(mfa.regenerateRecoveryCodes))

    // Passkeys, Identity Platform's v2 API; withdrawn with `accounts:update`'s `deletePasskey`.
    let passkeys = PasskeyRoutes(flow: flows.passkeys)
    router.post("\(v2)/passkeyEnrollment:start", use: passkeys.startEnrollment)
    router.post("\(v2)/passkeyEnrollment:finalize", use: BodyHandlers.client(flows.passkeys.finalizeEnrollment))
    router.post("\(v2)/passkeySignIn:start", use: passkeys.startSignIn)
    router.post("\(v2)/passkeySignIn:finalize", use: BodyHandlers.client(flows.passkeys.finalizeSignIn))

    let action = ActionRoutes(codes: flows.actionCodes)
    router.get(RouterPath(ActionRoutes.path), use: action.show)
    router.post(RouterPath(ActionRoutes.path), use: action.submit)
    let appLinks = AppLinkRoutes(config: flows.node.config)
    router.endpoint(.get, "/.well-known/apple-app-site-association", "/apple-app-site-association", use: appLinks.appleAppSiteAssociation)
    router.get("/.well-known/assetlinks.json", use: appLinks.assetLinks)

    let tokens = TokenRoutes(sessions: flows.sessions, keyCacheMaxAge: flows.node.settings.keyCacheMaxAge)
    router.post("/securetoken.googleapis.com/v1/token", use: tokens.refresh)
    router.get("/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", use: tokens.x509)
    router.endpoint(
        .get, "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com", "/.well-known/jwks.json", use: tokens.jwks)
    // Session cookies are signed with the same keys, published where the Admin SDKs fetch session-cookie keys.
    let cookies = SessionCookieRoutes(cookies: flows.sessionCookies)
    router.post("\(v1)/projects/{project}:createSessionCookie", use: cookies.create)
    router.get("\(v3)/publicKeys", use: tokens.x509)
    router.get("\(v1)/sessionCookiePublicKeys", use: tokens.jwks)

    let config = ProjectConfigRoutes(projectID: flows.node.settings.projectID, config: flows.node.config, clock: flows.node.clock)
    let adminConfig = "/identitytoolkit.googleapis.com/admin/v2/projects/{project}/config"
    let configV2 = "\(IdentityToolkitPath.v2)/projects/{project}/config"
    router.endpoint(.get, adminConfig, configV2, use: config.show)
    router.endpoint(.patch, adminConfig, configV2, use: config.update)
    router.endpoint(.get, "\(v1)/projects", "\(v3)/getProjectConfig", use: config.publicConfig)
    for collection in ProjectConfig.IdpCollection.allCases {
        let idps = IdpConfigRoutes(
            collection: collection, projectID: flows.node.settings.projectID, config: flows.node.config, clock: flows.node.clock)
        let base = "\(IdentityToolkitPath.v2)/projects/{project}/\(collection.rawValue)"
        router.post(RouterPath(base), use: idps.create)
        router.get(RouterPath(base), use: idps.list)
        router.get(RouterPath("\(base)/{idp}"), use: idps.get)
        router.patch(RouterPath("\(base)/{idp}"), use: idps.update)
        router.delete(RouterPath("\(base)/{idp}"), use: idps.delete)
    }
    let keyRotation = KeyRotationRoutes(node: flows.node, keys: flows.keys)
    router.post("/flint/v1/projects/{project}/keys:rotate", use: keyRotation.rotate)
    router.post("/flint/v1/projects/{project}/keys:revoke", use: keyRotation.revoke)
    // The delivery log, for operators in any mode (bodies and links are dropped once delivered outside dev mode).
    let dev = DevRoutes(node: flows.node, secret: flows.secret)
    router.get("/flint/v1/projects/{project}/outbox", use: dev.adminOutbox)
    router.get("/flint/v1/projects/{project}/auditEvents", use: AuditRoutes(node: flows.node).list)
    // Operators' views of the node: Prometheus metrics (admin or --metrics-token) and the OpenAPI document (public).
    router.get(RouterPath(MetricsRoutes.path), use: MetricsRoutes(node: flows.node, keys: flows.keys).scrape)
    router.get(RouterPath(OpenAPIDocument.path), use: OpenAPIDocument.serve)
    // The web console's HTML pages (`/console/…`), signed in with its own operator accounts.
    ConsoleRoutes(flow: flows.console, pages: flows.consolePages).register(on: router)

    if flows.node.settings.devMode {
        router.get("/", use: dev.ready)
        router.get("/emulator/v1/projects/{project}/verificationCodes", use: dev.verificationCodes)
        router.get("/emulator/v1/projects/{project}/outbox", use: dev.outbox)
        router.get("/emulator/v1/projects/{project}/oobCodes", use: dev.oobCodes)
        router.get("/emulator/v1/projects/{project}/pushes", use: dev.pushes)
        router.delete("/emulator/v1/projects/{project}/accounts", use: dev.deleteAccounts)
        let emulatorConfig = EmulatorConfigRoutes(projectID: flows.node.settings.projectID, config: flows.node.config, clock: flows.node.clock)
        router.get("/emulator/v1/projects/{project}/config", use: emulatorConfig.show)
        router.patch("/emulator/v1/projects/{project}/config", use: emulatorConfig.update)
    }
    return router
}

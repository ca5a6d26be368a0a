import FlintCore
import FlintTexts
import HTTPTypes
import Hummingbird

/// The whole HTTP surface, top to bottom: the middleware, then each endpoint (``APIEndpoint``, declared once with its
/// paths, access and sign-in method) given its handler. Paths are Firebase's production paths prefixed with their
/// host, exactly as the SDKs address the emulator (`/identitytoolkit.googleapis.com/v1/...`).
///
/// The modules (the web console) register first, each in route groups of its own (``ModuleRoutes``), after the request
/// log and before the API's middleware: a router's middleware wraps only the routes added after it, so the API's
/// (CORS, Firebase's error answers, credentials, audit) never runs for a module's pages. It does wrap what no route
/// matches, whatever its path: those are answered as the API answers them (Firebase's 404).
func buildRouter(flows: Flows, modules: [any ServerModule] = []) throws -> Router<FlintRequestContext> {
    let router = Router(context: FlintRequestContext.self)
    // Tracing wraps the request log, so the log's lines of a traced request carry its trace and span IDs; with
    // tracing off (no tracer) the router has no tracing middleware at all.
    if let tracer = flows.node.settings.tracer { router.add(middleware: RequestSpanMiddleware(tracer: tracer)) }
    router.add(middleware: RequestLogMiddleware())
    let table = EndpointTable(APIEndpoint.allCases.map(\.endpoint) + modules.flatMap(\.endpoints))
    let moduleRoutes = ModuleRoutes(router: router, table: table, node: flows.node)
    for module in modules { try module.register(on: moduleRoutes, flows: flows) }

    // CORS outside the error middleware: error answers are plain responses by the time CORS adds its headers.
    router.add(middleware: CORSMiddleware.firebase())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: RequestContextMiddleware(table: table, settings: flows.node.settings))
    router.add(middleware: MetricsMiddleware(metrics: flows.node.metrics))
    router.add(middleware: CallerMiddleware(settings: flows.node.settings, credentials: flows.adminCredentials))
    router.add(middleware: AuditMiddleware(node: flows.node))
    router.add(middleware: TenantMiddleware(tenants: flows.tenants, config: flows.node.config))
    let api = EndpointRouter(routes: router, devMode: flows.node.settings.devMode)

    api.on(.sendVerificationCode, use: BodyHandlers.client(flows.phoneCodes.sendVerificationCode))
    api.on(.signInWithPhoneNumber, use: BodyHandlers.client(flows.phone.signInWithPhoneNumber))

    let appVerification = AppVerificationRoutes(verifier: flows.verifier, tenants: flows.tenants)
    api.on(.verifyClient, use: BodyHandlers.client(flows.verifier.verifyClient))
    api.on(.getRecaptchaConfig, use: appVerification.recaptchaConfig)
    api.on(.getPasswordPolicy, use: PasswordPolicyRoutes(config: flows.node.config, tenants: flows.tenants).passwordPolicy)
    api.on(.getRecaptchaParams, use: appVerification.recaptchaParams)
    let handler = AuthHandlerRoutes(challenge: appVerification, redirect: FederatedRedirect(flow: flows.federated, tenants: flows.tenants))
    api.on(.authHandler, use: handler.get)
    api.on(.submitWebChallenge, use: handler.post)
    let iframe = AuthIframeRoutes(node: flows.node)
    api.on(.authIframe, use: iframe.iframe)
    api.on(.authIframeScript, use: iframe.iframeScript)
    api.on(.authHandlerScript, use: iframe.handlerScript)
    api.on(.authGapiStandIn, use: iframe.gapiStandIn)

    let accounts = AccountRoutes(accounts: flows.accounts)
    api.on(.lookup, use: accounts.lookup)
    api.on(.deleteAccount, use: accounts.delete)
    api.on(.update, use: accounts.update)
    api.on(.batchCreate, use: ImportRoutes(flow: flows.imports).batchCreate)

    let users = UserAdminRoutes(flow: flows.users)
    api.on(.batchGet, use: users.batchGet)
    api.on(.downloadAccount, use: users.downloadAccount)
    api.on(.queryAccounts, use: BodyHandlers.operatorOnly(projectID: users.projectID, flows.users.queryAccounts))
    api.on(.batchDelete, use: BodyHandlers.operatorOnly(projectID: users.projectID, flows.users.batchDelete))

    let email = EmailLinkRoutes(flow: flows.emailLink)
    api.on(.sendOobCode, use: email.sendOobCode)
    api.on(.signInWithEmailLink, use: BodyHandlers.client(flows.emailLink.signInWithEmailLink))

    let password = PasswordRoutes(flow: flows.password, redirect: FederatedRedirect(flow: flows.federated, tenants: flows.tenants))
    api.on(.signUp, use: password.signUp)
    api.on(.createAccount, use: password.signUp)
    api.on(.signInWithPassword, use: BodyHandlers.client(flows.password.signInWithPassword))
    api.on(.resetPassword, use: BodyHandlers.client(flows.password.resetPassword))
    api.on(.createAuthUri, use: password.createAuthURI)

    api.on(.signInWithIdp, use: FederatedRoutes(flow: flows.federated).signInWithIdp)
    api.on(.revokeToken, use: BodyHandlers.client(flows.federated.revokeToken))
    api.on(.signInWithCustomToken, use: CustomTokenRoutes(flow: flows.customTokens).signIn)
    api.on(.signInWithGameCenter, use: flows.gameCenter.signIn)

    // Multi-factor authentication, Firebase's v2 API, plus Flint's recovery codes.
    let mfa = flows.mfa
    api.on(.startMfaEnrollment, use: BodyHandlers.client(mfa.startEnrollment))
    api.on(.finalizeMfaEnrollment, use: BodyHandlers.client(mfa.finalizeEnrollment))
    api.on(.withdrawMfa, use: BodyHandlers.client(mfa.withdraw))
    api.on(.startMfaSignIn, use: BodyHandlers.client(mfa.startMFASignIn))
    api.on(.finalizeMfaSignIn, use: BodyHandlers.client(mfa.finalizeMFASignIn))
    api.on(.regenerateRecoveryCodes, use: BodyHandlers.client(mfa.regenerateRecoveryCodes))

    // Passkeys, Identity Platform's v2 API; withdrawn with `accounts:update`'s `deletePasskey`.
    let passkeys = PasskeyRoutes(flow: flows.passkeys)
    api.on(.startPasskeyEnrollment, use: passkeys.startEnrollment)
    api.on(.finalizePasskeyEnrollment, use: BodyHandlers.client(flows.passkeys.finalizeEnrollment))
    api.on(.startPasskeySignIn, use: passkeys.startSignIn)
    api.on(.finalizePasskeySignIn, use: BodyHandlers.client(flows.passkeys.finalizeSignIn))

    let action = ActionRoutes(codes: flows.actionCodes, tenants: flows.tenants)
    api.on(.showActionPage, use: action.show)
    api.on(.submitActionPage, use: action.submit)
    let appLinks = AppLinkRoutes(config: flows.node.config)
    api.on(.appleAppSiteAssociation, use: appLinks.appleAppSiteAssociation)
    api.on(.assetLinks, use: appLinks.assetLinks)

    let tokens = TokenRoutes(sessions: flows.sessions, tenants: flows.tenants, keyCacheMaxAge: flows.node.settings.keyCacheMaxAge)
    api.on(.refreshToken, use: tokens.refresh)
    api.on(.x509Certificates, use: tokens.x509)
    api.on(.jwks, use: tokens.jwks)
    // Session cookies are signed with the same keys, published where the Admin SDKs fetch session-cookie keys.
    api.on(.createSessionCookie, use: SessionCookieRoutes(cookies: flows.sessionCookies).create)
    api.on(.sessionCookieCertificates, use: tokens.x509)
    api.on(.sessionCookieJWKS, use: tokens.jwks)

    let config = ProjectConfigRoutes(projectID: flows.node.settings.projectID, config: flows.node.config, clock: flows.node.clock)
    api.on(.getConfig, use: config.show)
    api.on(.updateConfig, use: config.update)
    api.on(.getProjectConfig, use: config.publicConfig)
    let tenantAdmin = flows.tenantAdmin
    for collection in ProjectConfig.IdpCollection.allCases {
        let idps = IdpConfigRoutes(
            collection: collection, projectID: flows.node.settings.projectID, config: flows.node.config, tenants: tenantAdmin,
            clock: flows.node.clock, spKeys: flows.node.samlSPKeys)
        let endpoints = APIEndpoint.idpConfigs(collection)
        api.on(endpoints.create, use: idps.create)
        api.on(endpoints.list, use: idps.list)
        api.on(endpoints.get, use: idps.get)
        api.on(endpoints.update, use: idps.update)
        api.on(endpoints.delete, use: idps.delete)
    }
    let tenants = TenantRoutes(projectID: flows.node.settings.projectID, admin: tenantAdmin)
    api.on(.createTenant, use: tenants.create)
    api.on(.listTenants, use: tenants.list)
    api.on(.getTenant, use: tenants.get)
    api.on(.updateTenant, use: tenants.update)
    api.on(.deleteTenant, use: tenants.delete)
    let keyRotation = KeyRotationRoutes(node: flows.node, keys: flows.keys)
    api.on(.rotateKeys, use: keyRotation.rotate)
    api.on(.revokeKey, use: keyRotation.revoke)
    // The delivery log, for operators in any mode (bodies and links are dropped once delivered outside dev mode).
    let dev = DevRoutes(node: flows.node, secret: flows.secret)
    api.on(.adminOutbox, use: dev.adminOutbox)
    api.on(.auditEvents, use: AuditRoutes(node: flows.node).list)
    api.on(.blockingDryRun, use: BlockingDryRun(node: flows.node).handle)
    let accountLocks = AccountLockRoutes(projectID: flows.node.settings.projectID, locks: flows.accountLocks)
    api.on(.getAccountLock, use: accountLocks.get)
    api.on(.unlockAccount, use: accountLocks.delete)
    let webhooks = WebhookRoutes(projectID: flows.node.settings.projectID, subscriptions: flows.webhookSubscriptions)
    api.on(.listWebhooks, use: webhooks.list)
    api.on(.createWebhook, use: webhooks.create)
    api.on(.getWebhook, use: webhooks.get)
    api.on(.updateWebhook, use: webhooks.update)
    api.on(.deleteWebhook, use: webhooks.delete)
    api.on(.listWebhookDeliveries, use: webhooks.deliveries)
    api.on(.replayWebhookDelivery, use: webhooks.replay)
    api.on(.listOwnSessions, use: BodyHandlers.client(flows.userSessions.listOwn))
    api.on(.endOwnSession, use: BodyHandlers.client(flows.userSessions.endOwn))
    api.on(.endOtherSessions, use: BodyHandlers.client(flows.userSessions.endOthersOwn))
    let userSessions = AdminSessionRoutes(projectID: flows.node.settings.projectID, sessions: flows.userSessions)
    api.on(.listUserSessions, use: userSessions.list)
    api.on(.endUserSession, use: userSessions.end)
    // Operators' views of the node: Prometheus metrics (admin or --metrics-token) and the OpenAPI document (public).
    api.on(.metrics, use: MetricsRoutes(node: flows.node, keys: flows.keys).scrape)
    api.on(.openapi, use: OpenAPIDocument.serve)
    // Dev mode's emulator paths (the table serves them in dev mode only).
    api.on(.ready, use: dev.ready)
    api.on(.devVerificationCodes, use: dev.verificationCodes)
    api.on(.devOutbox, use: dev.outbox)
    api.on(.devOobCodes, use: dev.oobCodes)
    api.on(.devPushes, use: dev.pushes)
    api.on(.devDeleteAccounts, use: dev.deleteAccounts)
    let emulatorConfig = EmulatorConfigRoutes(projectID: flows.node.settings.projectID, config: flows.node.config, clock: flows.node.clock)
    api.on(.devConfig, use: emulatorConfig.show)
    api.on(.devUpdateConfig, use: emulatorConfig.update)
    return router
}

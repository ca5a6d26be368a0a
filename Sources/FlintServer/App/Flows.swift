import FlintCore
import FlintStore
import FlintTexts
import Logging

/// Every flow of a node, composed once at start from the settings, the store and the delivery channels. Each flow
/// holds only what it uses; the router hands each route group its flow.
package struct Flows: Sendable {
    package let node: Node
    let secret: ServerSecret
    package let keys: KeyCache

    let sessions: Sessions
    let gate: SignInGate
    let verifier: AppVerifier
    let phoneCodes: PhoneCodes
    let phone: PhoneSignIn
    let actionCodes: ActionCodes
    package let emailLink: EmailLinkFlow
    let password: PasswordFlow
    package let mfa: MFAFlow
    let passkeys: PasskeyFlow
    package let accounts: AccountsFlow
    let customTokens: CustomTokenSignIn
    let federated: FederatedSignIn
    let gameCenter: GameCenterSignIn
    let sessionCookies: SessionCookies
    let adminCredentials: AdminCredentials
    let users: UserAdminFlow
    let imports: ImportFlow
    /// Event webhooks' delivery (``WebhookService`` runs it; tests run its rounds on demand).
    package let webhooks: WebhookDispatcher
    /// The operators' webhook subscriptions (admin API, CLI, console).
    package let webhookSubscriptions: WebhookSubscriptions
    /// The tenants requests name, cached as the config is.
    package let tenants: TenantCache
    /// Accounts' sessions per device (owner and operator endpoints, CLI, console).
    package var userSessions: UserSessions { UserSessions(sessions: sessions) }

    /// Prepares a node: the stored secrets checked against the master key (those kept in clear sealed with it), server
    /// secret and first signing key (created on first start), project config (the
    /// `--config` document applied over what is stored when the file changed since it was last applied), then the
    /// flows.
    static func start(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil, push: (any PushSender)? = nil, logger: Logger,
        metrics: FlintMetrics = FlintMetrics()
    ) async throws -> Flows {
        guard settings.devMode || settings.identityProviderStandIns.isEmpty else {
            throw FlintStartError("identity provider stand-ins are for dev mode only")
        }
        let secrets = SecretsAtRest(masterKey: settings.masterKey)
        let sealed = try await store.write { tx in try await secrets.sealValuesInClear(in: tx) }
        if sealed > 0, let id = settings.masterKey?.id {
            logger.notice("secrets kept in clear are now sealed with the master key", metadata: ["count": "\(sealed)", "masterKeyID": "\(id)"])
        }
        let candidate = try secrets.sealServerSecret(random.bytes(32))
        let master = try secrets.openServerSecret(try await store.write { tx in try await tx.ensureMasterSecret(candidate) })
        let keys = KeyCache(store: store, secrets: secrets)
        try await keys.ensureKey(clock: clock, random: random)
        let config = ConfigCache(store: store, secrets: secrets)
        try await config.reload()
        if let document = settings.configDocument {
            if try await config.apply(file: document, digest: settings.configFileDigest, at: clock.now()) {
                logger.info("config file applied: it changed since it was last applied")
            } else {
                logger.info("config file unchanged since it was last applied: the stored config (with any admin changes) is kept")
            }
        }
        // SAML providers configured before SP keys existed get theirs (once: later starts find them and write nothing).
        try await SAMLServiceProviderKeys.backfill(store: store, secrets: secrets, now: clock.now(), logger: logger)
        return try Flows(
            settings: settings, store: store, clock: clock, random: random, secret: ServerSecret(master: master), keys: keys, config: config,
            sms: sms ?? (settings.devMode ? DevOutboxSender() : UnconfiguredSMSSender()), email: email ?? DevOutboxEmailSender(),
            push: push ?? (settings.devMode ? DevOutboxPushSender(store: store) : nil), logger: logger, metrics: metrics)
    }

    private init(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock, random: any RandomSource, secret: ServerSecret, keys: KeyCache,
        config: ConfigCache, sms: any SMSSender, email: any EmailSender, push: (any PushSender)?, logger: Logger, metrics: FlintMetrics
    ) throws {
        // Writes that would create an account or issue tokens consult the project's blocking functions first.
        var functions = BlockingFunctions(projectID: settings.projectID, config: config, keys: keys, clock: clock, random: random, logger: logger)
        functions.tracer = settings.tracer
        // Committed writes wake the webhook dispatcher while a subscription exists; its own writes go around that.
        let wake = WebhookWake()
        let node = Node(
            settings: settings, config: config, store: WebhookWakingStore(base: BlockingStore(base: store, functions: functions), wake: wake),
            clock: clock, random: random, logger: logger, metrics: metrics, blocking: functions)
        (self.node, self.secret, self.keys) = (node, secret, keys)
        let passwords = try PasswordHasher(
            parameters: settings.passwordHashParameters, random: random, logger: logger,
            breaches: BreachedPasswordCheck(logger: logger, metrics: metrics, tracer: settings.tracer))
        let newAccounts = AccountCreationLimit(perHour: settings.newAccountsPerIPPerHour)
        sessions = Sessions(node: node, projectID: settings.projectID, keys: keys, secret: secret, activity: RefreshActivity())
        let secrets = SecretsAtRest(masterKey: settings.masterKey)
        tenants = TenantCache(store: store, secrets: secrets)
        gate = SignInGate(node: node, secret: secret, sessions: sessions, tenants: tenants)
        verifier = AppVerifier(node: node, secret: secret, push: push)
        phoneCodes = PhoneCodes(node: node, secret: secret, sms: sms, verifier: verifier, gate: gate)
        phone = PhoneSignIn(node: node, secret: secret, codes: phoneCodes, sessions: sessions, gate: gate, newAccounts: newAccounts)
        actionCodes = ActionCodes(node: node, email: email, passwords: passwords, sessions: sessions)
        emailLink = EmailLinkFlow(node: node, codes: actionCodes, sessions: sessions, gate: gate, newAccounts: newAccounts)
        password = PasswordFlow(
            node: node, passwords: passwords, codes: actionCodes, sessions: sessions, gate: gate, newAccounts: newAccounts)
        mfa = MFAFlow(node: node, secret: secret, codes: phoneCodes, sessions: sessions, gate: gate)
        passkeys = PasskeyFlow(node: node, secret: secret, sessions: sessions, gate: gate)
        accounts = AccountsFlow(node: node, passwords: passwords, codes: actionCodes, sessions: sessions)
        customTokens = CustomTokenSignIn(node: node, gate: gate, keys: ServiceAccountKeys(store: store), newAccounts: newAccounts)
        sessionCookies = SessionCookies(node: node, sessions: sessions)
        let providerKeys = ProviderKeys(
            clock: clock, logger: logger, standIns: settings.identityProviderStandIns, allowsHTTP: settings.devMode, tracer: settings.tracer)
        federated = FederatedSignIn(
            node: node, sessions: sessions, gate: gate, newAccounts: newAccounts, keys: providerKeys, secret: secret)
        gameCenter = GameCenterSignIn(federated: federated, certificates: GameCenterCertificates(keys: providerKeys))
        adminCredentials = AdminCredentials(store: store)
        users = UserAdminFlow(node: node)
        imports = ImportFlow(node: node, passwords: passwords)
        webhooks = WebhookDispatcher(node: node, store: store, secrets: secrets, wake: wake)
        webhookSubscriptions = WebhookSubscriptions(
            store: node.store, masterKey: settings.masterKey, allowsHTTP: settings.devMode, clock: clock, random: random)
    }
}

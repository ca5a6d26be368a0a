import FlintCore
import FlintStore
import Logging

/// Every flow of a node, composed once at start from the settings, the store and the delivery channels. Each flow
/// holds only what it uses; the router hands each route group its flow.
struct Flows: Sendable {
    let settings: ServerSettings
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    let secret: ServerSecret
    let keys: KeyCache
    let config: ConfigCache
    let logger: Logger

    let sessions: Sessions
    let gate: SignInGate
    let verifier: AppVerifier
    let phoneCodes: PhoneCodes
    let phone: PhoneSignIn
    let actionCodes: ActionCodes
    let emailLink: EmailLinkFlow
    let password: PasswordFlow
    let mfa: MFAFlow
    let accounts: AccountsFlow

    /// Prepares a node: master secret and first signing key (created on first start), project config (the
    /// `--config` document applied over what is stored when the file changed since it was last applied), then the
    /// flows.
    static func start(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil, push: (any PushSender)? = nil, logger: Logger
    ) async throws -> Flows {
        let candidate = random.bytes(32)
        let master = try await store.write { tx in try await tx.ensureMasterSecret(candidate) }
        let keys = KeyCache(store: store)
        try await keys.ensureKey(clock: clock, random: random)
        let config = ConfigCache(store: store)
        try await config.reload()
        if let document = settings.configDocument {
            if try await config.apply(file: document, digest: settings.configFileDigest) {
                logger.info("config file applied: it changed since it was last applied")
            } else {
                logger.info("config file unchanged since it was last applied: the stored config (with any admin changes) is kept")
            }
        }
        return try Flows(
            settings: settings, store: store, clock: clock, random: random, secret: ServerSecret(master: master), keys: keys, config: config,
            sms: sms ?? (settings.devMode ? DevOutboxSender() : UnconfiguredSMSSender()), email: email ?? DevOutboxEmailSender(),
            push: push ?? (settings.devMode ? DevOutboxPushSender(store: store) : nil), logger: logger)
    }

    private init(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock, random: any RandomSource, secret: ServerSecret, keys: KeyCache,
        config: ConfigCache, sms: any SMSSender, email: any EmailSender, push: (any PushSender)?, logger: Logger
    ) throws {
        (self.settings, self.store, self.clock, self.random) = (settings, store, clock, random)
        (self.secret, self.keys, self.config, self.logger) = (secret, keys, config, logger)
        let appName = settings.appName ?? settings.projectID
        let passwords = try PasswordHasher(parameters: settings.passwordHashParameters, random: random)
        let newAccounts = AccountCreationLimit(perHour: settings.newAccountsPerIPPerHour)
        sessions = Sessions(
            projectID: settings.projectID, keys: keys, secret: secret, store: store, clock: clock, random: random, activity: RefreshActivity(),
            logger: logger)
        gate = SignInGate(config: config, secret: secret, clock: clock, random: random, sessions: sessions)
        verifier = AppVerifier(
            settings: settings, config: config, store: store, clock: clock, random: random, secret: secret, push: push, appName: appName,
            logger: logger)
        phoneCodes = PhoneCodes(
            settings: settings, config: config, store: store, clock: clock, random: random, secret: secret, sms: sms, templates: .builtIn,
            appName: appName, verifier: verifier, gate: gate, logger: logger)
        phone = PhoneSignIn(
            config: config, store: store, clock: clock, random: random, secret: secret, codes: phoneCodes, sessions: sessions, gate: gate,
            newAccounts: newAccounts)
        actionCodes = ActionCodes(
            settings: settings, config: config, store: store, clock: clock, random: random, email: email, passwords: passwords,
            sessions: sessions, appName: appName, logger: logger)
        emailLink = EmailLinkFlow(
            settings: settings, config: config, store: store, clock: clock, random: random, codes: actionCodes, sessions: sessions, gate: gate,
            newAccounts: newAccounts, logger: logger)
        password = PasswordFlow(
            settings: settings, config: config, store: store, clock: clock, random: random, passwords: passwords, codes: actionCodes,
            sessions: sessions, gate: gate, newAccounts: newAccounts)
        mfa = MFAFlow(
            settings: settings, config: config, store: store, clock: clock, random: random, secret: secret, codes: phoneCodes, sessions: sessions,
            gate: gate, logger: logger)
        accounts = AccountsFlow(
            settings: settings, config: config, store: store, clock: clock, passwords: passwords, codes: actionCodes, sessions: sessions)
    }
}

import FlintCore
import FlintStore
import FlintTexts
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The services every flow uses, built once at start and shared by all requests.
final class AuthServices: Sendable {
    let settings: ServerSettings
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    let secret: ServerSecret
    let keys: KeyCache
    let config: ConfigCache
    let sms: any SMSSender
    let templates: SMSTemplates
    let email: any EmailSender
    /// Silent pushes for app verification; `nil` when this node cannot push (production without APNs credentials).
    let push: (any PushSender)?
    let passwords: PasswordHasher
    let logger: Logger
    let refreshActivity = RefreshActivity()

    private init(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock, random: any RandomSource, secret: ServerSecret,
        keys: KeyCache, config: ConfigCache, sms: any SMSSender, email: any EmailSender, push: (any PushSender)?,
        logger: Logger
    ) throws {
        self.settings = settings
        self.store = store
        self.clock = clock
        self.random = random
        self.secret = secret
        self.keys = keys
        self.config = config
        self.sms = sms
        self.templates = .builtIn
        self.email = email
        self.push = push
        self.passwords = try PasswordHasher(parameters: settings.passwordHashParameters, random: random)
        self.logger = logger
    }

    /// Prepares a node: master secret and first signing key (created on first start), project config (the
    /// `--config` document applied over what is stored when the file changed since it was last applied).
    static func start(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil, push: (any PushSender)? = nil, logger: Logger
    ) async throws -> AuthServices {
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
        return try AuthServices(
            settings: settings, store: store, clock: clock, random: random, secret: ServerSecret(master: master), keys: keys,
            config: config, sms: sms ?? (settings.devMode ? DevOutboxSender() : UnconfiguredSMSSender()), email: email ?? DevOutboxEmailSender(),
            push: push ?? (settings.devMode ? DevOutboxPushSender(store: store) : nil), logger: logger
        )
    }

    /// The app name SMS and email texts and the action page mention.
    var appName: String { settings.appName ?? settings.projectID }

    /// The current time in milliseconds.
    var nowMS: Int64 { clock.now().millisecondsSince1970 }
}

import ArgumentParser
import FlintConsole
import FlintCore
import FlintSMTP
import FlintServer
import FlintStore
import Hummingbird
import Logging
import NIOCore
import Tracing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint serve`: run a node. With no flags: 127.0.0.1:9099, data in ./.flint, project demo-flint, dev mode (implicit
/// only on a loopback host with SQLite).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Flint server (dev mode by default on loopback with SQLite).")

    @Option(help: "Interface to listen on (env FLINT_HOST).") var host: String = FlintEnvironment.string("host") ?? "127.0.0.1"
    @Option(help: "Port to listen on (env FLINT_PORT).") var port: Int = FlintEnvironment.int("port", default: 9099)
    @OptionGroup var store: StoreOptions
    @Option(help: "Project ID (env FLINT_PROJECT).") var project: String = FlintEnvironment.string("project") ?? "demo-flint"
    @Option(help: "Project config file, YAML or JSON, applied at start when its content changed since it was last applied (env FLINT_CONFIG).")
    var config: String?
    @Option(help: "Seconds an SMS code stays valid (env FLINT_SMS_CODE_TTL).") var smsCodeTtl: Int =
        FlintEnvironment.int("smsCodeTtl", default: 300)
    @Flag(
        inversion: .prefixedNo,
        help:
            "Dev mode: any API key, 'Bearer owner' is admin, emulator helper routes (env FLINT_DEV=1/0). Implicit only on a loopback host with SQLite; otherwise say --dev or --no-dev."
    )
    var dev: Bool?
    @Option(help: "Admin bearer credential for production mode (env FLINT_ADMIN_TOKEN).") var adminToken: String?
    @Option(help: "Accepted API key in production mode; repeatable (env FLINT_API_KEYS, comma-separated).")
    var apiKey: [String] = FlintEnvironment.list("apiKeys") ?? []
    @Option(help: "The app name SMS texts mention (env FLINT_APP_NAME; default: the project ID).")
    var appName: String?
    @Option(help: "Seconds between re-reads of keys and config from the store (env FLINT_RELOAD_INTERVAL).")
    var reloadInterval: Int = FlintEnvironment.int("reloadInterval", default: 30)
    @Option(help: "Public base URL of this service, used in emailed links (env FLINT_PUBLIC_URL; default http://HOST:PORT).")
    var publicUrl: String?
    @Option(help: "SMTP server for email: smtp://user:pass@host:587 (STARTTLS) or smtps://...:465 (env FLINT_SMTP_URL).")
    var smtp: String?
    @Option(
        help:
            "SMS provider: twilio://SID:TOKEN@?from=%2B15551234567 (or messagingServiceSid=MG...), or an https:// webhook (env FLINT_SMS_URL; dev mode default: the outbox)."
    )
    var sms: String?
    @Option(help: "Secret that signs SMS webhook requests, 16+ characters (env FLINT_SMS_WEBHOOK_SECRET).") var smsWebhookSecret: String?
    @Option(help: "Sender address of emails (env FLINT_EMAIL_FROM).") var emailFrom: String =
        FlintEnvironment.string("emailFrom") ?? "noreply@localhost"
    @Option(help: "Sender name of emails (env FLINT_EMAIL_FROM_NAME; default: the app name).") var emailFromName: String?
    @Option(help: "Seconds an emailed link stays valid (env FLINT_OOB_CODE_TTL; default 6 hours).")
    var oobCodeTtl: Int = FlintEnvironment.int("oobCodeTtl", default: 21_600)
    @Option(help: "Seconds finished outbox records are kept as a delivery log (env FLINT_OUTBOX_RETENTION; default 7 days).")
    var outboxRetention: Int = FlintEnvironment.int("outboxRetention", default: 7 * 86_400)
    @Option(help: "Days audit events are kept (env FLINT_AUDIT_RETENTION; default 90).")
    var auditRetention: Int = FlintEnvironment.int("auditRetention", default: 90)
    @Option(help: "scrypt cost of new password hashes as log2(N), 10-20 (env FLINT_PASSWORD_HASH_COST; default 14 = 16 MiB, as Firebase).")
    var passwordHashCost: Int = FlintEnvironment.int("passwordHashCost", default: 14)
    @Flag(help: "Take the client IP for abuse limits from the last X-Forwarded-For entry (only behind one proxy that appends it).")
    var trustForwardedFor: Bool = FlintEnvironment.bool("trustForwardedFor") ?? false
    @Option(help: "Seconds a connection may stay silent before it is closed: a stalled request, an idle keep-alive (env FLINT_IDLE_TIMEOUT).")
    var idleTimeout: Int = FlintEnvironment.int("idleTimeout", default: 60)
    @Option(help: "Connections one client IP may hold open at once; more are closed (env FLINT_MAX_CONNECTIONS_PER_IP).")
    var maxConnectionsPerIp: Int = FlintEnvironment.int("maxConnectionsPerIp", default: 256)
    @Option(help: "New accounts one client IP may create per hour, any way; 0 = no limit (env FLINT_NEW_ACCOUNTS_PER_IP; default 100, as Firebase).")
    var newAccountsPerIp: Int = FlintEnvironment.int("newAccountsPerIp", default: 100)
    @Option(
        help:
            "Passkey sign-in challenges (passkeySignIn:start) one client IP may ask for per 15 minutes; 0 = no limit (env FLINT_PASSKEY_CHALLENGES_PER_IP; default 300)."
    )
    var passkeyChallengesPerIp: Int = FlintEnvironment.int("passkeyChallengesPerIp", default: 300)
    @Option(
        help:
            "Failed passkey sign-ins one client IP may make per 15 minutes (each credential has its own limit of 10 as well); 0 = no per-IP limit (env FLINT_PASSKEY_FAILURES_PER_IP; default 100)."
    )
    var passkeyFailuresPerIp: Int = FlintEnvironment.int("passkeyFailuresPerIp", default: 100)
    @Option(help: "APNs auth key (.p8) for app verification's silent pushes (env FLINT_APNS_KEY_FILE).") var apnsKeyFile: String?
    @Option(help: "ID of the APNs auth key, 10 characters (env FLINT_APNS_KEY_ID).") var apnsKeyId: String?
    @Option(help: "Apple developer team ID (env FLINT_APNS_TEAM_ID).") var apnsTeamId: String?
    @Option(help: "The iOS app's bundle ID, the APNs topic (env FLINT_APNS_BUNDLE_ID).") var apnsBundleId: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env FLINT_LOG_LEVEL).")
    var logLevel: String = FlintEnvironment.string("logLevel") ?? "info"
    @Option(help: "Log format: text, or json (one object per line: time, level, message, metadata, source) (env FLINT_LOG_FORMAT).")
    var logFormat: String = FlintEnvironment.string("logFormat") ?? "text"
    @OptionGroup var tracing: TracingOptions
    @Option(
        help:
            "Seconds a node keeps serving after SIGTERM or SIGINT while GET /readyz answers 503 (draining), so load balancers stop sending to it before it closes its listener (env FLINT_DRAIN_TIME; default 0)."
    )
    var drainTime: Int = FlintEnvironment.int("drainTime", default: 0)
    @Option(help: "Bearer credential that may read GET /metrics, besides the admin credential (env FLINT_METRICS_TOKEN).")
    var metricsToken: String?
    @Option(
        help:
            "Dev mode only, for tests: an origin that serves Apple's or Google's paths (keys, token information) in their place, PROVIDER=ORIGIN (apple.com, google.com); repeatable."
    )
    var idpStandIn: [String] = []

    private var effectiveAdminToken: String? { adminToken ?? FlintEnvironment.string("adminToken") }

    /// `--idp-stand-in PROVIDER=ORIGIN` entries by provider.
    private func identityProviderStandIns() throws -> [String: String] {
        var out: [String: String] = [:]
        for entry in idpStandIn {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, ProjectConfig.defaultSupportedIdps.contains(parts[0]), let url = ContinueURL(parts[1]),
                url.scheme == "http" || url.scheme == "https"
            else {
                throw ValidationError(
                    "--idp-stand-in takes PROVIDER=ORIGIN (a built-in provider: \(ProjectConfig.defaultSupportedIdps.joined(separator: ", ")); an http(s) origin): \(entry)"
                )
            }
            var origin = parts[1]
            while origin.hasSuffix("/") { origin.removeLast() }
            out[parts[0]] = origin
        }
        return out
    }

    /// Dev mode as asked for (`--dev`, `--no-dev`, `FLINT_DEV`), else implied by a loopback host with SQLite.
    /// - Throws: ``DevModeDefault/Refusal`` with a one-line reason when nothing was said and the node is reachable from
    ///   elsewhere or shares a database: dev mode makes `Bearer owner` an admin there.
    private func resolvedDevMode() throws -> Bool {
        if let dev { return dev }
        if let value = FlintEnvironment.bool("dev") { return value }
        try FlintEnvironment.refuseMalformed()
        guard DevModeDefault.isLoopback(host) else {
            throw DevModeDefault.Refusal(
                "refusing to start: --host \(host) is not a loopback address, so say --dev (Bearer owner is admin) or --no-dev --admin-token TOKEN")
        }
        guard store.databaseURL == nil else {
            throw DevModeDefault.Refusal(
                "refusing to start: with --database (PostgreSQL) say --dev (Bearer owner is admin) or --no-dev --admin-token TOKEN")
        }
        return true
    }

    /// The four APNs settings, flag or environment; all or none must be given.
    private var apnsSettings: (keyFile: String, keyID: String, teamID: String, bundleID: String)?? {
        let values = [
            apnsKeyFile ?? FlintEnvironment.string("apnsKeyFile"), apnsKeyId ?? FlintEnvironment.string("apnsKeyId"),
            apnsTeamId ?? FlintEnvironment.string("apnsTeamId"),
            apnsBundleId ?? FlintEnvironment.string("apnsBundleId"),
        ]
        let given = values.compactMap { $0 }.filter { !$0.isEmpty }
        if given.isEmpty { return .some(nil) }
        guard given.count == 4 else { return nil }
        return (given[0], given[1], given[2], given[3])
    }

    /// The APNs sender the flags describe, or `nil` when none are given.
    private func makePushSender(logger: Logger, tracer: (any Tracer)?) throws -> (any PushSender)? {
        guard let settings = apnsSettings, let apns = settings else { return nil }
        guard let data = FileManager.default.contents(atPath: apns.keyFile) else {
            throw ValidationError("--apns-key-file: cannot read \(apns.keyFile)")
        }
        let pem = String(decoding: data, as: UTF8.self)
        let credentials: APNsProviderToken
        do { credentials = try APNsProviderToken(p8: pem, keyID: apns.keyID, teamID: apns.teamID) } catch let error
            as APNsProviderToken.InvalidIdentifier
        {
            throw ValidationError(error.message)
        } catch {
            throw ValidationError("--apns-key-file: not a P-256 private key in PEM (the .p8 file from Apple)")
        }
        logger.info("silent pushes go out through APNs", metadata: ["topic": "\(apns.bundleID)", "keyID": "\(apns.keyID)"])
        return APNsPushSender(credentials: credentials, bundleID: apns.bundleID, logger: logger, tracer: tracer)
    }

    func validate() throws {
        try FlintEnvironment.refuseMalformed()
        guard (1...65_535).contains(port) || port == 0 else { throw ValidationError("--port must be between 0 and 65535") }
        guard smsCodeTtl >= 30 && smsCodeTtl <= 86_400 else { throw ValidationError("--sms-code-ttl must be between 30 and 86400 seconds") }
        guard reloadInterval >= 1 && reloadInterval <= 3600 else { throw ValidationError("--reload-interval must be between 1 and 3600 seconds") }
        guard oobCodeTtl >= 60 && oobCodeTtl <= 7 * 86_400 else { throw ValidationError("--oob-code-ttl must be between 60 and 604800 seconds") }
        guard (0...3600).contains(drainTime) else { throw ValidationError("--drain-time must be between 0 and 3600 seconds") }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be between 1 and 3600 seconds") }
        guard (1...36_500).contains(auditRetention) else { throw ValidationError("--audit-retention must be between 1 and 36500 days") }
        guard newAccountsPerIp >= 0 else { throw ValidationError("--new-accounts-per-ip must be 0 (no limit) or more") }
        guard passkeyChallengesPerIp >= 0 else { throw ValidationError("--passkey-challenges-per-ip must be 0 (no limit) or more") }
        guard passkeyFailuresPerIp >= 0 else { throw ValidationError("--passkey-failures-per-ip must be 0 (no limit) or more") }
        guard (1...1_000_000).contains(maxConnectionsPerIp) else { throw ValidationError("--max-connections-per-ip must be between 1 and 1000000") }
        guard (10...20).contains(passwordHashCost) else { throw ValidationError("--password-hash-cost must be between 10 and 20") }
        guard EmailAddress.normalize(emailFrom) != nil else { throw ValidationError("--email-from must be an email address") }
        if let url = publicUrl ?? FlintEnvironment.string("publicUrl") {
            guard let parsed = ContinueURL(url), parsed.scheme == "http" || parsed.scheme == "https" else {
                throw ValidationError("--public-url must be an absolute http(s) URL")
            }
        }
        guard apnsSettings != nil else {
            throw ValidationError("--apns-key-file, --apns-key-id, --apns-team-id and --apns-bundle-id go together")
        }
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard ["text", "json"].contains(logFormat.lowercased()) else { throw ValidationError("--log-format must be text or json") }
        let devModeForStandIns = try resolvedDevMode()
        guard idpStandIn.isEmpty || devModeForStandIns else { throw ValidationError("--idp-stand-in is for dev mode only") }
        _ = try identityProviderStandIns()
        guard try resolvedDevMode() || !(effectiveAdminToken ?? "").isEmpty else {
            throw ValidationError("--no-dev needs --admin-token (or FLINT_ADMIN_TOKEN): production mode has no other admin credential")
        }
        guard try resolvedDevMode() || store.explicitMasterKey() != nil else {
            throw MasterKeyMissing(
                description:
                    "refusing to start: production mode (--no-dev) needs a master key to seal the signing keys and the server secret: \(MasterKeyFile.howTo)"
            )
        }
    }

    func run() async throws {
        // While tracing is on, every line logged inside a span carries its trace and span IDs.
        if logFormat.lowercased() == "json" {
            LoggingSystem.bootstrap(
                { label, provider in JSONLogHandler(label: label, metadataProvider: provider) }, metadataProvider: tracing.logMetadataProvider)
        } else if let provider = tracing.logMetadataProvider {
            LoggingSystem.bootstrap(
                { label, provider in StreamLogHandler.standardError(label: label, metadataProvider: provider) }, metadataProvider: provider)
        }
        var logger = Logger(label: "flint")
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
        // As many event loops as CPUs this process may run on (before anything starts NIO's shared group), unless
        // NIO_SINGLETON_GROUP_LOOP_COUNT says otherwise.
        if ProcessInfo.processInfo.environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil, let allowed = AllowedCPUs.count(),
            allowed < System.coreCount
        {
            NIOSingletons.groupLoopCountSuggestion = allowed
            logger.info("event loops sized to the CPUs allowed", metadata: ["loops": "\(allowed)", "cores": "\(System.coreCount)"])
        }
        let dev = try resolvedDevMode()
        var settings = ServerSettings()
        settings.host = host
        settings.port = port
        settings.appName = appName ?? FlintEnvironment.string("appName")
        settings.projectID = project
        settings.devMode = dev
        settings.adminToken = effectiveAdminToken
        settings.apiKeys = apiKey
        settings.smsCodeTTL = .seconds(smsCodeTtl)
        settings.reloadInterval = .seconds(reloadInterval)
        settings.publicURL = publicUrl ?? FlintEnvironment.string("publicUrl")
        settings.emailFrom = emailFrom
        settings.emailFromName = emailFromName ?? FlintEnvironment.string("emailFromName")
        settings.oobCodeTTL = .seconds(oobCodeTtl)
        settings.outboxRetention = .seconds(max(0, outboxRetention))
        settings.auditRetention = .seconds(auditRetention * 86_400)
        settings.passwordHashParameters = PasswordHashParameters(logN: passwordHashCost)
        settings.trustForwardedFor = trustForwardedFor
        settings.idleTimeout = .seconds(idleTimeout)
        settings.maxConnectionsPerIP = maxConnectionsPerIp
        settings.newAccountsPerIPPerHour = Int64(newAccountsPerIp)
        settings.passkeyChallengesPerIP = Int64(passkeyChallengesPerIp)
        settings.passkeyFailuresPerIP = Int64(passkeyFailuresPerIp)
        settings.metricsToken = metricsToken ?? FlintEnvironment.string("metricsToken")
        settings.identityProviderStandIns = try identityProviderStandIns()
        if let config = config ?? FlintEnvironment.string("config") {
            let file = try ConfigFile.read(path: config)
            settings.configDocument = file.document
            settings.configFileDigest = file.digest
        }
        let tracingBackend = try tracing.backend(logger: logger)
        settings.tracer = tracingBackend?.tracer
        if tracingBackend != nil { logger.info("tracing on: spans go out over OTLP/HTTP") }
        var emailSender: (any EmailSender)?
        if let url = smtp ?? FlintEnvironment.string("smtpUrl") {
            let smtpSettings: SMTPSettings
            do { smtpSettings = try SMTPSettings(url: url) } catch { throw ValidationError("--smtp: \(error)") }
            emailSender = SMTPEmailSender(
                settings: smtpSettings, from: emailFrom, fromName: settings.emailFromName ?? settings.appName, logger: logger,
                tracer: settings.tracer)
            logger.info("email goes out through SMTP", metadata: ["smtp": "\(smtpSettings)"])
        } else if !dev {
            logger.warning("no --smtp: email links cannot be sent in production mode (operators can still use returnOobLink)")
        }
        var smsSender: (any SMSSender)?
        if let url = sms ?? FlintEnvironment.string("smsUrl") {
            let sender: any SMSSender
            do {
                sender = try SMSProvider.sender(
                    url: url, webhookSecret: smsWebhookSecret ?? FlintEnvironment.string("smsWebhookSecret"), tracer: settings.tracer)
            } catch {
                throw ValidationError("--sms: \(error)")
            }
            smsSender = sender
            logger.info("SMS go out through \(type(of: sender))")
        } else if !dev {
            logger.warning("no --sms: SMS codes cannot be sent in production mode (fictional test numbers still work)")
        }
        let pushSender = try makePushSender(logger: logger, tracer: settings.tracer)
        if pushSender == nil && !dev {
            logger.warning("no APNs key: verifyClient refuses and iOS apps verify through the web challenge at /__/auth/handler")
        }
        // The listener answers the load balancers' probes (/readyz: starting) while the store opens and migrates.
        let node = (settings: settings, store: store, dev: dev, describe: store.describe)
        let senders = (sms: smsSender, email: emailSender, push: pushSender)
        let nodeLogger = logger
        // The span exporter outlasts the HTTP server and the node: it sends the spans of the last requests.
        let exporter = tracingBackend.map { [$0.service] } ?? []
        try await NodeLauncher(settings: settings, drainTime: .seconds(drainTime), logger: logger).run(outlasting: exporter) { readiness in
            let logger = nodeLogger
            let database = try await node.store.open(logger: logger, serving: true)
            do {
                guard let found = try await node.store.masterKey(for: database, useDataDirectory: node.dev, create: node.dev) else {
                    throw MasterKeyMissing(description: "refusing to start: no master key: \(MasterKeyFile.howTo)")
                }
                var settings = node.settings
                settings.masterKey = found.key
                logger.info("the store's secrets are sealed with master key \(found.key.id) from \(found.source)")
                // The web console is served beside the API as a module: FlintServer does not depend on it.
                let server = try await FlintServer(
                    settings: settings, store: database, sms: senders.sms, email: senders.email, push: senders.push, logger: logger,
                    modules: [ConsoleModule()], readiness: readiness)
                server.metrics.bootstrapMetricsSystem()
                logger.info(
                    "flint listening",
                    metadata: [
                        "address": "\(settings.host):\(settings.port)", "project": "\(settings.projectID)",
                        "mode": "\(node.dev ? "dev" : "production")",
                        "data": "\(node.describe)",
                    ]
                )
                if node.dev { logger.info("dev mode: SMS codes go to the outbox at /emulator/v1/projects/\(settings.projectID)/outbox") }
                return StartedNode(server: server, store: database)
            } catch {
                try? await database.close()
                throw error
            }
        }
    }
}

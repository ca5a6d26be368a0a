import ArgumentParser
import FlintCore
import FlintServer
import FlintStore
import Hummingbird
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint serve`: run a node. With no flags: 127.0.0.1:9099, data in ./.flint, project demo-flint, dev mode.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Flint server (dev mode by default).")

    @Option(help: "Interface to listen on (env FLINT_HOST).") var host: String = env("FLINT_HOST") ?? "127.0.0.1"
    @Option(help: "Port to listen on (env FLINT_PORT).") var port: Int = env("FLINT_PORT").flatMap(Int.init) ?? 9099
    @OptionGroup var store: StoreOptions
    @Option(help: "Project ID (env FLINT_PROJECT).") var project: String = env("FLINT_PROJECT") ?? "demo-flint"
    @Option(help: "Project config file, YAML or JSON, applied at start (env FLINT_CONFIG).") var config: String?
    @Option(help: "Seconds an SMS code stays valid (env FLINT_SMS_CODE_TTL).") var smsCodeTtl: Int =
        env("FLINT_SMS_CODE_TTL").flatMap(Int.init) ?? 300
    @Flag(inversion: .prefixedNo, help: "Dev mode: any API key, 'Bearer owner' is admin, emulator helper routes (env FLINT_DEV=0 turns it off).")
    var dev: Bool = env("FLINT_DEV").map { $0 != "0" && $0.lowercased() != "false" } ?? true
    @Option(help: "Admin bearer credential for production mode (env FLINT_ADMIN_TOKEN).") var adminToken: String?
    @Option(help: "Accepted API key in production mode; repeatable (env FLINT_API_KEYS, comma-separated).")
    var apiKey: [String] = env("FLINT_API_KEYS").map { $0.split(separator: ",").map(String.init) } ?? []
    @Option(help: "The app name SMS texts mention (env FLINT_APP_NAME; default: the project ID).")
    var appName: String?
    @Option(help: "Seconds between re-reads of keys and config from the store (env FLINT_RELOAD_INTERVAL).")
    var reloadInterval: Int = env("FLINT_RELOAD_INTERVAL").flatMap(Int.init) ?? 30
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env FLINT_LOG_LEVEL).")
    var logLevel: String = env("FLINT_LOG_LEVEL") ?? "info"

    private var effectiveAdminToken: String? { adminToken ?? env("FLINT_ADMIN_TOKEN") }

    func validate() throws {
        guard (1...65_535).contains(port) || port == 0 else { throw ValidationError("--port must be between 0 and 65535") }
        guard smsCodeTtl >= 30 && smsCodeTtl <= 86_400 else { throw ValidationError("--sms-code-ttl must be between 30 and 86400 seconds") }
        guard reloadInterval >= 1 && reloadInterval <= 3600 else { throw ValidationError("--reload-interval must be between 1 and 3600 seconds") }
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard dev || !(effectiveAdminToken ?? "").isEmpty else {
            throw ValidationError("--no-dev needs --admin-token (or FLINT_ADMIN_TOKEN): production mode has no other admin credential")
        }
    }

    func run() async throws {
        var logger = Logger(label: "flint")
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
        var settings = ServerSettings()
        settings.host = host
        settings.port = port
        settings.appName = appName ?? env("FLINT_APP_NAME")
        settings.projectID = project
        settings.devMode = dev
        settings.adminToken = effectiveAdminToken
        settings.apiKeys = apiKey
        settings.smsCodeTTL = TimeInterval(smsCodeTtl)
        settings.reloadInterval = TimeInterval(reloadInterval)
        if let config = config ?? env("FLINT_CONFIG") {
            settings.configDocument = try ConfigFile.load(path: config)
        }
        let database = try await store.open(logger: logger)
        let server = try await FlintServer(settings: settings, store: database, logger: logger)
        logger.info(
            "flint listening",
            metadata: ["address": "\(host):\(port)", "project": "\(project)", "mode": "\(dev ? "dev" : "production")", "data": "\(store.describe)"]
        )
        if dev { logger.info("dev mode: SMS codes go to the outbox at /emulator/v1/projects/\(project)/outbox") }
        try await server.application.runService()
        try await database.close()
    }
}

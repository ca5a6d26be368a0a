import ArgumentParser
import FlintServer
import Hummingbird
import Logging
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint admin-bridge`: the Admin SDKs against a production Flint, unpatched. Point `FIREBASE_AUTH_EMULATOR_HOST` at
/// it; it forwards their calls over verified HTTPS with a named admin credential in place of `Bearer owner`.
struct AdminBridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-bridge",
        abstract: "Forward the Admin SDKs' emulator-mode calls (FIREBASE_AUTH_EMULATOR_HOST) to a production Flint with a named admin credential.",
        discussion: """
            The credential's secret (from `flint admin tokens create NAME`) is read from --credential-file FILE \
            (env FLINT_ADMIN_SECRET_FILE) or the environment variable FLINT_ADMIN_SECRET, never from the command line.
            """)

    @Option(help: "The production Flint's base URL, https://auth.example.com (env FLINT_BRIDGE_UPSTREAM).")
    var upstream: String?
    @Option(help: "A file holding the admin credential's secret (env FLINT_ADMIN_SECRET_FILE; or the secret itself in FLINT_ADMIN_SECRET).")
    var credentialFile: String?
    @Option(help: "PEM file of the CA certificates the upstream's certificate must chain to, instead of the system's (env FLINT_BRIDGE_CA_FILE).")
    var caFile: String?
    @Option(help: "Interface to listen on: loopback unless --allow-non-loopback (env FLINT_BRIDGE_HOST).")
    var host: String = FlintEnvironment.string("bridgeHost") ?? "127.0.0.1"
    @Option(help: "Port to listen on; FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT (env FLINT_BRIDGE_PORT).")
    var port: Int = FlintEnvironment.int("bridgePort", default: 9099)
    @Flag(help: "Listen on a non-loopback --host too: whoever reaches the port acts with the credential.")
    var allowNonLoopback = false
    @Option(help: "Seconds one forwarded call may take, its body included (env FLINT_BRIDGE_TIMEOUT).")
    var timeout: Int = FlintEnvironment.int("bridgeTimeout", default: 30)
    @Option(help: "Log level; debug logs every forwarded call (env FLINT_LOG_LEVEL).")
    var logLevel: String = FlintEnvironment.string("logLevel") ?? "info"
    @Option(help: "Log format: text or json (env FLINT_LOG_FORMAT).")
    var logFormat: String = FlintEnvironment.string("logFormat") ?? "text"

    func validate() throws {
        try FlintEnvironment.refuseMalformed()
        guard Logger.Level(rawValue: logLevel.lowercased()) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        guard ["text", "json"].contains(logFormat.lowercased()) else { throw ValidationError("--log-format must be text or json") }
        let settings = try settings()
        do { try settings.validate() } catch { throw ValidationError(error.description) }
    }

    /// The settings from the flags, the environment and the credential file.
    private func settings() throws -> AdminBridgeSettings {
        var settings = AdminBridgeSettings()
        settings.host = host
        settings.port = port
        settings.allowNonLoopback = allowNonLoopback
        guard let upstream = upstream ?? FlintEnvironment.string("bridgeUpstream") else {
            throw ValidationError("say which Flint to forward to: --upstream https://auth.example.com (or FLINT_BRIDGE_UPSTREAM)")
        }
        settings.upstream = upstream
        settings.secret = try secret()
        settings.caFile = caFile ?? FlintEnvironment.string("bridgeCaFile")
        settings.timeout = .seconds(timeout)
        return settings
    }

    /// The credential's secret: the file's first line, else `FLINT_ADMIN_SECRET`.
    private func secret() throws -> String {
        if let path = credentialFile ?? FlintEnvironment.string("adminSecretFile") {
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read the credential file \(path)") }
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { String($0).trimmingSpaces } ?? ""
        }
        guard let secret = FlintEnvironment.string("adminSecret") else {
            throw ValidationError(
                "no admin credential: give its secret (flint admin tokens create NAME) in --credential-file FILE, FLINT_ADMIN_SECRET_FILE or FLINT_ADMIN_SECRET"
            )
        }
        return secret
    }

    func run() async throws {
        if logFormat.lowercased() == "json" { LoggingSystem.bootstrap { label in JSONLogHandler(label: label) } }
        var logger = Logger(label: "flint-admin-bridge")
        logger.logLevel = Logger.Level(rawValue: logLevel.lowercased()) ?? .info
        let settings = try settings()
        if !settings.listensOnLoopback {
            logger.warning(
                "listening on a non-loopback address (--allow-non-loopback): anyone who reaches it acts with the admin credential",
                metadata: ["host": "\(settings.host)"])
        }
        if !settings.secret.hasPrefix("flint_") {
            logger.warning("the secret is not a named credential's (flint admin tokens create NAME): the audit log cannot name who called")
        }
        let bridge = try AdminBridge(settings: settings, logger: logger)
        let log = logger
        let application = bridge.application { channel in
            log.info(
                "admin bridge listening",
                metadata: [
                    "address": "\(settings.host):\(channel.localAddress?.port ?? settings.port)", "upstream": "\(settings.upstream)",
                ])
        }
        do { try await application.runService() } catch {
            try await bridge.shutdown()
            throw error
        }
        try await bridge.shutdown()
    }
}

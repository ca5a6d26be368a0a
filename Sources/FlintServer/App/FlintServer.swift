public import FlintCore
public import FlintStore
public import Hummingbird
public import Logging
import NIOCore
package import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ready-to-run Flint node: store opened, secrets and keys in place, router built.
public struct FlintServer: Sendable {
    /// The Hummingbird application; run it with `runService()` (graceful shutdown on SIGINT/SIGTERM). Its responder
    /// answers the load balancers' probes (`/healthz`, `/readyz`) and hands everything else to the node's router.
    public let application: Application<NodeResponder>
    /// Whether the node is ready for traffic, as `/readyz` answers it.
    public let readiness: NodeReadiness
    /// The node's router (`flint serve` installs it in the responder it listened with while starting).
    package let router: RouterResponder<FlintRequestContext>
    /// The node's background services (reloads, flushes, webhooks), which `application` runs.
    package let services: [any Service]
    /// The node's flows (tests reach into them to run background work on demand).
    package let flows: Flows
    /// What the node serves beside Flint's API (the web console).
    package let modules: [any ServerModule]
    /// The node's metrics, served at `GET /metrics` (`flint serve` bootstraps swift-metrics with its factory).
    public let metrics: FlintMetrics

    /// Builds a node.
    /// - Parameters:
    ///   - settings: everything from flags, environment and files.
    ///   - store: the opened store.
    ///   - clock: the time source (tests inject a manual one).
    ///   - random: the randomness source.
    ///   - sms: the SMS sender; defaults to the durable dev outbox in dev mode, and to refusing every send (no
    ///     provider configured) in production mode.
    ///   - email: the email sender; defaults to the durable dev outbox.
    ///   - push: the silent-push sender of app verification; defaults to the dev outbox in dev mode and to none in
    ///     production (then `verifyClient` refuses and clients use the web challenge).
    ///   - logger: the server's logger.
    /// - Throws: when the store cannot provide secrets, keys or config.
    public init(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil, push: (any PushSender)? = nil, logger: Logger
    ) async throws {
        try await self.init(
            settings: settings, store: store, clock: clock, random: random, sms: sms, email: email, push: push, logger: logger, modules: [])
    }

    /// Builds a node that serves `modules` (the web console) beside Flint's API; the other parameters are those of
    /// ``init(settings:store:clock:random:sms:email:push:logger:)``. A node given its `readiness` (`flint serve`'s,
    /// which listens before the node is built) leaves it starting: its starter marks it serving once the router is
    /// installed where it listens; otherwise the node is ready from the start.
    package init(
        settings: ServerSettings, store: any AuthStore, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom(),
        sms: (any SMSSender)? = nil, email: (any EmailSender)? = nil, push: (any PushSender)? = nil, logger: Logger, modules: [any ServerModule],
        readiness: NodeReadiness? = nil
    ) async throws {
        let metrics = FlintMetrics(clock: clock)
        let flows = try await Flows.start(
            settings: settings, store: MeteredStore(base: settings.tracer.map { TracedStore(base: store, tracer: $0) } ?? store, metrics: metrics),
            clock: clock, random: random, sms: sms, email: email,
            push: push, logger: logger, metrics: metrics)
        (self.flows, self.metrics, self.modules) = (flows, metrics, modules)
        self.router = try buildRouter(flows: flows, modules: modules).buildResponder()
        self.services = [
            ReloadService(flows: flows, modules: modules),
            FlushService(name: "RefreshActivityService", pending: flows.sessions.activity, store: flows.node.store, logger: logger),
            FlushService(name: "StatsService", pending: metrics.stats, store: flows.node.store, logger: logger),
            FlushService(name: "AuditIndexService", pending: AuditIndexCatchUp(), store: flows.node.store, logger: logger),
            WebhookService(dispatcher: flows.webhooks, interval: settings.reloadInterval),
            ModuleShutdownService(modules: modules),
        ]
        self.readiness = readiness ?? NodeReadiness(clock: clock)
        let responder = NodeResponder(readiness: self.readiness)
        responder.install(router)
        if readiness == nil { self.readiness.serve(store) }
        self.application = Application(
            responder: responder, server: .flint(settings: settings),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "flint"), services: services, logger: logger)
    }

    /// Schedules a new signing key: published at once, it starts signing once every node has published it and
    /// verifiers' caches of the key endpoints (`keyCacheMaxAge`) have expired, and the key signing until then stays
    /// published while its tokens live.
    /// - Parameters:
    ///   - masterKey: the key the store's secrets are sealed with (the new private key is sealed with it too).
    ///   - keyCacheMaxAge: the longest `Cache-Control: max-age` the nodes serve on the key endpoints.
    ///   - reloadInterval: the longest interval at which the nodes re-read the store (`--reload-interval`).
    /// - Returns: the scheduled key (an earlier rotation's key when that one has not started signing yet).
    /// - Throws: ``MasterKeyError`` when the store's secrets are sealed with another key; nothing is added then.
    public static func rotateKeys(
        store: any AuthStore, masterKey: MasterKey? = nil, keyCacheMaxAge: Duration = ServerSettings().keyCacheMaxAge,
        reloadInterval: Duration = ServerSettings().reloadInterval, clock: any WallClock = SystemClock()
    ) async throws -> ScheduledKey {
        try await KeyCache.rotate(
            store: store, secrets: SecretsAtRest(masterKey: masterKey),
            lead: KeyRing.publicationLead(keyCacheMaxAge: keyCacheMaxAge, reloadInterval: reloadInterval),
            clock: clock, random: SystemRandom())
    }

    /// Emergency rotation for a leaked key: revokes `kid` (no node publishes or accepts it any more: the tokens and
    /// session cookies it signed stop verifying) and, when it was signing, adds a key that signs at once; a key that
    /// was not signing (retired, or scheduled) is only revoked. Audited as an admin action of the current
    /// ``AuditOrigin``.
    /// - Returns: what changed, or `nil` when no unrevoked key has ID `kid`.
    /// - Throws: ``MasterKeyError`` when the store's secrets are sealed with another key; nothing changes then.
    public static func revokeKey(_ kid: String, store: any AuthStore, masterKey: MasterKey? = nil, clock: any WallClock = SystemClock())
        async throws -> KeyRevocation?
    {
        try await KeyCache.revoke(kid, store: store, secrets: SecretsAtRest(masterKey: masterKey), clock: clock, random: SystemRandom())
    }
}

/// Re-reads keys and config from the store every `reloadInterval`, so changes made by another node or the CLI
/// take effect everywhere, sweeps the store (``sweep()``), and retries email deliveries that are due.
struct ReloadService: Service, CustomStringConvertible {
    let interval: Duration
    let outboxRetention: Duration
    let node: Node
    let keys: KeyCache
    let codes: ActionCodes
    let tenants: TenantCache
    let modules: [any ServerModule]

    /// Its name only: ServiceLifecycle logs its services at start, and this one holds the node's settings and secrets.
    var description: String { "ReloadService" }

    init(flows: Flows, modules: [any ServerModule] = []) {
        (interval, outboxRetention) = (flows.node.settings.reloadInterval, flows.node.settings.outboxRetention)
        (node, keys, codes, tenants, self.modules) = (flows.node, flows.keys, flows.actionCodes, flows.tenants, modules)
    }

    func run() async throws {
        // Sleeping is cut short by graceful shutdown; that cancellation is the normal way out.
        try? await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await followAnnouncements() }
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    do {
                        try await keys.reload()
                        try await node.config.reload()
                        tenants.forget()
                        try await sweep()
                        await codes.deliverDueEmail()
                    } catch {
                        node.logger.warning("reload from store failed", metadata: ["errorType": "\(type(of: error))"])
                    }
                }
                group.cancelAll()
            }
        }
    }

    /// Re-reads the config or the keys as soon as a node announces a change to them (PostgreSQL LISTEN/NOTIFY),
    /// instead of at the next periodic reload.
    func followAnnouncements() async {
        for await change in node.store.changes() {
            do {
                switch change {
                case .config: try await node.config.reload()
                case .keys: try await keys.reload()
                case .tenants: tenants.forget()
                default: continue
                }
            } catch {
                node.logger.warning(
                    "reload after a change announcement failed", metadata: ["change": "\(change)", "errorType": "\(type(of: error))"])
            }
        }
    }

    /// Deletes codes, counters and oob codes that expired over an hour ago, outbox records and webhook deliveries that
    /// are done with and older than ``ServerSettings/outboxRetention``, audit events older than ``ServerSettings/auditRetention``,
    /// the dashboard's hours older than ``StatsTally/retention``, and what the modules keep past its time (the
    /// console's sessions).
    func sweep() async throws {
        let now = node.clock.now()
        let cutoff = now - .seconds(3600)
        let outboxCutoff = now - outboxRetention
        let auditCutoff = now - node.settings.auditRetention
        let statsCutoff = now - StatsTally.retention
        _ = try await node.store.write { tx in
            for module in modules { try await module.sweep(tx, now: now) }
            try await Self.sweep(tx, auditBefore: auditCutoff, expiredBefore: cutoff, outboxBefore: outboxCutoff, statsBefore: statsCutoff)
        }
    }

    /// What the node's own sweep deletes: audit events, code sessions, counters, ended account locks, oob codes, outbox records, webhook
    /// deliveries, the dashboard's hours (modules sweep with the whole transaction, ``ServerModule/sweep(_:now:)``).
    typealias Writes = AuditWrites & CodeSessionsWrites & CountersWrites & OobCodesWrites & OutboxWrites & StatsWrites & WebhooksWrites

    /// Deletes, inside the sweep's transaction, what is past its cutoff.
    private static func sweep(
        _ tx: some Writes, auditBefore auditCutoff: Instant, expiredBefore cutoff: Instant, outboxBefore outboxCutoff: Instant,
        statsBefore statsCutoff: Instant
    ) async throws {
        _ = try await tx.deleteAuditEvents(before: auditCutoff)
        _ = try await tx.deleteCodeSessions(expiredBefore: cutoff)
        _ = try await tx.deleteCounters(expiredBefore: cutoff)
        _ = try await tx.deleteAccountLocks(endedBefore: cutoff)
        _ = try await tx.deleteOobCodes(expiredBefore: cutoff)
        _ = try await tx.deleteOutbox(finishedBefore: outboxCutoff)
        _ = try await tx.deleteWebhookDeliveries(finishedBefore: outboxCutoff)
        _ = try await tx.deleteStats(before: statsCutoff)
    }
}

import FlintCore
package import FlintStore
import Hummingbird
package import Logging
package import ServiceLifecycle
import UnixSignals

/// What ``NodeLauncher``'s start builds: the node and the store it opened (closed when the node stops).
package struct StartedNode: Sendable {
    package let server: FlintServer
    package let store: any AuthStore

    package init(server: FlintServer, store: any AuthStore) {
        (self.server, self.store) = (server, store)
    }
}

/// `flint serve`'s way to run a node: it listens first, answering only the probes (``NodeResponder``: `/readyz` says
/// `starting`, every other request 503), then opens the store and builds the node (connecting to the database and
/// migrating may take a while), then serves. At SIGTERM or SIGINT it drains: `/readyz` answers `draining` while the
/// node still serves for ``drainTime``, so load balancers take it out before the listener closes; then the HTTP
/// server finishes what it serves, then the node's background services stop and the store closes.
package struct NodeLauncher: Sendable {
    package let settings: ServerSettings
    package let drainTime: Duration
    package let logger: Logger

    package init(settings: ServerSettings, drainTime: Duration, logger: Logger) {
        (self.settings, self.drainTime, self.logger) = (settings, drainTime, logger)
    }

    /// Listens, runs `start`, serves what it built until graceful shutdown.
    /// - Parameters:
    ///   - outlasting: services that start first and stop last, after the HTTP server and the node (e.g. the span
    ///     exporter, which then sends the last requests' spans).
    ///   - start: opens the store and builds the node with the ``NodeReadiness`` it is given.
    /// - Throws: what `start` throws (the process then exits: the node never served).
    package func run(
        outlasting: [any Service] = [], start: @escaping @Sendable (NodeReadiness) async throws -> StartedNode
    ) async throws {
        let readiness = NodeReadiness(clock: SystemClock())
        let responder = NodeResponder(readiness: readiness)
        let application = Application(
            responder: responder, server: .flint(settings: settings),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "flint"), logger: logger)
        // Graceful shutdown goes from the last service to the first, each waited for: drain, then the HTTP server,
        // then the node's own services and its store.
        let group = ServiceGroup(
            configuration: .init(
                services: outlasting + [
                    NodeStarter(responder: responder, start: start, logger: logger), application,
                    DrainService(readiness: readiness, drainTime: drainTime, logger: logger),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Builds the node while the listener answers the probes, installs its router, runs its background services until
/// graceful shutdown, then closes its store.
struct NodeStarter: Service, CustomStringConvertible {
    let responder: NodeResponder
    let start: @Sendable (NodeReadiness) async throws -> StartedNode
    let logger: Logger

    var description: String { "NodeStarter" }

    func run() async throws {
        let started: StartedNode
        do {
            started = try await cancelWhenGracefulShutdown { try await start(responder.readiness) }
        } catch {
            // Stopped while starting: nothing served yet, nothing to finish.
            if Task.isShuttingDownGracefully { return }
            throw error
        }
        responder.install(started.server.router)
        responder.readiness.serve(started.store)
        do {
            try await ServiceGroup(configuration: .init(services: started.server.services, logger: logger)).run()
        } catch {
            try? await started.store.close()
            throw error
        }
        try await started.store.close()
    }
}

/// At graceful shutdown, marks the node draining and waits `drainTime` before the services before it in the group
/// (the HTTP server first) are shut down.
struct DrainService: Service, CustomStringConvertible {
    let readiness: NodeReadiness
    let drainTime: Duration
    let logger: Logger

    var description: String { "DrainService" }

    func run() async throws {
        // Returns at graceful shutdown; throws when the group is cancelled instead (then nothing drains).
        do { try await gracefulShutdown() } catch { return }
        readiness.drain()
        guard drainTime > .zero else { return }
        logger.info("draining: /readyz answers 503 while the node still serves", metadata: ["seconds": "\(drainTime.components.seconds)"])
        try? await Task.sleep(for: drainTime)
    }
}

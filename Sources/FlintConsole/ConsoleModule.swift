package import FlintCore
package import FlintServer
package import FlintStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The web console as a module of a node (``ServerModule``): its pages and forms (``ConsoleEndpoint``) over the node's
/// flows, the sweep of its expired sessions and import jobs, and its running import stopped at the node's shutdown.
/// `flint serve` hands it to the server; FlintServer does not import it.
package struct ConsoleModule: ServerModule {
    /// The node's user imports: the largest file the import page takes, and the import running, stopped at shutdown.
    let imports: ConsoleImportJobs

    /// A console whose import page takes files of at most `importLimit` bytes (256 MiB; larger files are for
    /// `flint users import`).
    package init(importLimit: Int = 256 * 1024 * 1024) {
        imports = ConsoleImportJobs(uploadLimit: importLimit, directory: ConsoleModule.temporaryDirectory)
    }

    package var endpoints: [Endpoint] { ConsoleEndpoint.allCases.map(\.endpoint) }

    /// The console's rules over `flows`: its user actions run the admin API's flows.
    static func flow(_ flows: Flows) -> ConsoleFlow {
        ConsoleFlow(
            node: flows.node, accounts: flows.accounts, mfa: flows.mfa, emailLink: flows.emailLink, keys: flows.keys,
            webhooks: flows.webhookSubscriptions, operatorAccounts: UserConsole(flows: flows),
            testSignIn: { try await flows.testProviderSignIn(requestUri: $0, sessionID: $1) },
            sessions: flows.userSessions, tenantAdmin: flows.tenantAdmin, tenants: flows.tenants)
    }

    /// Registers the console's pages in its route group at `/console`, whose own middleware (``ConsoleMiddleware``:
    /// the console's headers and error pages) replaces the API's; each handler checks the session, its CSRF token and
    /// the operator's role itself.
    package func register(on routes: ModuleRoutes, flows: Flows) throws {
        let pages = try ConsolePages(project: flows.node.settings.projectID, devMode: flows.node.settings.devMode)
        let group = routes.group(ConsoleEndpoint.prefix, middleware: [ConsoleMiddleware(pages: pages)])
        ConsoleRoutes(flow: Self.flow(flows), pages: pages, imports: imports).register(on: group)
    }

    /// Where uploads wait for their import: `TMPDIR`, else `/tmp`.
    static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), case let text = String(cString: value), !text.isEmpty else { return "/tmp" }
        return text.hasSuffix("/") && text.count > 1 ? String(text.dropLast()) : text
    }

    /// Deletes the console sessions past their idle timeout or lifetime; marks interrupted the imports whose node went
    /// silent, and deletes the imports past their retention.
    package func sweep(_ tx: any StoreTransaction, now: Instant) async throws {
        _ = try await tx.deleteConsoleSessions(idleBefore: now - ConsoleFlow.idleTimeout, createdBefore: now - ConsoleFlow.lifetime)
        _ = try await tx.interruptImportJobs(heartbeatBefore: now - ConsoleImportJobs.staleAfter)
        _ = try await tx.deleteImportJobs(startedBefore: now - ConsoleImportJobs.retention)
    }

    /// Stops this node's running import, which records itself interrupted.
    package func shutdown() async { await imports.stop() }
}

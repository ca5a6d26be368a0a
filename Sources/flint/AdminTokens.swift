import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint admin tokens create|list|revoke|tenants`: named admin bearer credentials.
struct AdminTokens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "Named admin credentials (Authorization: Bearer), stored hashed.",
        subcommands: [Create.self, List.self, Revoke.self, TenantLimit.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an admin credential and print its secret, once.",
            discussion: """
                The secret is printed alone on standard output (SECRET=$(flint admin tokens create ci)); only its SHA-256 \
                is stored. Calls carrying it as Authorization: Bearer are logged with NAME. A read credential may \
                only read (lookups, listings, queries, config); anything else answers 403 INSUFFICIENT_PERMISSION. \
                With --tenant (and --project for the project's own users and settings) it may act only there; any \
                other call answers the same 403.
                  flint admin tokens create acme-sync --tenant acme-x7k2q
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The credential's name (\(CredentialName.rule)).") var name: String
        @Option(help: "read or write.") var scope: String = "write"
        @Option(name: .customLong("tenant"), help: "A tenant it may act in (repeat for more); without any, every tenant.") var tenants: [String] = []
        @Flag(help: "The project's own users and settings (the default tenant): beside --tenant's, or alone.") var project = false

        func validate() throws {
            guard CredentialName.isValid(name) else { throw ValidationError("NAME must be \(CredentialName.rule)") }
            guard [AdminScope.read.rawValue, AdminScope.write.rawValue].contains(scope) else {
                throw ValidationError("--scope must be read or write")
            }
        }

        func run() async throws {
            let limit = tenants.isEmpty && !project ? nil : tenants.map(TenantID.init(rawValue:)) + (project ? [.default] : [])
            let secret = try await store.withStore(mappingErrors: {
                if case StoreError.conflict(.credentialName) = $0 {
                    return ValidationError("an admin credential named \(name) exists; revoke it first or pick another name")
                }
                return tenantError($0)
            }) { db in
                try await AdminCredentialChanges.create(
                    name: name, scope: AdminScope(rawValue: scope), tenants: limit, in: db, now: SystemClock().now(), random: SystemRandom())
            }
            printError("admin credential \(name) (\(scope), tenants: \(tenantLimitText(limit))) created; its secret, shown only now:")
            print(secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List admin credentials (names and scopes, never secrets).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        /// One credential as `--json` prints it: with a tenant limit, its tenants and whether the project is among them.
        struct Entry: Encodable {
            var name, scope: String
            var createdAt: String?
            var revokedAt: String?
            var tenants: [String]?
            var project: Bool?
        }

        func run() async throws {
            let credentials = try await store.withStore { db in try await db.read { try await $0.adminCredentials() } }
            if json {
                return try printJSON(
                    credentials.map {
                        Entry(
                            name: $0.name, scope: $0.scope.rawValue, createdAt: credentialTime($0.createdAt), revokedAt: credentialTime($0.revokedAt),
                            tenants: $0.tenants?.filter { !$0.isDefault }.map(\.rawValue), project: $0.tenants.map { $0.contains(.default) })
                    })
            }
            printTable(
                ["NAME", "SCOPE", "CREATED", "REVOKED", "TENANTS"],
                credentials.map {
                    [
                        $0.name, $0.scope.rawValue, credentialTime($0.createdAt) ?? "-", credentialTime($0.revokedAt) ?? "-",
                        tenantLimitText($0.tenants),
                    ]
                })
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an admin credential: refused from its next call on, on every node.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The credential's name.") var name: String

        func run() async throws {
            let revoked = try await store.withStore { db in try await AdminCredentialChanges.revoke(name: name, in: db, now: SystemClock().now()) }
            guard revoked else { throw ValidationError("no unrevoked admin credential named \(name)") }
            print("admin credential \(name) revoked")
        }
    }

    struct TenantLimit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tenants",
            abstract: "Limit an admin credential to some tenants (and the project with --project), or lift the limit with --all.",
            discussion: """
                A limited credential may call the admin API only in its tenants: the tenants/{tenant}/… paths of its \
                tenants, and the other paths when their tenantId names one of them (with --project, when they name none: \
                the project's own users, settings, keys, webhooks and logs). It may neither create, list nor delete \
                tenants. Anything else answers 403 INSUFFICIENT_PERMISSION. Every node reads the limit on each call, so \
                it holds from the credential's next call on.
                  flint admin tokens tenants acme-sync acme-x7k2q
                  flint admin tokens tenants ci --project acme-x7k2q globex-4n8pz
                  flint admin tokens tenants ci --all
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The credential's name.") var name: String
        @OptionGroup var limits: TenantLimitOptions

        func run() async throws {
            let limit = limits.limit
            let changed = try await store.withStore(mappingErrors: tenantError) { db in
                try await AdminCredentialChanges.setTenants(name: name, tenants: limit, in: db, now: SystemClock().now())
            }
            guard changed != nil else { throw ValidationError("no unrevoked admin credential named \(name)") }
            printError("admin credential \(name): \(tenantLimitText(limit)), from its next call on")
        }
    }
}

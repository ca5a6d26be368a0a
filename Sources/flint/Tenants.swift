import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint tenants create|list|get|update|delete`: the project's tenants (Identity Platform's multi-tenancy), in the
/// data directory's store, by the rules of the admin API's `v2/projects/{p}/tenants` (``TenantAdmin``). Changes are
/// audited by the actor `cli` and announced, so running nodes forget their copies (PostgreSQL: at once; SQLite:
/// within their reload interval).
struct Tenants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenants", abstract: "Create, list, show, change or delete tenants.",
        subcommands: [Create.self, List.self, Get.self, Update.self, Delete.self])

    /// What every subcommand takes: the store, and the project its resource names carry.
    struct Common: ParsableArguments {
        @OptionGroup var store: StoreOptions
        @Option(help: "Project ID for the resource name.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

        /// Runs `body` on the store's tenant operations, as the command line: audited by `cli`, Firebase's errors
        /// shown as usage errors.
        func run<T: Sendable>(_ body: @escaping @Sendable (TenantAdmin) async throws -> T) async throws -> T {
            try await store.asOperator { [store] db in
                let key = try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key
                return try await body(TenantAdmin(store: db, clock: SystemClock(), random: SystemRandom(), masterKey: key))
            }
        }

        /// Prints a tenant as the admin API answers it.
        func show(_ id: String, _ tenant: TenantConfig) throws {
            print(try ConfigFile.render(tenant.resource(projectID: project, id: id)))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a tenant and print it; its ID is made from the display name (acme-corp-x7k2q).")
        @OptionGroup var common: Common
        @Argument(help: "The display name: 4 to 20 letters, digits and hyphens, starting with a letter.") var displayName: String
        @Flag(help: "Allow email and password sign-up and sign-in.") var allowPasswordSignup = false
        @Flag(help: "Allow email-link sign-in.") var enableEmailLinkSignin = false
        @Flag(help: "Allow anonymous sign-up.") var enableAnonymousUser = false
        @Flag(help: "Refuse every sign-in of the tenant.") var disableAuth = false

        func run() async throws {
            var body: [String: JSONValue] = ["displayName": .string(displayName)]
            for (field, on) in [
                ("allowPasswordSignup", allowPasswordSignup), ("enableEmailLinkSignin", enableEmailLinkSignin),
                ("enableAnonymousUser", enableAnonymousUser), ("disableAuth", disableAuth),
            ] where on {
                body[field] = .bool(true)
            }
            let created = try await common.run { [body] in try await $0.create(body) }
            try common.show(created.id, created.tenant)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List tenants in ID order, a page at a time (the next page's token is printed on standard error).")
        @OptionGroup var common: Common
        @Option(help: "Tenants per page (at most \(TenantAdmin.maxPageSize)).") var pageSize: Int = TenantAdmin.maxPageSize
        @Option(help: "The token a previous page printed.") var pageToken: String?
        @Flag(help: "Print the page as the admin API answers it (JSON).") var json = false

        func run() async throws {
            let page = try await common.run { try await $0.list(pageSize: pageSize, pageToken: pageToken) }
            if json {
                var out: [String: JSONValue] = [
                    "tenants": .array(page.tenants.map { .object($0.tenant.resource(projectID: common.project, id: $0.id)) })
                ]
                if let next = page.nextPageToken { out["nextPageToken"] = .string(next) }
                return print(try ConfigFile.render(out))
            }
            printTable(
                ["ID", "DISPLAY NAME", "PASSWORD", "EMAIL LINK", "ANONYMOUS", "DISABLED"],
                page.tenants.map { entry in
                    let t = entry.tenant
                    return [entry.id, t.displayName]
                        + [t.allowPasswordSignup, t.enableEmailLinkSignin, t.enableAnonymousUser, t.disableAuth].map { $0 ? "yes" : "no" }
                })
            if let next = page.nextPageToken { printError("more tenants follow: --page-token \(next)") }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one tenant as JSON.")
        @OptionGroup var common: Common
        @Argument(help: "The tenant's ID.") var id: String

        func run() async throws {
            try common.show(id, try await common.run { try await $0.get(id) })
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set one tenant field, as in an updateMask, and print the tenant.",
            discussion: """
                PATH is a tenant field (\(TenantConfig.fields.joined(separator: ", "))) or a path inside one of its \
                objects (mfaConfig.state). VALUE is JSON (true, {"+16505551234":"123456"}); a bare word is a string.
                Examples:
                  flint tenants update acme-x7k2q allowPasswordSignup true
                  flint tenants update acme-x7k2q mfaConfig '{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}'
                """)
        @OptionGroup var common: Common
        @Argument(help: "The tenant's ID.") var id: String
        @Argument(help: "The field path.") var path: String
        @Argument(help: "The new value (JSON).") var value: String

        func run() async throws {
            let parsed = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
            var patch = parsed
            for key in path.split(separator: ".").reversed() { patch = .object([String(key): patch]) }
            let body = patch.objectValue ?? [:]
            let updated = try await common.run { [id, path] in try await $0.update(id, patch: body, updateMask: [path]) }
            try common.show(id, updated)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a tenant.")
        @OptionGroup var common: Common
        @Argument(help: "The tenant's ID.") var id: String

        func run() async throws {
            try await common.run { [id] in try await $0.delete(id) }
            printError("tenant \(id) deleted")
        }
    }
}

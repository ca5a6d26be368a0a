import ArgumentParser
import FlintConsole
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint admin operators add|reset|remove|role|tenants|list`: the web console's operators (`/console`).
struct ConsoleOperatorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operators", abstract: "Operators of the web console (/console): email, password and TOTP.",
        subcommands: [Add.self, Reset.self, Remove.self, Role.self, TenantLimit.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a console operator and print a one-time setup link (valid 24 hours).",
            discussion: """
                The link (on standard output) opens a page where the operator chooses a password and adds the console to \
                an authenticator app (TOTP); only the link's hash is stored. An admin operator may act on accounts; a read \
                operator sees every page and is refused (403) on any action.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The operator's email.") var email: String
        @Option(help: "admin or read.") var role: String = "admin"
        @OptionGroup var link: SetupLinkOptions

        func validate() throws {
            guard ConsoleRole.all.map(\.rawValue).contains(role) else { throw ValidationError("--role must be admin or read") }
        }

        func run() async throws {
            let token = try await store.withStore(mappingErrors: { addError($0, email: email) }) { db in
                try await ConsoleOperators.add(
                    email: email, role: ConsoleRole(rawValue: role), in: db, now: SystemClock().now(), random: SystemRandom())
            }
            link.print(token, "console operator \(email) (\(role)) added")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start an operator's setup again (lost authenticator or password): ends its sessions, prints a new setup link.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The operator's email.") var email: String
        @OptionGroup var link: SetupLinkOptions

        func run() async throws {
            let token = try await store.withStore(mappingErrors: { operatorError($0, email: email) }) { db in
                try await ConsoleOperators.reset(email: email, in: db, now: SystemClock().now(), random: SystemRandom())
            }
            link.print(token, "console operator \(email) must set up again")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a console operator and end its sessions (refused for the last admin operator).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The operator's email.") var email: String

        func run() async throws {
            let ended = try await store.withStore(mappingErrors: { operatorError($0, email: email) }) { db in
                try await ConsoleOperators.remove(email: email, in: db, now: SystemClock().now())
            }
            printError("console operator \(email) removed; \(ended) session\(ended == 1 ? "" : "s") ended")
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a console operator's role (admin or read); its sessions have the new role from their next request.",
            discussion: """
                The operator's sessions stay signed in: every console request reads the operator's role again, so a demoted \
                operator is refused (403) on its next action. Demoting the last admin operator is refused.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The operator's email.") var email: String
        @Argument(help: "admin or read.") var role: String

        func validate() throws {
            guard ConsoleRole.all.map(\.rawValue).contains(role) else { throw ValidationError("the role must be admin or read") }
        }

        func run() async throws {
            let previous = try await store.withStore(mappingErrors: { operatorError($0, email: email) }) { db in
                try await ConsoleOperators.setRole(email: email, role: ConsoleRole(rawValue: role), in: db, now: SystemClock().now())
            }
            if previous.rawValue == role {
                printError("console operator \(email) has the role \(role) already; nothing changed")
            } else {
                printError("console operator \(email): role \(previous) → \(role), for its sessions too from their next request")
            }
        }
    }

    struct TenantLimit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tenants",
            abstract: "Limit a console operator to some tenants (and the project with --project), or lift the limit with --all.",
            discussion: """
                A limited operator sees only those tenants in the console's picker, sees the project's own users and its                 settings only with --project, and is refused (403) on any other tenant's page or form; it may neither                 create nor delete tenants. Its sessions stay signed in and are limited from their next request.
                  flint admin operators tenants ops@acme.com acme-x7k2q
                  flint admin operators tenants ops@example.com --project acme-x7k2q globex-4n8pz
                  flint admin operators tenants ops@example.com --all
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The operator's email.") var email: String
        @OptionGroup var limits: TenantLimitOptions

        func run() async throws {
            let limit = limits.limit
            _ = try await store.withStore(mappingErrors: { operatorError($0, email: email) }) { db in
                try await ConsoleOperators.setTenants(email: email, tenants: limit, in: db, now: SystemClock().now())
            }
            printError("console operator \(email): \(tenantLimitText(limit)), for its sessions too from their next request")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List console operators (email, role, whether set up).")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let operators = try await store.withStore { db in try await db.read { try await $0.consoleOperators() } }
            printTable(
                ["EMAIL", "ROLE", "SET UP", "CREATED", "TENANTS"],
                operators.map {
                    [$0.email, $0.role.rawValue, $0.isSetUp ? "yes" : "no", credentialTime($0.createdAt) ?? "-", tenantLimitText($0.tenants)]
                })
        }
    }
}

/// An operator's tenant limit in words: `all`, or its tenants (`project` for the default tenant).
func tenantLimitText(_ tenants: [TenantID]?) -> String {
    guard let tenants else { return "all" }
    return tenants.sorted { $0.rawValue < $1.rawValue }.map { $0.isDefault ? "project" : $0.rawValue }.joined(separator: ",")
}

/// The CLI's message for what `remove` and `role` threw: an unknown operator, or the refusal to leave no admin operator.
/// `add`'s failures in the command's words.
private func addError(_ error: any Error, email: String) -> any Error {
    switch error {
    case StoreError.conflict(.operatorEmail): ValidationError("an operator with the email \(email) exists")
    case let error as AuthError where error == .invalidEmail: ValidationError("\(email) is not an email address")
    default: error
    }
}

private func operatorError(_ error: any Error, email: String) -> any Error {
    switch error {
    case StoreError.notFound: ValidationError("no console operator has the email \(email)")
    case let error as AuthError where error == .tenantNotFound: tenantError(error)
    case ConsoleOperators.Refusal.lastAdmin:
        ValidationError("refused: \(email) is the last console operator with the admin role; give another operator that role first")
    default: error
    }
}

/// Where a printed setup link starts: `--public-url`, else `FLINT_PUBLIC_URL`, else the default local address.
struct SetupLinkOptions: ParsableArguments {
    @Option(help: "The server's public URL, which the link starts with (default: FLINT_PUBLIC_URL, else http://127.0.0.1:9099).")
    var publicUrl: String?

    /// Prints `what` and the warning that the link shows only now (standard error), then the link of `token`.
    func print(_ token: String, _ what: String) {
        var base = publicUrl ?? FlintEnvironment.string("publicUrl") ?? "http://127.0.0.1:9099"
        while base.hasSuffix("/") { base.removeLast() }
        printError("\(what); its setup link, valid 24 hours, shown only now:")
        Swift.print(base + ConsoleOperators.setupPath(token: token))
    }
}

/// A tenant limit on the command line (`flint admin operators tenants`, `flint admin tokens tenants`): tenants' IDs,
/// `--project` for the default tenant, or `--all` for no limit.
struct TenantLimitOptions: ParsableArguments {
    @Argument(help: "The tenants' IDs.") var tenants: [String] = []
    @Flag(help: "The project's own users and settings too (the default tenant).") var project = false
    @Flag(help: "Lift the limit: every tenant and the project.") var all = false

    func validate() throws {
        if all && (project || !tenants.isEmpty) { throw ValidationError("--all takes no tenant and no --project") }
        if !all && !project && tenants.isEmpty { throw ValidationError("name tenants, --project, or --all") }
    }

    /// The limit named: `nil` for `--all`.
    var limit: [TenantID]? { all ? nil : tenants.map(TenantID.init(rawValue:)) + (project ? [.default] : []) }
}

import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint webhooks add|list|remove|enable|disable|deliveries|replay`: event webhook subscriptions and their
/// deliveries, in the store, with the rules of the admin API (`/flint/v1/projects/{p}/webhooks`). Changes are audited
/// with `cli` as actor and announced to the nodes (PostgreSQL; a SQLite node sees them at its next reload).
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks", abstract: "Event webhooks: subscriptions and deliveries.",
        subcommands: [Add.self, List.self, Remove.self, Enable.self, Disable.self, Deliveries.self, Replay.self])

    /// Runs `body` on the store's subscriptions, as the CLI acting (secrets sealed with the master key when one is found).
    static func withSubscriptions<T>(
        _ store: StoreOptions, allowsHTTP: Bool = false, _ body: (WebhookSubscriptions) async throws -> T
    ) async throws -> T {
        try await store.withStore(mappingErrors: { ($0 as? AuthError).map { ValidationError($0.message) } ?? $0 }) { db in
            let key = try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key
            let subscriptions = WebhookSubscriptions(store: db, masterKey: key, allowsHTTP: allowsHTTP)
            return try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) { try await body(subscriptions) }
        }
    }

    /// Turns subscription `id` on or off (`enable`, `disable`).
    static func turn(_ id: String, on: Bool, in store: StoreOptions) async throws {
        _ = try await withSubscriptions(store) { try await $0.setEnabled(id, on) }
        printError("webhook \(id) \(on ? "enabled" : "disabled")")
    }

    /// JSON on one line, keys sorted.
    static func text(_ value: JSONValue) -> String {
        String(decoding: value.serialized(sortingKeys: true), as: UTF8.self)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Subscribe a URL to events and print the subscription's ID and secret, once.",
            discussion: """
                Events: \(WebhookEventType.all.map(\.rawValue).joined(separator: ", ")). The signing secret (whsec_…) is printed \
                alone on standard output and not shown again; the ID goes to standard error. The subscription receives the \
                events recorded from now on.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The receiver's URL (https).") var url: String
        @Option(name: .customLong("event"), help: "An event type to deliver (repeat for several).") var events: [String] = []
        @Option(help: "A note for operators.") var description: String?
        @Flag(help: "Accept an http URL (a receiver on this machine or in dev mode).") var allowHTTP = false

        func run() async throws {
            let created = try await WebhooksCommand.withSubscriptions(store, allowsHTTP: allowHTTP) { subscriptions in
                try await subscriptions.create(url: url, events: events, description: description)
            }
            printError(
                "webhook \(created.subscription.id) created for \(created.subscription.events.map(\.rawValue).joined(separator: ", ")); its secret:")
            print(created.secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List subscriptions (never their secrets).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON, one subscription per line.") var json = false

        func run() async throws {
            let all = try await WebhooksCommand.withSubscriptions(store) { try await $0.list() }
            for s in all {
                if json {
                    print(WebhooksCommand.text(WebhookJSON.subscription(s, projectID: "-")))
                } else {
                    let state = s.enabled ? "enabled" : "disabled"
                    print([s.id, state, s.url, s.events.map(\.rawValue).joined(separator: ","), s.description ?? ""].joined(separator: " "))
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a subscription and its deliveries.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's ID (wh_…).") var id: String

        func run() async throws {
            try await WebhooksCommand.withSubscriptions(store) { try await $0.remove(id) }
            printError("webhook \(id) removed")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn a subscription on again (from the events recorded now).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's ID (wh_…).") var id: String

        func run() async throws { try await WebhooksCommand.turn(id, on: true, in: store) }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a subscription's deliveries (its queued ones wait).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's ID (wh_…).") var id: String

        func run() async throws { try await WebhooksCommand.turn(id, on: false, in: store) }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List deliveries, newest first: status, attempts, last error.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "Only this subscription's deliveries.") var id: String?
        @Option(help: "At most this many (1 to \(WebhookSubscriptions.maxPage)).") var limit = 50
        @Flag(help: "Print JSON, one delivery per line.") var json = false

        func validate() throws {
            guard (1...WebhookSubscriptions.maxPage).contains(limit) else {
                throw ValidationError("--limit must be 1 to \(WebhookSubscriptions.maxPage)")
            }
        }

        func run() async throws {
            let page = try await WebhooksCommand.withSubscriptions(store) { subscriptions in
                if let id { _ = try await subscriptions.subscription(id) }
                return try await subscriptions.deliveries(of: id, limit: limit)
            }
            for d in page {
                let fields = WebhookJSON.delivery(d)
                if json {
                    print(WebhooksCommand.text(fields))
                } else {
                    print(
                        [
                            "\(d.sequence ?? 0)", fields["createTime"]?.stringValue ?? "", d.subscriptionID, d.eventType.rawValue, d.status.rawValue,
                            "attempts=\(d.attempts)", d.webhookID, d.lastError.map { "error=\($0)" } ?? "",
                        ].joined(separator: " "))
                }
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue a delivery again now, with a fresh round of attempts (same webhook-id and body).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The delivery's ID (the first column of `deliveries`).") var delivery: Int64

        func run() async throws {
            try await WebhooksCommand.withSubscriptions(store) { try await $0.replay(delivery) }
            printError("delivery \(delivery) queued again")
        }
    }
}

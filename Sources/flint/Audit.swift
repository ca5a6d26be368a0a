import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint audit …`: the audit log of security events, read from the store.
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read the audit log.", subcommands: [List.self])

    /// `flint audit list`: one page of events, newest first, with the filters of the admin endpoint.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List audit events, newest first.",
            discussion: """
                The filters and pages of GET /flint/v1/projects/{p}/auditEvents. Times are RFC 3339 \
                (2026-01-31T12:00:00Z) or milliseconds since the epoch. Kinds: \(AuditKind.all.map(\.rawValue).joined(separator: ", ")).
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "Only events of this user (local ID).") var uid: String?
        @Option(help: "Only events of this kind.") var kind: String?
        @Option(help: "Only events at or after this time.") var since: String?
        @Option(help: "Only events before this time.") var until: String?
        @Option(help: "Only the events of this tenant (its ID).") var tenant: String?
        @Option(help: "Events per page, 1 to \(AuditListing.maxPageSize).") var pageSize: Int = AuditListing.defaultPageSize
        @Option(help: "The next page token a previous listing printed.") var pageToken: String?
        @Flag(help: "Print the page as the endpoint's JSON.") var json = false

        func run() async throws {
            let page = try await store.withStore(mappingErrors: { ($0 as? AuthError).map { ValidationError($0.message) } ?? $0 }) { db in
                let filter = AuditListing.Filter(
                    uid: uid, kind: kind, since: since, until: until, pageSize: String(pageSize), pageToken: pageToken,
                    tenant: try await TenantAdmin.existing(tenant, in: db))
                return try await AuditListing.page(filter, in: db)
            }
            if json {
                print(Self.text(page.json))
                return
            }
            for event in page.events { print(Self.line(event)) }
            if let next = page.nextPageToken { print("more: --page-token \(next)") }
        }

        /// One event on one line: time, kind, user, address, actor, detail.
        static func line(_ event: AuditEvent) -> String {
            let fields = AuditListing.json(event)
            return [
                fields["eventTime"]?.stringValue ?? "", event.kind.rawValue, "uid=\(event.uid ?? "-")", "ip=\(event.ip ?? "-")",
                "actor=\(event.actor ?? "-")", text(.object(event.detail)),
            ].joined(separator: " ")
        }

        static func text(_ value: JSONValue) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }
}

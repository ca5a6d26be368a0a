import FlintCore
import FlintTesting
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import FlintStore

/// Every statement the audit log's listings, catch-up and sweep run is answered from an index: each is run through an
/// executor that asks the engine for its plan first, with the statement's own values.
@Suite("Audit log: every listing is an index walk")
struct AuditQueryPlanTests {
    /// Runs statements on `base`, keeping the plan of each one that names the audit log's tables.
    final class PlanRecorder: SQLExecutor, Sendable {
        let base: any SQLExecutor
        let plans = Mutex<[(sql: String, plan: String)]>([])
        var dialect: SQLDialect { base.dialect }

        init(base: any SQLExecutor) { self.base = base }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            if statement.names(any: [.auditEvents, .auditUIDEvents, .auditTenantEvents]) {
                let explain = dialect == .sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN "
                let rows = try await base.query(.read(explain + statement.sql, statement.binds))
                let plan = try rows.map { try dialect == .sqlite ? $0.string("detail") : $0.string("QUERY PLAN") }.joined(separator: "; ")
                plans.withLock { $0.append((statement.sql, plan)) }
            }
            return try await base.query(statement)
        }
    }

    /// Every listing the console and the API make (tenant: any, the project's or one; account, kind, time bounds,
    /// page: all 144 combinations), then a catch-up and a sweep.
    static func exercise(_ tx: SQLQueries) async throws {
        for n in 1...60 {
            let uid = n.isMultiple(of: 4) ? nil : "u\(n % 3)"
            // Every other event in a tenant, as an origin in it records them.
            let detail: [String: JSONValue] = n.isMultiple(of: 2) ? ["tenantId": .string(n.isMultiple(of: 3) ? "acme-a1b2c" : "globex-d3e4f")] : [:]
            try await tx.appendAuditEvent(
                AuditEvent(
                    at: Instant(millisecondsSince1970: Int64(n) * 1_000), kind: n.isMultiple(of: 7) ? .lockout : .signIn, uid: uid, detail: detail))
        }
        _ = try await tx.indexAuditEvents(through: try await tx.auditIndexHorizon(), limit: 30)
        for tenant in [nil, .default, TenantID(rawValue: "acme-a1b2c")] as [TenantID?] {
            for uid in [nil, "u1"] as [String?] {
                for kind in [nil, .signIn, .lockout] as [AuditKind?] {
                    for since in [nil, 20_000] as [Instant?] {
                        for until in [nil, 50_000] as [Instant?] {
                            for before in [nil, 45] as [Int64?] {
                                let query = AuditQuery(uid: uid, tenant: tenant, kind: kind, since: since, until: until, beforeID: before, limit: 5)
                                _ = try await tx.auditEvents(query)
                            }
                        }
                    }
                }
            }
        }
        _ = try await tx.auditEvents(after: 10, kinds: [.lockout, .signIn], limit: 10)
        _ = try await tx.deleteAuditEvents(before: 5_500)
    }

    /// The plans that read a whole audit table (SQLite `SCAN`, PostgreSQL `Seq Scan`), or that SQLite sorts.
    static func fullReads(_ plans: [(sql: String, plan: String)]) -> [String] {
        plans.filter { _, plan in
            plan.contains("TEMP B-TREE") || plan.contains("Seq Scan on audit_events ") || plan.contains("Seq Scan on audit_uid_events ")
                || plan.contains("Seq Scan on audit_tenant_events ")
                || plan.split(separator: ";").contains { step in
                    let words = step.split(separator: " ")
                    return words.first == "SCAN" && words.count > 1
                        && ["audit_events", "audit_uid_events", "audit_tenant_events", "e", "x"].contains(words[1])
                }
        }.map { "\($0.plan)  ←  \($0.sql)" }
    }

    @Test("SQLite: no listing, catch-up or sweep scans an audit table or sorts")
    func sqlite() async throws {
        let db = try SQLiteDatabase(path: nil)
        defer { db.close() }
        _ = try await Migrations.run(on: db) { try await $0() }
        let recorder = PlanRecorder(base: db)
        try await Self.exercise(SQLQueries(db: recorder))
        let plans = recorder.plans.withLock { $0 }
        #expect(plans.count > 300)
        #expect(plans.contains { $0.plan.contains("audit_uid_events_uid") }, "an account's listing reads the account index")
        #expect(plans.contains { $0.plan.contains("audit_tenant_events_tenant") }, "a tenant's listing reads the tenant index")
        #expect(Self.fullReads(plans).isEmpty, "\(Self.fullReads(plans).joined(separator: "\n"))")
    }

    @Test("PostgreSQL, with sequential scans priced out: every audit statement has an index plan", .enabled(if: Engine.all.contains(.postgres)))
    func postgres() async throws {
        let url = try await freshPostgresDatabase()
        guard let location = PostgresStore.Location(url: url) else { throw TestSetupError(message: "bad database URL") }
        let client = testPostgresClient(location)
        let found = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let plans = try await client.withConnection { connection in
                let db = PostgresExecutor(connection: connection, statements: PostgresStatements(capacity: 0), logger: testLogger())
                try await db.run(.command("SET enable_seqscan = off"))
                let recorder = PlanRecorder(base: db)
                // One transaction, as the store's writes run (the catch-up's horizon locks the log).
                try await db.run(.command("BEGIN"))
                try await Self.exercise(SQLQueries(db: recorder))
                try await db.run(.command("COMMIT"))
                return recorder.plans.withLock { $0 }
            }
            group.cancelAll()
            return plans
        }
        #expect(found.contains { $0.plan.contains("audit_uid_events_uid") }, "an account's listing reads the account index")
        #expect(found.contains { $0.plan.contains("audit_tenant_events_tenant") }, "a tenant's listing reads the tenant index")
        #expect(Self.fullReads(found).isEmpty, "\(Self.fullReads(found).joined(separator: "\n"))")
    }
}

import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Console per tenant (migration 27): operators' tenant limits and import jobs per tenant")
struct ConsoleTenantLimitStoreTests {
    @Test("an operator's tenant limit is stored sorted, changed, cleared; an operator without one may use every tenant", arguments: Engine.all)
    func operatorLimit(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let open = ConsoleOperatorRecord(email: "all@example.com", role: .admin, createdAt: 1)
        let limited = ConsoleOperatorRecord(
            email: "acme@example.com", role: .read, createdAt: 2, tenants: [TenantID(rawValue: "zeta-abcde"), TenantID(rawValue: "acme-x7k2q")])
        try await store.write { tx in
            try await tx.insertConsoleOperator(open)
            try await tx.insertConsoleOperator(limited)
        }
        let readLimited = try #require(try await store.read { try await $0.consoleOperator(email: "acme@example.com") })
        #expect(readLimited.tenants == [TenantID(rawValue: "acme-x7k2q"), TenantID(rawValue: "zeta-abcde")])
        #expect(readLimited.mayUse(TenantID(rawValue: "acme-x7k2q")) && !readLimited.mayUse(.default))
        #expect(!readLimited.mayUse(TenantID(rawValue: "other-abcde")))
        let readOpen = try #require(try await store.read { try await $0.consoleOperator(email: "all@example.com") })
        #expect(readOpen.tenants == nil && readOpen.mayUse(.default) && readOpen.mayUse(TenantID(rawValue: "any-abcde")))

        var changed = readLimited
        changed.tenants = [.default]
        try await store.write { [changed] in try await $0.updateConsoleOperator(changed) }
        let project = try #require(try await store.read { try await $0.consoleOperator(email: "acme@example.com") })
        #expect(project.tenants == [.default] && project.mayUse(.default) && !project.mayUse(TenantID(rawValue: "acme-x7k2q")))
        changed.tenants = nil
        try await store.write { [changed] in try await $0.updateConsoleOperator(changed) }
        #expect(try await store.read { try await $0.consoleOperator(email: "acme@example.com") }?.tenants == nil)
        #expect(try await store.read { try await $0.consoleOperators() }.map(\.email) == ["acme@example.com", "all@example.com"])
        try await store.close()
    }

    @Test("import jobs keep their tenant and are listed per tenant", arguments: Engine.all)
    func importJobsPerTenant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let acme = TenantID(rawValue: "acme-x7k2q")
        try await store.write { tx in
            try await tx.insertImportJob(
                ImportJobRecord(id: "p", operatorEmail: "o@example.com", fileName: "p.json", format: "json", size: 1, startedAt: 1))
            try await tx.insertImportJob(
                ImportJobRecord(id: "a1", operatorEmail: "o@example.com", fileName: "a.json", format: "json", size: 1, startedAt: 2, tenant: acme))
            try await tx.insertImportJob(
                ImportJobRecord(id: "a2", operatorEmail: "o@example.com", fileName: "a.csv", format: "csv", size: 1, startedAt: 3, tenant: acme))
        }
        #expect(try await store.read { try await $0.importJobs(tenant: acme, limit: 10) }.map(\.id) == ["a2", "a1"])
        #expect(try await store.read { try await $0.importJobs(tenant: .default, limit: 10) }.map(\.id) == ["p"])
        #expect(try await store.read { try await $0.importJob(id: "a1") }?.tenant == acme)
        try await store.close()
    }

    @Test("accounts are counted per tenant, the largest first, with the totals", arguments: Engine.all)
    func countsPerTenant(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let layout: [(TenantID, Int)] = [
            (.default, 2), (TenantID(rawValue: "big-aaaaa"), 3), (TenantID(rawValue: "one-bbbbb"), 1),
            (TenantID(rawValue: "two-ccccc"), 2),
        ]
        try await store.write { tx in
            for (tenant, count) in layout {
                for n in 0..<count {
                    try await tx.insertUser(UserRecord(tenant: tenant, localID: "u\(n)", createdAt: 1_000, validSince: Instant(secondsSince1970: 1)))
                }
            }
        }
        let counts = try await store.read { try await $0.userCountsByTenant(limit: 2) }
        #expect(counts.tenants == 4 && counts.users == 8)
        #expect(counts.top.map(\.tenant) == [TenantID(rawValue: "big-aaaaa"), .default] && counts.top.map(\.users) == [3, 2])
        #expect(try await store.read { try await $0.userCountsByTenant(limit: 10) }.top.count == 4)
        try await store.close()
    }

    @Test("version 27 leaves every operator made before it without a limit and every import job in the project's users", arguments: Engine.all)
    func migration(engine: Engine) async throws {
        let location = try await MigrationTests.database(
            engine, through: 26,
            [
                ("INSERT INTO console_operators (email, role, created_at) VALUES ('old@example.com', 'admin', 1)", []),
                (
                    """
                    INSERT INTO import_jobs (id, operator, file, format, size, bytes_read, status, users_read, imported, skipped, failed,
                        report, started_at, heartbeat_at) VALUES ('j', 'old@example.com', 'f.json', 'json', 1, 0, 'done', 0, 0, 0, 0, '{}', 1, 1)
                    """, []
                ),
            ])
        let (store, _) = try await makeStore(engine, location: location)
        let old = try #require(try await store.read { try await $0.consoleOperator(email: "old@example.com") })
        #expect(old.tenants == nil && old.mayUse(.default) && old.mayUse(TenantID(rawValue: "acme-x7k2q")))
        #expect(try await store.read { try await $0.importJob(id: "j") }?.tenant == .default)
        try await store.close()
    }
}

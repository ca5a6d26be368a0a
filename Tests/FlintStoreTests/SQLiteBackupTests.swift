import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Testing

@Suite("SQLite online backups (VACUUM INTO)")
struct SQLiteBackupTests {
    static func user(_ id: String) -> UserRecord {
        UserRecord(localID: id, createdAt: 1, validSince: Instant(secondsSince1970: 1))
    }

    @Test("a copy taken while writes commit holds every write committed before it began, passes the integrity check, and opens as a store")
    func copyUnderWrites() async throws {
        let (store, path) = try await makeStore()
        let copy = path + ".copy"
        defer {
            for file in [path, path + "-wal", path + "-shm", copy, copy + "-wal", copy + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
        }
        for n in 0..<200 { try await store.write { try await $0.insertUser(Self.user("before-\(n)")) } }
        let copied = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                var n = 0
                // Writers keep committing until the copy is done; each write is its own commit.
                while !Task.isCancelled {
                    let id = "during-\(n)"
                    try await store.write { try await $0.insertUser(Self.user(id)) }
                    n += 1
                }
                return n
            }
            try await SQLiteBackup.copy(databaseAt: path, to: copy)
            group.cancelAll()
            return try await group.next() ?? 0
        }
        try await store.close()
        #expect(try await SQLiteBackup.integrityProblems(databaseAt: copy) == [])
        #expect(try await SQLiteBackup.schemaVersion(databaseAt: copy) == StoreSchema.latestVersion)
        let restored = try await SQLiteStore(path: copy, logger: testLogger())
        let count = try await restored.read { try await $0.userCount(tenant: .default) }
        #expect(count >= 200 && count <= 200 + copied)
        for n in [0, 99, 199] {
            #expect(try await restored.read { try await $0.user(tenant: .default, localID: "before-\(n)") } != nil)
        }
        try await restored.close()
    }

    @Test("a damaged file fails the integrity check or cannot be read; a missing one is not created")
    func damagedAndMissing() async throws {
        let (store, path) = try await makeStore()
        defer { for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) } }
        for n in 0..<300 { try await store.write { try await $0.insertUser(Self.user("u-\(n)")) } }
        try await store.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for offset in stride(from: 4096 * 2 + 100, to: min(bytes.count, 4096 * 6), by: 7) { bytes[offset] ^= 0x5A }
        try bytes.write(to: URL(fileURLWithPath: path))
        let problems = try? await SQLiteBackup.integrityProblems(databaseAt: path)
        #expect(problems.map { !$0.isEmpty } ?? true, "an error or findings")
        let missing = path + ".missing"
        await #expect(throws: (any Error).self) { try await SQLiteBackup.schemaVersion(databaseAt: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

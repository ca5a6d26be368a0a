import FlintCore
import FlintTesting
import Foundation
import NIOSSL
import PostgresNIO
import Testing

@testable import FlintStore

@Suite("Migrations: stored values keep their meaning")
struct MigrationTests {
    /// A database at schema version 6 holding one refresh token created at `createdAtSeconds` (the old unit).
    static func version6Database(_ engine: Engine, createdAtSeconds: Int64) async throws -> String {
        let insert = """
            INSERT INTO refresh_tokens (token_hash, local_id, created_at, auth_time, sign_in_provider) VALUES ('t', 'u', ?, ?, 'phone')
            """
        let binds: [SQLValue] = [.integer(createdAtSeconds), .integer(createdAtSeconds)]
        switch engine {
        case .sqlite:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("flint-v6-\(UUID().uuidString).sqlite").path
            let db = try SQLiteDatabase(path: file)
            let applied = try await Migrations.run(on: db, through: 6) { try await $0() }
            #expect(applied == Array(1...6))
            try await db.run(insert, binds)
            db.close()
            return file
        case .postgres:
            let url = try await freshPostgresDatabase()
            guard let location = PostgresStore.Location(url: url) else { throw TestSetupError(message: "bad database URL") }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            let config = PostgresClient.Configuration(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: location.sslMode == "disable" ? .disable : .require(tls))
            let client = PostgresClient(configuration: config, backgroundLogger: testLogger())
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                try await client.withConnection { connection in
                    let db = PostgresExecutor(connection: connection, logger: testLogger())
                    let applied = try await Migrations.run(on: db, through: 6) { try await $0() }
                    #expect(applied == Array(1...6))
                    try await db.run(insert, binds)
                }
                group.cancelAll()
            }
            return url
        }
    }

    @Test("version 7 turns refresh tokens' created_at from seconds into milliseconds, and nothing else", arguments: Engine.all)
    func refreshTokenCreatedAtInMilliseconds(engine: Engine) async throws {
        let location = try await Self.version6Database(engine, createdAtSeconds: 1_800_000_000)
        let (store, _) = try await makeStore(engine, location: location)
        let token = try await store.read { try await $0.refreshToken(hash: "t") }
        #expect(token?.createdAt == 1_800_000_000_000)
        #expect(token?.authTime == Instant(secondsSince1970: 1_800_000_000), "auth_time stays seconds, as the ID token's claim")
        try await store.close()
    }
}

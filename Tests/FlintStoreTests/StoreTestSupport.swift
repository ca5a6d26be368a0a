import FlintStore
import Foundation
import Logging

/// A store on a fresh temporary file (WAL needs a real file).
func makeStore(path: String? = nil) async throws -> (SQLiteStore, String) {
    let file = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("flint-store-\(UUID().uuidString).sqlite").path
    var logger = Logger(label: "store-test")
    logger.logLevel = .warning
    return (try await SQLiteStore(path: file, logger: logger), file)
}

func session(_ id: String, phone: String = "+16505553434", hash: String = "aa", now: Int64 = 1_000_000, ttl: Int64 = 300_000) -> CodeSession {
    CodeSession(id: id, phoneNumber: phone, purpose: "signIn", codeHash: hash, createdAt: now, expiresAt: now + ttl)
}

struct Boom: Error {}

public import FlintCore

/// Out-of-band codes of emailed links. Queries.
public protocol OobCodesReads: Sendable {
    /// An oob code by the SHA-256 (hex) of its value (unique across tenants); the record names its tenant.
    func oobCode(hash: String) async throws -> OobCodeRecord?
}

/// Out-of-band codes of emailed links. Writes, inside a transaction.
public protocol OobCodesWrites: OobCodesReads {
    /// Stores a new oob code.
    func insertOobCode(_ code: OobCodeRecord) async throws
    /// Uses an oob code of `requestType` atomically: exactly one of concurrent callers gets ``OobCodeUse/used(_:)``.
    func useOobCode(hash: String, requestType: OobCodeKind, now: Instant) async throws -> OobCodeUse
    /// Deletes oob codes that expired before `cutoff`; returns how many.
    func deleteOobCodes(expiredBefore cutoff: Instant) async throws -> Int
}

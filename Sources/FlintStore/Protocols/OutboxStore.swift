public import FlintCore

/// The delivery outbox of SMS and email, with its leases and retention. Queries.
public protocol OutboxReads: Sendable {
    /// Email outbox records whose oob code is unused and unexpired at `now`, oldest first (the emulator's
    /// `oobCodes` listing).
    func pendingOobMessages(now: Instant) async throws -> [OutboxMessage]
    /// Outbox records waiting for delivery at `now`: queued, or claimed by a node whose lease ran out.
    func dueOutbox(now: Instant, limit: Int) async throws -> [Int64]
    /// The outbox, oldest first.
    func outbox(limit: Int) async throws -> [OutboxMessage]
    /// The records `filter` matches, newest first (by sequence), only those before the sequence `before` when given:
    /// keyset pages of at most `limit`.
    func outbox(_ filter: OutboxFilter, before: Int64?, limit: Int) async throws -> [OutboxMessage]
    /// How many records wait for delivery (`queued`) or are being handed over (`sending`), by channel and status.
    func outboxBacklog() async throws -> [OutboxBacklog]
}

/// The delivery outbox of SMS and email, with its leases and retention. Writes, inside a transaction.
public protocol OutboxWrites: OutboxReads {
    /// Appends a message to the outbox and returns its sequence number.
    @discardableResult
    func appendOutbox(_ message: OutboxMessage) async throws -> Int64
    /// Appends a code's text (its `sessionID` set) without reading anything back, so that on PostgreSQL it can
    /// ride on the send's next statement; the record is found again by its session (``finishCodeText(sessionID:status:detail:redact:)``).
    func appendCodeText(_ message: OutboxMessage) async throws
    /// Records the hand-over outcome of code session `sessionID`'s text, as ``finishOutbox(sequence:status:detail:redact:)``.
    func finishCodeText(sessionID: String, status: OutboxStatus, detail: String?, redact: Bool) async throws
    /// Claims a queued (or abandoned) record for delivery until `leaseUntil` and counts the attempt; `nil` when
    /// another node holds it or it is done.
    func claimOutbox(sequence: Int64, now: Instant, leaseUntil: Instant) async throws -> OutboxMessage?
    /// Records a delivery outcome (`sent`, `failed`, or `queued` to retry later). `redact` drops the body, link and
    /// code once they are no longer needed.
    func finishOutbox(sequence: Int64, status: OutboxStatus, detail: String?, redact: Bool) async throws
    /// Deletes outbox records created before `cutoff` that are done with: `sent` or `failed`, or a text whose
    /// hand-over never reported back (`sending`, no lease). Dev-outbox records and email awaiting delivery stay.
    /// - Returns: how many were deleted.
    func deleteOutbox(finishedBefore cutoff: Instant) async throws -> Int
}

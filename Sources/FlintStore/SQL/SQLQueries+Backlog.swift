/// The outbox's undelivered records counted for `/metrics` (through the `outbox_status` index).
extension SQLQueries {
    func outboxBacklog() async throws -> [OutboxBacklog] {
        try await db.query(
            .read(
                "SELECT channel, status, COUNT(*) AS n FROM outbox WHERE status IN ('queued', 'sending') GROUP BY channel, status ORDER BY channel, status",
                from: .outbox)
        ).map { row in

            OutboxBacklog(
                channel: OutboxChannel(rawValue: try row.string("channel")), status: OutboxStatus(rawValue: try row.string("status")),
                count: Int(try row.int64("n")))
        }
    }
}

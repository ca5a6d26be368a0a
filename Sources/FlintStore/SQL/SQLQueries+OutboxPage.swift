/// The outbox newest first, in keyset pages on its sequence (the console's deliveries page).
extension SQLQueries {
    func outbox(_ query: OutboxFilter, before: Int64?, limit: Int) async throws -> [OutboxMessage] {
        var filter = SQLFilter()
        filter.add("o.channel = ?", query.channel.map { .text($0.rawValue) })
        filter.add("o.status = ?", query.status.map { .text($0.rawValue) })
        filter.add("o.recipient = ?", query.recipient.map(SQLValue.text))
        filter.add("o.seq < ?", before.map(SQLValue.integer))
        filter.binds.append(.integer(Int64(limit)))
        return try await db.query(
            .read("SELECT \(Self.outboxColumns) FROM outbox o \(filter.clause) ORDER BY o.seq DESC LIMIT ?", filter.binds, from: .outbox)
        )

        .map(outboxMessage(from:))
    }
}

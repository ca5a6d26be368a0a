/// The outbox newest first, in keyset pages on its sequence (the console's deliveries page).
extension SQLQueries {
    func outbox(_ filter: OutboxFilter, before: Int64?, limit: Int) async throws -> [OutboxMessage] {
        var conditions: [String] = []
        var binds: [SQLValue] = []
        if let channel = filter.channel {
            conditions.append("o.channel = ?")
            binds.append(.text(channel.rawValue))
        }
        if let status = filter.status {
            conditions.append("o.status = ?")
            binds.append(.text(status.rawValue))
        }
        if let recipient = filter.recipient {
            conditions.append("o.recipient = ?")
            binds.append(.text(recipient))
        }
        if let before {
            conditions.append("o.seq < ?")
            binds.append(.integer(before))
        }
        binds.append(.integer(Int64(limit)))
        let filtered = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await db.query("SELECT \(Self.outboxColumns) FROM outbox o \(filtered) ORDER BY o.seq DESC LIMIT ?", binds)
            .map(outboxMessage(from:))
    }
}

import FlintCore

/// Statements of the console's import jobs (migration 26), for every SQL-backed store: one row per job, read by its ID
/// or newest first, its progress written only while it runs.
extension UserImportWrites where Self: SQLBacked {
    private static var jobColumns: String {
        """
        id, operator, file, format, size, bytes_read, status, users_read, imported, skipped, failed, report, started_at, heartbeat_at,
        finished_at, tenant_id
        """
    }

    private func importJob(from row: SQLRow) throws -> ImportJobRecord {
        ImportJobRecord(
            id: try row.string("id"), operatorEmail: try row.string("operator"), fileName: try row.string("file"), format: try row.string("format"),
            size: try row.int64("size"), offset: try row.int64("bytes_read"), status: ImportJobStatus(rawValue: try row.string("status")),
            read: try row.int64("users_read"), imported: try row.int64("imported"), skipped: try row.int64("skipped"),
            failed: try row.int64("failed"), report: try JSONValue(parsing: try row.string("report").utf8), startedAt: try row.instant("started_at"),
            heartbeatAt: try row.instant("heartbeat_at"), finishedAt: try row.optionalInstant("finished_at"),
            tenant: TenantID(rawValue: try row.string("tenant_id")))
    }

    /// The report as stored.
    private static func text(_ report: JSONValue) -> SQLValue { .text(String(decoding: report.serialized(), as: UTF8.self)) }

    func importJob(id: String) async throws -> ImportJobRecord? {
        try await db.first(.read("SELECT \(Self.jobColumns) FROM import_jobs WHERE id = ?", [.text(id)], from: .importJobs)).map(importJob(from:))
    }

    func importJobs(tenant: TenantID, limit: Int) async throws -> [ImportJobRecord] {
        try await db.query(
            .read(
                "SELECT \(Self.jobColumns) FROM import_jobs WHERE tenant_id = ? ORDER BY started_at DESC, id LIMIT ?",
                [.text(tenant.rawValue), .integer(Int64(limit))], from: .importJobs)
        ).map(importJob(from:))
    }

    func insertImportJob(_ job: ImportJobRecord) async throws {
        try await db.run(
            .write(
                "INSERT INTO import_jobs (\(Self.jobColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(job.id), .text(job.operatorEmail), .text(job.fileName), .text(job.format), .integer(job.size), .integer(job.offset),
                    .text(job.status.rawValue), .integer(job.read), .integer(job.imported), .integer(job.skipped), .integer(job.failed),
                    Self.text(job.report), .instant(job.startedAt), .instant(job.heartbeatAt), job.finishedAt.sql, .text(job.tenant.rawValue),
                ], into: .importJobs))
    }

    func updateImportJob(_ job: ImportJobRecord) async throws -> Bool {
        try await !db.query(
            .write(
                """
                UPDATE import_jobs SET bytes_read = ?, status = ?, users_read = ?, imported = ?, skipped = ?, failed = ?, report = ?,
                    heartbeat_at = ?, finished_at = ? WHERE id = ? AND status = ? RETURNING id
                """,
                [
                    .integer(job.offset), .text(job.status.rawValue), .integer(job.read), .integer(job.imported), .integer(job.skipped),
                    .integer(job.failed), Self.text(job.report), .instant(job.heartbeatAt), job.finishedAt.sql, .text(job.id),
                    .text(ImportJobStatus.running.rawValue),
                ], into: .importJobs)
        ).isEmpty
    }

    func interruptImportJobs(heartbeatBefore: Instant) async throws -> Int {
        try await db.query(
            .write(
                "UPDATE import_jobs SET status = ?, finished_at = heartbeat_at WHERE status = ? AND heartbeat_at < ? RETURNING id",
                [.text(ImportJobStatus.interrupted.rawValue), .text(ImportJobStatus.running.rawValue), .instant(heartbeatBefore)], into: .importJobs)
        ).count
    }

    func deleteImportJobs(startedBefore cutoff: Instant) async throws -> Int {
        try await db.query(
            .write(
                "DELETE FROM import_jobs WHERE started_at < ? AND status <> ? RETURNING id",
                [.instant(cutoff), .text(ImportJobStatus.running.rawValue)], into: .importJobs)
        ).count
    }
}

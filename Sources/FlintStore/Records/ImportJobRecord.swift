public import FlintCore

/// Where a console import of users is (migration 26's `import_jobs.status`), stored as its raw text.
public struct ImportJobStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A status from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Its node is reading and writing the file.
    public static let running = ImportJobStatus(rawValue: "running")
    /// The file was read to its end (or to where it broke off).
    public static let done = ImportJobStatus(rawValue: "done")
    /// A store error stopped it.
    public static let failed = ImportJobStatus(rawValue: "failed")
    /// Its node stopped (shut down, or went silent) before the end.
    public static let interrupted = ImportJobStatus(rawValue: "interrupted")

    public var description: String { rawValue }
}

/// A console import of users (migration 26's `import_jobs`), kept in the store so that every node sharing it shows the
/// job's page, and a job whose node stopped is seen as interrupted. Its node writes its progress once per batch of
/// users, which also shows it is alive (``heartbeatAt``).
public struct ImportJobRecord: Sendable, Equatable {
    /// Its random ID (the page's address).
    public var id: String
    /// The console operator who sent the file.
    public var operatorEmail: String
    /// The uploaded file's name.
    public var fileName: String
    /// `json` or `csv`.
    public var format: String
    /// The file's size in bytes.
    public var size: Int64
    /// Bytes read so far.
    public var offset: Int64
    public var status: ImportJobStatus
    /// Users read, imported, skipped as already stored, and refused.
    public var read: Int64
    public var imported: Int64
    public var skipped: Int64
    public var failed: Int64
    /// The refused rows and what stopped the import, as the console writes them (a JSON object).
    public var report: JSONValue
    public var startedAt: Instant
    /// The job's latest progress write: a running job silent for long has lost its node.
    public var heartbeatAt: Instant
    public var finishedAt: Instant?
    /// The tenant the users are imported into (migration 27; ``TenantID/default`` for the project's own).
    public var tenant: TenantID

    /// Creates a job.
    public init(
        id: String, operatorEmail: String, fileName: String, format: String, size: Int64, offset: Int64 = 0, status: ImportJobStatus = .running,
        read: Int64 = 0, imported: Int64 = 0, skipped: Int64 = 0, failed: Int64 = 0, report: JSONValue = .object([:]), startedAt: Instant,
        heartbeatAt: Instant? = nil, finishedAt: Instant? = nil, tenant: TenantID = .default
    ) {
        (self.id, self.operatorEmail, self.fileName, self.format, self.size, self.offset) = (id, operatorEmail, fileName, format, size, offset)
        (self.status, self.read, self.imported, self.skipped, self.failed, self.report) = (status, read, imported, skipped, failed, report)
        (self.startedAt, self.heartbeatAt, self.finishedAt) = (startedAt, heartbeatAt ?? startedAt, finishedAt)
        self.tenant = tenant
    }

    /// Its status as shown: a running job whose node has written nothing since before `staleBefore` is interrupted (its
    /// node crashed or was cut off), whatever the row still says.
    public func status(staleBefore: Instant) -> ImportJobStatus {
        status == .running && heartbeatAt < staleBefore ? .interrupted : status
    }
}

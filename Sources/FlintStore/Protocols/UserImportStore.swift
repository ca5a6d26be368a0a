public import FlintCore

/// An account with its second factors, federated identities and passkeys, as bulk import writes it and export reads
/// it.
public struct UserAndFactors: Sendable, Equatable {
    /// The users row.
    public var user: UserRecord
    /// Its second factors, oldest first.
    public var enrollments: [MFAEnrollmentRecord]
    /// Its federated identities, by provider and raw ID.
    public var identities: [FederatedIdentityRecord]
    /// Its passkeys, oldest first.
    public var passkeys: [PasskeyRecord]

    /// Creates the account.
    public init(
        user: UserRecord, enrollments: [MFAEnrollmentRecord] = [], identities: [FederatedIdentityRecord] = [], passkeys: [PasskeyRecord] = []
    ) {
        self.user = user
        self.enrollments = enrollments
        self.identities = identities
        self.passkeys = passkeys
    }
}

/// What an import batch would clash with: an existing account holding one of the batch's IDs, emails, numbers or
/// federated identities, or a second factor holding one of its enrolment IDs.
public struct ImportClashes: Sendable, Equatable {
    /// Existing accounts by ID: their revocation generation (an overwritten account's next one continues from it).
    public var generations: [String: Int64] = [:]
    /// Owners of the batch's emails (lower-cased), by email.
    public var emailOwners: [String: String] = [:]
    /// Owners of the batch's phone numbers, by number.
    public var phoneOwners: [String: String] = [:]
    /// Owners of the batch's enrolment IDs, by enrolment ID.
    public var enrollmentOwners: [String: String] = [:]
    /// Owners of the batch's federated identities, by provider and raw ID.
    public var identityOwners: [FederatedIdentityKey: String] = [:]

    /// No clash.
    public init() {}
}

/// Bulk import and export of accounts (`accounts:batchCreate`, `flint users import|export`). Queries.
public protocol UserImportReads: Sendable {
    /// The existing accounts and federated identities of `tenant`, and second factors (enrolment IDs are unique across
    /// tenants), that hold any of these values, in a few indexed queries.
    func importClashes(
        tenant: TenantID, localIDs: [String], emails: [String], phoneNumbers: [String], enrollmentIDs: [String], identities: [FederatedIdentityKey]
    ) async throws -> ImportClashes
    /// Up to `limit` accounts with their second factors and federated identities, in local-ID order, after `localID`
    /// (from the start when `nil`): keyset pages for export.
    func exportPage(tenant: TenantID, after localID: String?, limit: Int) async throws -> [UserAndFactors]
    /// The console's import job `id` (migration 26).
    func importJob(id: String) async throws -> ImportJobRecord?
    /// The newest `limit` import jobs into `tenant`, newest first.
    func importJobs(tenant: TenantID, limit: Int) async throws -> [ImportJobRecord]
}

/// Bulk import and export of accounts. Writes, inside a transaction.
public protocol UserImportWrites: UserImportReads {
    /// Inserts accounts with their second factors, federated identities (multi-row statements) and passkeys. The caller has
    /// checked for clashes (``UserImportReads/importClashes(tenant:localIDs:emails:phoneNumbers:enrollmentIDs:identities:)``); each record
    /// names its tenant;
    /// a clash found anyway (a concurrent writer) throws ``StoreError/conflict(_:)``, so the transaction is undone and may
    /// run again.
    func insertImportedUsers(_ accounts: [UserAndFactors]) async throws
    /// Stores a new import job.
    func insertImportJob(_ job: ImportJobRecord) async throws
    /// Writes a running job's progress or end (its counts, offset, report, status, heartbeat and end): only while the
    /// stored job is running, so a job already marked interrupted stays so.
    /// - Returns: whether the stored job was running (and is now `job`).
    func updateImportJob(_ job: ImportJobRecord) async throws -> Bool
    /// Marks interrupted the running jobs whose latest progress is older than `heartbeatBefore`, finished at that
    /// progress; returns how many.
    func interruptImportJobs(heartbeatBefore: Instant) async throws -> Int
    /// Deletes the jobs started before `cutoff` that are not running; returns how many.
    func deleteImportJobs(startedBefore cutoff: Instant) async throws -> Int
}

extension UserImportReads {
    /// ``importClashes(tenant:localIDs:emails:phoneNumbers:enrollmentIDs:identities:)`` for a batch without federated
    /// identities.
    public func importClashes(
        tenant: TenantID, localIDs: [String], emails: [String], phoneNumbers: [String], enrollmentIDs: [String]
    ) async throws -> ImportClashes {
        try await importClashes(
            tenant: tenant, localIDs: localIDs, emails: emails, phoneNumbers: phoneNumbers, enrollmentIDs: enrollmentIDs, identities: [])
    }
}

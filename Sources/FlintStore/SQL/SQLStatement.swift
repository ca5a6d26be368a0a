/// A table of Flint's schema, as statements declare what they touch.
struct SQLTable: RawRepresentable, Hashable, Sendable {
    /// The table's name in the schema.
    let rawValue: String

    init(rawValue: String) { self.rawValue = rawValue }

    static let accountLocks = SQLTable(rawValue: "account_locks")
    static let adminCredentials = SQLTable(rawValue: "admin_credentials")
    static let auditEvents = SQLTable(rawValue: "audit_events")
    static let auditUIDEvents = SQLTable(rawValue: "audit_uid_events")
    static let auditUIDProgress = SQLTable(rawValue: "audit_uid_progress")
    static let auditTenantEvents = SQLTable(rawValue: "audit_tenant_events")
    static let codeSessions = SQLTable(rawValue: "code_sessions")
    static let consoleOperators = SQLTable(rawValue: "console_operators")
    static let consoleSessions = SQLTable(rawValue: "console_sessions")
    static let federatedIdentities = SQLTable(rawValue: "federated_identities")
    static let importJobs = SQLTable(rawValue: "import_jobs")
    static let mfaEnrollments = SQLTable(rawValue: "mfa_enrollments")
    static let mfaRecoveryCodes = SQLTable(rawValue: "mfa_recovery_codes")
    static let oobCodes = SQLTable(rawValue: "oob_codes")
    static let outbox = SQLTable(rawValue: "outbox")
    static let passkeys = SQLTable(rawValue: "passkeys")
    static let projectConfig = SQLTable(rawValue: "project_config")
    static let rateCounters = SQLTable(rawValue: "rate_counters")
    static let samlSPKeys = SQLTable(rawValue: "saml_sp_keys")
    static let refreshTokens = SQLTable(rawValue: "refresh_tokens")
    static let schema = SQLTable(rawValue: "flint_schema")
    static let secrets = SQLTable(rawValue: "flint_secrets")
    static let serviceAccounts = SQLTable(rawValue: "service_accounts")
    static let signingKeys = SQLTable(rawValue: "signing_keys")
    static let stats = SQLTable(rawValue: "stats")
    static let tenants = SQLTable(rawValue: "tenants")
    static let users = SQLTable(rawValue: "users")
    static let webhookDeliveries = SQLTable(rawValue: "webhook_deliveries")
    static let webhookSubscriptions = SQLTable(rawValue: "webhook_subscriptions")
}

/// One statement as the query layer writes it: its text and values, and what it does, declared where the text is
/// written, so that an executor chooses its round trips (``PostgresTransaction``) without reading the text.
///
/// The text is `WITH` clauses, if any, then the body; placeholders are `?`, bound in the text's order.
struct SQLStatement: Sendable {
    /// What a statement does to the tables it names.
    enum Effect: Sendable, Equatable {
        /// Reads and locks nothing: a `SELECT` without `FOR UPDATE`.
        case read
        /// Reads and locks rows for the transaction (`SELECT … FOR UPDATE`).
        case lock
        /// Writes one table (`INSERT`, `UPDATE`, `DELETE`, or a body reading what its `WITH` clause wrote).
        case write(SQLTable)
        /// Anything else (`BEGIN`, `COMMIT`, DDL): names no table of a transaction's statements, and is never prepared.
        case command
    }

    /// The common table expressions the text starts with, each `name AS (…)`, in order.
    let clauses: [String]
    /// The text after the `WITH` clauses: the whole text of a statement without them.
    let body: String
    /// The values of the placeholders, in the text's order (the clauses' first).
    let binds: [SQLValue]
    /// Every table the text names, the one it writes too.
    let tables: Set<SQLTable>
    let effect: Effect
    /// Whether it closes its transaction: the last, atomic by itself, its refusals raised as errors
    /// (``SQLExecutor/query(_:)``).
    private(set) var closes = false
    /// The whole text.
    let sql: String
    /// The most placeholders of one statement it was put together from (``carrying(_:)``): a statement generated from
    /// a list (a multi-row insert, an `IN` of many IDs) has many; a sign-in's writes carried by one statement each
    /// have a handful, however many they are together.
    private(set) var widestPart: Int

    /// A statement of `clauses` (each `name AS (…)`) and `body`, naming `tables` (the written one included).
    init(with clauses: [String] = [], _ body: String, _ binds: [SQLValue], tables: Set<SQLTable>, effect: Effect) {
        self.clauses = clauses
        self.body = body
        self.binds = binds
        self.effect = effect
        if case .write(let table) = effect { self.tables = tables.union([table]) } else { self.tables = tables }
        self.sql = clauses.isEmpty ? body : "WITH " + clauses.joined(separator: ", ") + " " + body
        self.widestPart = binds.count
    }

    /// A `SELECT` of `tables` that locks nothing.
    static func read(_ sql: String, _ binds: [SQLValue] = [], from tables: SQLTable...) -> SQLStatement {
        SQLStatement(sql, binds, tables: Set(tables), effect: .read)
    }

    /// A `SELECT … FOR UPDATE` of `tables`.
    static func lockingRead(_ sql: String, _ binds: [SQLValue] = [], from tables: SQLTable...) -> SQLStatement {
        SQLStatement(sql, binds, tables: Set(tables), effect: .lock)
    }

    /// An `INSERT`, `UPDATE` or `DELETE` of `table` that names the tables `reading` too (in subqueries, joins).
    static func write(_ sql: String, _ binds: [SQLValue] = [], into table: SQLTable, reading: SQLTable...) -> SQLStatement {
        SQLStatement(sql, binds, tables: Set(reading), effect: .write(table))
    }

    /// A statement outside the schema's tables: a transaction's `BEGIN` or `COMMIT`, a migration's DDL.
    static func command(_ sql: String, _ binds: [SQLValue] = []) -> SQLStatement {
        SQLStatement(sql, binds, tables: [], effect: .command)
    }

    /// The statement as its transaction's closing one.
    var closing: SQLStatement {
        var statement = self
        statement.closes = true
        return statement
    }

    /// The table it writes when it is one plain write without `WITH` clauses: one that can wait and go as a `WITH`
    /// clause of another statement, or carry waiting ones as its own.
    var plainWriteTarget: SQLTable? {
        guard clauses.isEmpty, case .write(let table) = effect else { return nil }
        return table
    }

    /// Whether it names one of `tables`.
    func names(any tables: Set<SQLTable>) -> Bool { !self.tables.isDisjoint(with: tables) }

    /// The statement with `writes` (plain writes, see ``plainWriteTarget``) as data-modifying `WITH` clauses in front
    /// of its own: one statement whose answer is this one's.
    func carrying(_ writes: some Collection<SQLStatement>) -> SQLStatement {
        guard !writes.isEmpty else { return self }
        var combined = SQLStatement(
            with: writes.enumerated().map { "flint_deferred_\($0.offset) AS (\($0.element.body))" } + clauses, body,
            writes.flatMap(\.binds) + binds, tables: writes.reduce(tables) { $0.union($1.tables) }, effect: effect)
        combined.closes = closes
        combined.widestPart = writes.reduce(widestPart) { max($0, $1.widestPart) }
        return combined
    }
}

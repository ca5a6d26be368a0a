/// The versioned schema, shared by every SQL engine. A migration is a list of statements; where engines
/// differ (auto-increment keys), the statement is chosen by dialect. Append new versions; never edit old ones.
enum Migrations {
    struct Migration: Sendable {
        let version: Int
        let statements: @Sendable (_ dialect: SQLDialect) -> [String]
    }

    static let all: [Migration] = [
        Migration(version: 1) { dialect in
            let sequenceColumn = dialect == .postgresql ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT"
            return [
                "CREATE TABLE flint_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
                """
                CREATE TABLE signing_keys (kid TEXT PRIMARY KEY, private_key_pem TEXT NOT NULL, certificate_pem TEXT NOT NULL,
                    created_at BIGINT NOT NULL, retired_at BIGINT)
                """,
                "CREATE TABLE project_config (id INTEGER PRIMARY KEY, document TEXT NOT NULL)",
                """
                CREATE TABLE users (local_id TEXT PRIMARY KEY, phone_number TEXT UNIQUE, email TEXT UNIQUE,
                    email_verified BOOLEAN NOT NULL DEFAULT FALSE, display_name TEXT, photo_url TEXT,
                    disabled BOOLEAN NOT NULL DEFAULT FALSE, created_at BIGINT NOT NULL, last_login_at BIGINT,
                    last_refresh_at BIGINT, valid_since BIGINT NOT NULL, custom_attributes TEXT)
                """,
                """
                CREATE TABLE code_sessions (id TEXT PRIMARY KEY, live_key TEXT UNIQUE, phone_number TEXT NOT NULL,
                    purpose TEXT NOT NULL, code_hash TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0, consumed_at BIGINT)
                """,
                "CREATE INDEX code_sessions_expires_at ON code_sessions (expires_at)",
                """
                CREATE TABLE refresh_tokens (token_hash TEXT PRIMARY KEY, local_id TEXT NOT NULL, created_at BIGINT NOT NULL,
                    auth_time BIGINT NOT NULL, sign_in_provider TEXT NOT NULL, second_factor TEXT, second_factor_id TEXT)
                """,
                "CREATE INDEX refresh_tokens_local_id ON refresh_tokens (local_id)",
                """
                CREATE TABLE outbox (\(sequenceColumn), channel TEXT NOT NULL, recipient TEXT NOT NULL, body TEXT NOT NULL,
                    locale TEXT NOT NULL, created_at BIGINT NOT NULL, code TEXT, session_id TEXT)
                """,
            ]
        },
        Migration(version: 2) { _ in
            [
                "CREATE INDEX outbox_session_id ON outbox (session_id)",
                "CREATE INDEX code_sessions_phone_number ON code_sessions (phone_number)",
            ]
        },
        Migration(version: 3) { _ in
            [
                """
                CREATE TABLE rate_counters (counter_key TEXT NOT NULL, window_start BIGINT NOT NULL, hits BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL, PRIMARY KEY (counter_key, window_start))
                """,
                "CREATE INDEX rate_counters_expires_at ON rate_counters (expires_at)",
            ]
        },
        // Email link and password sign-in: password hashes, oob codes, and outbox records that track delivery.
        Migration(version: 4) { _ in
            [
                "ALTER TABLE users ADD COLUMN password_hash TEXT",
                "ALTER TABLE users ADD COLUMN password_updated_at BIGINT",
                "ALTER TABLE users ADD COLUMN email_link_sign_in BOOLEAN NOT NULL DEFAULT FALSE",
                """
                CREATE TABLE oob_codes (code_hash TEXT PRIMARY KEY, request_type TEXT NOT NULL, email TEXT NOT NULL, local_id TEXT,
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT, continue_url TEXT)
                """,
                "CREATE INDEX oob_codes_expires_at ON oob_codes (expires_at)",
                "ALTER TABLE outbox ADD COLUMN subject TEXT",
                "ALTER TABLE outbox ADD COLUMN html TEXT",
                "ALTER TABLE outbox ADD COLUMN link TEXT",
                "ALTER TABLE outbox ADD COLUMN request_type TEXT",
                "ALTER TABLE outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'dev'",
                "ALTER TABLE outbox ADD COLUMN status_detail TEXT",
                "ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE outbox ADD COLUMN claimed_until BIGINT",
                "CREATE INDEX outbox_status ON outbox (status, claimed_until)",
            ]
        },
        // Multi-factor authentication: enrolled second factors and one-time recovery codes.
        Migration(version: 5) { _ in
            [
                """
                CREATE TABLE mfa_enrollments (enrollment_id TEXT PRIMARY KEY, local_id TEXT NOT NULL, factor TEXT NOT NULL,
                    display_name TEXT, phone_number TEXT, totp_secret TEXT, enrolled_at BIGINT NOT NULL, last_totp_step BIGINT)
                """,
                "CREATE INDEX mfa_enrollments_local_id ON mfa_enrollments (local_id)",
                "CREATE UNIQUE INDEX mfa_enrollments_phone ON mfa_enrollments (local_id, phone_number)",
                """
                CREATE TABLE mfa_recovery_codes (code_hash TEXT PRIMARY KEY, local_id TEXT NOT NULL, created_at BIGINT NOT NULL,
                    used_at BIGINT)
                """,
                "CREATE INDEX mfa_recovery_codes_local_id ON mfa_recovery_codes (local_id)",
            ]
        },
        // Exact revocation: a counter bumped by every revocation, carried by the ID tokens minted under it, so a
        // token minted earlier in the same second as a revocation is refused too.
        Migration(version: 6) { _ in
            ["ALTER TABLE users ADD COLUMN revocation_generation BIGINT NOT NULL DEFAULT 0"]
        },
        // One unit for stored instants: refresh tokens' `created_at` was seconds, every other instant milliseconds.
        Migration(version: 7) { _ in
            ["UPDATE refresh_tokens SET created_at = created_at * 1000"]
        },
        // Custom tokens and operators: service-account keys that sign custom tokens, named admin credentials (by the
        // hash of their secret; a name is unique among unrevoked ones), and the developer claims a custom-token
        // session keeps in every ID token refreshed from it.
        Migration(version: 8) { _ in
            [
                """
                CREATE TABLE service_accounts (key_id TEXT PRIMARY KEY, name TEXT NOT NULL, client_email TEXT NOT NULL,
                    client_id TEXT NOT NULL, public_key_pem TEXT NOT NULL, created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE UNIQUE INDEX service_accounts_active_name ON service_accounts (name) WHERE revoked_at IS NULL",
                "CREATE INDEX service_accounts_client_email ON service_accounts (client_email)",
                """
                CREATE TABLE admin_credentials (secret_hash TEXT PRIMARY KEY, name TEXT NOT NULL, scope TEXT NOT NULL,
                    created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE UNIQUE INDEX admin_credentials_active_name ON admin_credentials (name) WHERE revoked_at IS NULL",
                "ALTER TABLE refresh_tokens ADD COLUMN developer_claims TEXT",
            ]
        },
        // The audit log of security events (sign-ins, lockouts, credential and config changes, operator actions),
        // listed newest first by account, kind and time, and swept after its retention.
        Migration(version: 9) { dialect in
            let idColumn = dialect == .postgresql ? "id BIGSERIAL PRIMARY KEY" : "id INTEGER PRIMARY KEY AUTOINCREMENT"
            return [
                "CREATE TABLE audit_events (\(idColumn), at BIGINT NOT NULL, kind TEXT NOT NULL, uid TEXT, ip TEXT, actor TEXT, detail TEXT NOT NULL)",
                "CREATE INDEX audit_events_at ON audit_events (at, id)",
                "CREATE INDEX audit_events_uid ON audit_events (uid, at, id)",
                "CREATE INDEX audit_events_kind ON audit_events (kind, at, id)",
            ]
        },
        // The web console: its operators (password hash, sealed TOTP secret, one-time setup token by its hash) and their
        // sessions (by the hash of the cookie's token).
        Migration(version: 10) { _ in
            [
                """
                CREATE TABLE console_operators (email TEXT PRIMARY KEY, role TEXT NOT NULL, password_hash TEXT, totp_secret TEXT,
                    last_totp_step BIGINT, setup_token_hash TEXT UNIQUE, setup_expires_at BIGINT, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE console_sessions (token_hash TEXT PRIMARY KEY, email TEXT NOT NULL, stage TEXT NOT NULL,
                    created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL)
                """,
                "CREATE INDEX console_sessions_email ON console_sessions (email)",
            ]
        },
        // Federated identities (imported or linked `providerUserInfo` entries other than `password` and `phone`): a
        // provider's raw ID names one account, found by it (`federatedUserId`), by account, and by the provider's email.
        Migration(version: 11) { _ in
            [
                """
                CREATE TABLE federated_identities (provider_id TEXT NOT NULL, raw_id TEXT NOT NULL, local_id TEXT NOT NULL, email TEXT,
                    display_name TEXT, photo_url TEXT, phone_number TEXT, screen_name TEXT, PRIMARY KEY (provider_id, raw_id))
                """,
                "CREATE INDEX federated_identities_local_id ON federated_identities (local_id)",
                "CREATE INDEX federated_identities_email ON federated_identities (email)",
            ]
        },
        // The console dashboard's counters: events per hour (its start, ms) by metric and label, added to by every node
        // with one upsert per counter, swept after StatsTally.retention; the deliveries page's recipient filter, newest first.
        Migration(version: 12) { _ in
            [
                """
                CREATE TABLE stats (hour BIGINT NOT NULL, metric TEXT NOT NULL, label TEXT NOT NULL, n BIGINT NOT NULL,
                    PRIMARY KEY (hour, metric, label))
                """,
                "CREATE INDEX outbox_recipient ON outbox (recipient, seq)",
            ]
        },
        // The console's users search by prefix: the lower-cased display name, only of accounts that have one (phone-only
        // sign-ups write no entry), and in PostgreSQL the local ID too, both in the "C" collation, so that a prefix is a
        // code-point range whatever the database's collation (SQLite's primary key already compares so).
        Migration(version: 13) { dialect in
            dialect == .postgresql
                ? [
                    #"CREATE INDEX users_display_name_lower ON users ((LOWER(display_name)) COLLATE "C") WHERE display_name IS NOT NULL"#,
                    #"CREATE INDEX users_local_id_c ON users (local_id COLLATE "C")"#,
                ]
                : ["CREATE INDEX users_display_name_lower ON users (LOWER(display_name)) WHERE display_name IS NOT NULL"]
        },
        // Cheaper writes on the sign-in path. The audit log, which a sign-in's transaction appends a `SIGN_IN` event
        // to: listed newest first by its sequence number, so no index on the instant (time filters and the retention
        // sweep find their bounds by bisecting the sequence); the account index holds only events with an account, and
        // the kind index only the rarer kinds (a `SIGN_IN` listing walks the sequence, where most events are
        // sign-ins). In SQLite the audit log and the outbox (written by every code sent) number rows by their rowid
        // without `AUTOINCREMENT`, whose `sqlite_sequence` row cost a page per commit: a number is reused only after
        // every row above it was deleted, which the sweeps (oldest rows first) never do while newer rows remain.
        Migration(version: 14) { dialect in
            let indexes = [
                "CREATE INDEX audit_events_uid ON audit_events (uid, id) WHERE uid IS NOT NULL",
                "CREATE INDEX audit_events_kind ON audit_events (kind, id) WHERE \(AuditLayout.kindIndexCondition)",
            ]
            guard dialect == .sqlite else {
                return ["DROP INDEX audit_events_at", "DROP INDEX audit_events_uid", "DROP INDEX audit_events_kind"] + indexes
            }
            return [
                """
                CREATE TABLE audit_events_v14 (id INTEGER PRIMARY KEY, at BIGINT NOT NULL, kind TEXT NOT NULL, uid TEXT, ip TEXT,
                    actor TEXT, detail TEXT NOT NULL)
                """,
                "INSERT INTO audit_events_v14 (id, at, kind, uid, ip, actor, detail) SELECT id, at, kind, uid, ip, actor, detail FROM audit_events",
                "DROP TABLE audit_events",
                "ALTER TABLE audit_events_v14 RENAME TO audit_events",
                """
                CREATE TABLE outbox_v14 (seq INTEGER PRIMARY KEY, channel TEXT NOT NULL, recipient TEXT NOT NULL, body TEXT NOT NULL,
                    locale TEXT NOT NULL, created_at BIGINT NOT NULL, code TEXT, session_id TEXT, subject TEXT, html TEXT, link TEXT,
                    request_type TEXT, status TEXT NOT NULL DEFAULT 'dev', status_detail TEXT, attempts INTEGER NOT NULL DEFAULT 0,
                    claimed_until BIGINT)
                """,
                """
                INSERT INTO outbox_v14 (seq, channel, recipient, body, locale, created_at, code, session_id, subject, html, link,
                    request_type, status, status_detail, attempts, claimed_until)
                SELECT seq, channel, recipient, body, locale, created_at, code, session_id, subject, html, link, request_type, status,
                    status_detail, attempts, claimed_until FROM outbox
                """,
                "DROP TABLE outbox",
                "ALTER TABLE outbox_v14 RENAME TO outbox",
                "CREATE INDEX outbox_session_id ON outbox (session_id)",
                "CREATE INDEX outbox_status ON outbox (status, claimed_until)",
                "CREATE INDEX outbox_recipient ON outbox (recipient, seq)",
            ] + indexes
        },
        // Passkeys (WebAuthn credentials): a credential ID names one account; an account's are listed by `local_id`.
        Migration(version: 15) { _ in
            [
                """
                CREATE TABLE passkeys (credential_id TEXT PRIMARY KEY, local_id TEXT NOT NULL, public_key TEXT NOT NULL, rp_id TEXT NOT NULL,
                    sign_count BIGINT NOT NULL, name TEXT, transports TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX passkeys_local_id ON passkeys (local_id)",
            ]
        },
        // PostgreSQL: the error a counter reservation raises past its maximum, so that one statement can count, check
        // and refuse (`reserveCounters`); SQLite checks in the store's own code.
        Migration(version: 16) { dialect in
            guard dialect == .postgresql else { return [] }
            return [
                """
                CREATE OR REPLACE FUNCTION flint_past_limit(counter_key TEXT) RETURNS TEXT LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION USING ERRCODE = 'FL001', MESSAGE = counter_key;
                END
                $$
                """
            ]
        },
        // Scheduled key rotation: a key is published from its creation and signs from `activates_at` (a scheduled key
        // waits out the verifiers' key caches); `revoked_at` takes a leaked key out of publication at once. Keys
        // made before this signed from their creation.
        Migration(version: 17) { _ in
            [
                "ALTER TABLE signing_keys ADD COLUMN activates_at BIGINT",
                "UPDATE signing_keys SET activates_at = created_at",
                "ALTER TABLE signing_keys ADD COLUMN revoked_at BIGINT",
            ]
        },
        // Event webhooks: operators' subscriptions, each with a cursor over the audit log's sequence, and one delivery
        // per subscription, audit event and type (the unique key that makes turning events into deliveries idempotent
        // across nodes), claimed with a lease as the outbox's records are. Due deliveries are found by status and time.
        Migration(version: 18) { dialect in
            let sequenceColumn = dialect == .postgresql ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY"
            return [
                """
                CREATE TABLE webhook_subscriptions (id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL,
                    enabled BOOLEAN NOT NULL DEFAULT TRUE, description TEXT, created_at BIGINT NOT NULL, audit_cursor BIGINT NOT NULL)
                """,
                """
                CREATE TABLE webhook_deliveries (\(sequenceColumn), subscription_id TEXT NOT NULL, audit_id BIGINT NOT NULL,
                    event_type TEXT NOT NULL, webhook_id TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL, claimed_until BIGINT, last_error TEXT,
                    last_status INTEGER, created_at BIGINT NOT NULL, last_attempt_at BIGINT,
                    UNIQUE (subscription_id, audit_id, event_type))
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
                "CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, seq)",
            ]
        },
        // Tenants (Identity Platform's multi-tenancy): each its document by ID; listings are keyset pages on the key,
        // in code-point order on both engines (SQLite compares text bytewise; PostgreSQL is told to).
        Migration(version: 19) { dialect in
            let id = dialect == .postgresql ? #"id TEXT COLLATE "C" PRIMARY KEY"# : "id TEXT PRIMARY KEY"
            return ["CREATE TABLE tenants (\(id), document TEXT NOT NULL, created_at BIGINT NOT NULL)"]
        },
        // The console's users list in its orders, each a keyset walk on an index ending in the local ID (in PostgreSQL
        // in the "C" collation, as migration 13's, so both engines order text by code point): the creation time
        // (written once per new account), the last sign-in (moved by every sign-in: a delete and an insert in SQLite,
        // and in PostgreSQL the end of HOT updates for the sign-in's row, so each sign-in writes every users index) and
        // the email (written when one is set or changed). Accounts without a value are a range of the same index.
        Migration(version: 20) { dialect in
            let id = dialect == .postgresql ? #"local_id COLLATE "C""# : "local_id"
            let email = dialect == .postgresql ? #"email COLLATE "C""# : "email"
            return [
                "CREATE INDEX users_created_at ON users (created_at, \(id))",
                "CREATE INDEX users_last_login_at ON users (last_login_at, \(id))",
                "CREATE INDEX users_email_order ON users (\(email), \(id))",
            ]
        },
        // Tenants' users (docs/design/tenants.md): every user-keyed table gets `tenant_id` ('' for the default tenant,
        // where every existing row lands), first in each key and lookup index, so that a lookup stays one equality
        // probe of one index with one more bound value, and an email, number, federated identity or passkey is unique
        // within its tenant. SQLite cannot change a primary key: `users`, `federated_identities` and `passkeys` are
        // rebuilt (`MigrationTenants`).
        Migration(version: 21) { dialect in MigrationTenants.statements(dialect) },
        // Sessions per device: each refresh token's device (a short name), its sign-in's and its latest address, and
        // its latest use (moved at most every ten minutes, or when the address changes). Read with the token on
        // refresh and listed through the account index; no index of their own.
        Migration(version: 22) { _ in
            [
                "ALTER TABLE refresh_tokens ADD COLUMN device TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN first_ip TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN last_ip TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN last_used_at BIGINT",
            ]
        },
        // Accounts locked after failed sign-ins in a row, by the email address the failures named (whether or not an
        // account has it); the count itself is a rate counter. Version 22 is the device sessions'.
        Migration(version: 23) { _ in
            [
                """
                CREATE TABLE account_locks (email TEXT PRIMARY KEY, failures BIGINT NOT NULL, locked_at BIGINT NOT NULL,
                    locked_until BIGINT NOT NULL)
                """
            ]
        },
        // The audit log's account index off the sign-in's transaction (AuditAccountIndex): `audit_events` keeps no
        // index by account, so appending an event writes the table's last page and nothing else on the hot path;
        // `audit_uid_events` (an event's number and account, numbered as the log) is filled after commit, in batches,
        // up to `audit_uid_progress.indexed_through`, and the events after that are found on the log's own key. Every
        // existing event with an account is indexed here, so the index starts caught up.
        Migration(version: 24) { dialect in
            let id = dialect == .postgresql ? "id BIGINT PRIMARY KEY" : "id INTEGER PRIMARY KEY"
            return [
                "CREATE TABLE audit_uid_events (\(id), uid TEXT NOT NULL)",
                "INSERT INTO audit_uid_events (id, uid) SELECT id, uid FROM audit_events WHERE uid IS NOT NULL",
                "CREATE INDEX audit_uid_events_uid ON audit_uid_events (uid, id)",
                "CREATE TABLE audit_uid_progress (indexed_through BIGINT NOT NULL)",
                "INSERT INTO audit_uid_progress (indexed_through) SELECT COALESCE(MAX(id), 0) FROM audit_events",
                "DROP INDEX audit_events_uid",
            ]
        },
        // The account locks per tenant (issue 32): the tenant first in the key, the existing locks in the default
        // tenant. The table is rebuilt (SQLite cannot change a primary key in place; it holds only live locks).
        // Version 24 is the audit layout's.
        Migration(version: 25) { _ in
            [
                """
                CREATE TABLE account_locks_v25 (tenant_id TEXT NOT NULL DEFAULT '', email TEXT NOT NULL, failures BIGINT NOT NULL,
                    locked_at BIGINT NOT NULL, locked_until BIGINT NOT NULL, PRIMARY KEY (tenant_id, email))
                """,
                """
                INSERT INTO account_locks_v25 (tenant_id, email, failures, locked_at, locked_until)
                    SELECT '', email, failures, locked_at, locked_until FROM account_locks
                """,
                "DROP TABLE account_locks",
                "ALTER TABLE account_locks_v25 RENAME TO account_locks",
            ]
        },
        // The console's user imports, so that every node shows a job's page and a job whose node stopped is seen as
        // interrupted: its counts, offset and refused rows (`report`, JSON) written once per batch, with the heartbeat
        // a silent node stops moving; listed newest first and pruned by their start. Versions 24 and 25 are the audit
        // layout's and the tenant scope's.
        Migration(version: 26) { _ in
            [
                """
                CREATE TABLE import_jobs (id TEXT PRIMARY KEY, operator TEXT NOT NULL, file TEXT NOT NULL, format TEXT NOT NULL,
                    size BIGINT NOT NULL, bytes_read BIGINT NOT NULL, status TEXT NOT NULL, users_read BIGINT NOT NULL,
                    imported BIGINT NOT NULL, skipped BIGINT NOT NULL, failed BIGINT NOT NULL, report TEXT NOT NULL,
                    started_at BIGINT NOT NULL, heartbeat_at BIGINT NOT NULL, finished_at BIGINT)
                """,
                "CREATE INDEX import_jobs_started_at ON import_jobs (started_at)",
            ]
        },
        // The console per tenant (issue 32): an operator's tenant limit (`tenants`: a JSON array of tenant IDs, '' the
        // default tenant's; NULL for every tenant), and the tenant each import job imports into (the existing jobs the
        // default tenant's). Jobs are listed per tenant through the start-time index (a node keeps 30 days of them).
        Migration(version: 27) { _ in
            [
                "ALTER TABLE console_operators ADD COLUMN tenants TEXT",
                "ALTER TABLE import_jobs ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
            ]
        },
        // The SAML providers' service-provider keys (issue 32): the RSA key each provider's AuthnRequests are signed with
        // and its certificate (`spConfig.spCertificates`), made once per provider in a transaction so every node signs
        // with the same; the private key sealed with the master key.
        Migration(version: 28) { _ in
            [
                """
                CREATE TABLE saml_sp_keys (tenant_id TEXT NOT NULL, provider_id TEXT NOT NULL, private_key_pem TEXT NOT NULL,
                    certificate_pem TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (tenant_id, provider_id))
                """
            ]
        },
        // SAML SP key rollovers (issue 32): a provider may hold a new key published before it signs and an old one
        // published after it stopped, so a key is known by its creation instant too; `activated_at` says since when
        // it may sign (the existing keys sign since their creation), `retire_at` when it stops being published. First
        // the keys that outlived their provider or tenant (deleted before deletes took them along) go: a key is kept
        // when the project's config (tenant '') or its tenant's document holds its provider in `inboundSamlConfigs`.
        Migration(version: 29) { dialect in
            let holds: (String) -> String =
                dialect == .postgresql
                ? { "jsonb_typeof(\($0)::jsonb -> 'inboundSamlConfigs' -> saml_sp_keys.provider_id) = 'object'" }
                : { "json_type(\($0), '$.inboundSamlConfigs.\"' || saml_sp_keys.provider_id || '\"') = 'object'" }
            return [
                """
                DELETE FROM saml_sp_keys WHERE NOT (
                    (tenant_id = '' AND EXISTS (SELECT 1 FROM project_config WHERE id = 1 AND \(holds("project_config.document"))))
                    OR EXISTS (SELECT 1 FROM tenants WHERE tenants.id = saml_sp_keys.tenant_id AND \(holds("tenants.document"))))
                """,
                """
                CREATE TABLE saml_sp_keys_v29 (tenant_id TEXT NOT NULL, provider_id TEXT NOT NULL, created_at BIGINT NOT NULL,
                    private_key_pem TEXT NOT NULL, certificate_pem TEXT NOT NULL, activated_at BIGINT, retire_at BIGINT,
                    PRIMARY KEY (tenant_id, provider_id, created_at))
                """,
                """
                INSERT INTO saml_sp_keys_v29 (tenant_id, provider_id, created_at, private_key_pem, certificate_pem, activated_at)
                    SELECT tenant_id, provider_id, created_at, private_key_pem, certificate_pem, created_at FROM saml_sp_keys
                """,
                "DROP TABLE saml_sp_keys",
                "ALTER TABLE saml_sp_keys_v29 RENAME TO saml_sp_keys",
            ]
        },
        // Admin credentials per tenant (issue 32): a named admin credential's tenant limit, as an operator's (migration
        // 27): a JSON array of tenant IDs, '' the default tenant's; NULL for every tenant. (No version 30: the branch it
        // was set aside for needed none.)
        Migration(version: 31) { _ in ["ALTER TABLE admin_credentials ADD COLUMN tenants TEXT"] },
        // The audit log's tenant index (issue 32), off the sign-in's transaction as the account index (AuditIndexes+SQL):
        // each event's tenant in `audit_events.tenant_id` ('' the project's, as in every user-keyed table), written by the
        // event's own insert on the table's last page; `audit_tenant_events` (an event's number and tenant, for the
        // events of tenants only) filled after commit by the same catch-up, up to the same `audit_uid_progress`. The
        // existing events take the tenant their detail names (`tenantId`), and those of tenants are indexed here.
        Migration(version: 32) { dialect in
            let id = dialect == .postgresql ? "id BIGINT PRIMARY KEY" : "id INTEGER PRIMARY KEY"
            let named = dialect == .postgresql ? "(detail::jsonb) ->> 'tenantId'" : "json_extract(detail, '$.tenantId')"
            return [
                "ALTER TABLE audit_events ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
                "UPDATE audit_events SET tenant_id = COALESCE(\(named), '') WHERE detail LIKE '%\"tenantId\"%'",
                "CREATE TABLE audit_tenant_events (\(id), tenant_id TEXT NOT NULL)",
                "INSERT INTO audit_tenant_events (id, tenant_id) SELECT id, tenant_id FROM audit_events WHERE tenant_id <> ''",
                "CREATE INDEX audit_tenant_events_tenant ON audit_tenant_events (tenant_id, id)",
            ]
        },
        // A new account's pages (issue 35): the unique email and phone-number indexes hold only the accounts that have
        // one. A phone account's empty email (an email account's empty number) was an entry of its own, one more page
        // in every new account's commit; a lookup by `= ?` implies a value, so both engines still probe them.
        Migration(version: 33) { _ in
            [
                "DROP INDEX users_email",
                "CREATE UNIQUE INDEX users_email ON users (tenant_id, email) WHERE email IS NOT NULL",
                "DROP INDEX users_phone_number",
                "CREATE UNIQUE INDEX users_phone_number ON users (tenant_id, phone_number) WHERE phone_number IS NOT NULL",
            ]
        },
        // A session's refresh token found by one seek (issue 35): the account index of refresh tokens ends with the token's
        // hash, whose first digits are the session ID (`RefreshTokenRows.sessionMatch`); every call with an ID token checks
        // its session, which read all of an account's sessions before. The index has an entry per token, as before.
        Migration(version: 34) { _ in
            [
                "DROP INDEX refresh_tokens_local_id",
                "CREATE INDEX refresh_tokens_local_id ON refresh_tokens (tenant_id, local_id, token_hash)",
            ]
        },
    ]

    /// The newest version this build knows.
    static var latest: Int { all.last?.version ?? 0 }
}

/// The schema version this build brings a database to.
public enum StoreSchema {
    /// The newest migration this build knows.
    public static var latestVersion: Int { Migrations.latest }
}

extension Migrations {

    /// Brings the schema up to `target` (``latest`` unless a test stops earlier), one transaction per version, and
    /// refuses a database newer than this build.
    /// - Returns: the versions applied.
    static func run(
        on db: any SQLExecutor, through target: Int = latest, inTransaction: (() async throws -> Void) async throws -> Void
    ) async throws -> [Int] {
        try await db.run(.command("CREATE TABLE IF NOT EXISTS flint_schema (version INTEGER NOT NULL)"))
        let current = Int(try await db.first(.read("SELECT COALESCE(MAX(version), 0) AS v FROM flint_schema", from: .schema))?.int64("v") ?? 0)
        guard current <= latest else { throw StoreError.schemaTooNew(found: current, supported: latest) }
        var applied: [Int] = []
        for migration in all where migration.version > current && migration.version <= target {
            try await inTransaction {
                for statement in migration.statements(db.dialect) { try await db.run(.command(statement)) }
                try await db.run(.write("INSERT INTO flint_schema (version) VALUES (?)", [.integer(Int64(migration.version))], into: .schema))
            }
            applied.append(migration.version)
        }
        return applied
    }
}

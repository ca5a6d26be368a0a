/// Migration 21's statements: the tenant in every user key, on both engines (one transaction, as every migration).
enum MigrationTenants {
    /// The column every user-keyed table gains.
    static let column = "tenant_id TEXT NOT NULL DEFAULT ''"

    /// The tables that only gain the column (their primary keys are random values, unique in every tenant).
    static let addedTo = ["mfa_enrollments", "mfa_recovery_codes", "refresh_tokens", "oob_codes", "code_sessions"]

    /// The indexes, named as before, with the tenant first; PostgreSQL's text keys of ordered walks in the "C"
    /// collation, as migrations 13 and 20 made them.
    static func indexes(_ dialect: SQLDialect) -> [String] {
        let pg = dialect == .postgresql
        let id = pg ? #"local_id COLLATE "C""# : "local_id"
        let email = pg ? #"email COLLATE "C""# : "email"
        let name = pg ? #"(LOWER(display_name)) COLLATE "C""# : "LOWER(display_name)"
        return [
            "CREATE UNIQUE INDEX users_email ON users (tenant_id, email)",
            "CREATE UNIQUE INDEX users_phone_number ON users (tenant_id, phone_number)",
            "CREATE INDEX users_display_name_lower ON users (tenant_id, \(name)) WHERE display_name IS NOT NULL",
            "CREATE INDEX users_created_at ON users (tenant_id, created_at, \(id))",
            "CREATE INDEX users_last_login_at ON users (tenant_id, last_login_at, \(id))",
            "CREATE INDEX users_email_order ON users (tenant_id, \(email), \(id))",
            "CREATE INDEX federated_identities_local_id ON federated_identities (tenant_id, local_id)",
            "CREATE INDEX federated_identities_email ON federated_identities (tenant_id, email)",
            "CREATE INDEX passkeys_local_id ON passkeys (tenant_id, local_id)",
            "CREATE INDEX mfa_enrollments_local_id ON mfa_enrollments (tenant_id, local_id)",
            "CREATE UNIQUE INDEX mfa_enrollments_phone ON mfa_enrollments (tenant_id, local_id, phone_number)",
            "CREATE INDEX mfa_recovery_codes_local_id ON mfa_recovery_codes (tenant_id, local_id)",
            "CREATE INDEX refresh_tokens_local_id ON refresh_tokens (tenant_id, local_id)",
            "CREATE INDEX code_sessions_phone_number ON code_sessions (tenant_id, phone_number)",
        ] + (pg ? [#"CREATE INDEX users_local_id_c ON users (tenant_id, local_id COLLATE "C")"#] : [])
    }

    /// The indexes the new ones replace, on the tables that are not rebuilt (a rebuilt table's go with it).
    static let replaced = [
        "mfa_enrollments_local_id", "mfa_enrollments_phone", "mfa_recovery_codes_local_id", "refresh_tokens_local_id", "code_sessions_phone_number",
    ]

    static func statements(_ dialect: SQLDialect) -> [String] {
        let added = addedTo.map { "ALTER TABLE \($0) ADD COLUMN \(column)" } + replaced.map { "DROP INDEX \($0)" }
        guard dialect == .sqlite else {
            return added + [
                "ALTER TABLE users ADD COLUMN \(column)",
                "ALTER TABLE federated_identities ADD COLUMN \(column)",
                "ALTER TABLE passkeys ADD COLUMN \(column)",
                "ALTER TABLE users DROP CONSTRAINT users_pkey, DROP CONSTRAINT users_email_key, DROP CONSTRAINT users_phone_number_key",
                "ALTER TABLE users ADD PRIMARY KEY (tenant_id, local_id)",
                "ALTER TABLE federated_identities DROP CONSTRAINT federated_identities_pkey",
                "ALTER TABLE federated_identities ADD PRIMARY KEY (tenant_id, provider_id, raw_id)",
                "ALTER TABLE passkeys DROP CONSTRAINT passkeys_pkey",
                "ALTER TABLE passkeys ADD PRIMARY KEY (tenant_id, credential_id)",
                "DROP INDEX users_display_name_lower", "DROP INDEX users_local_id_c", "DROP INDEX users_created_at",
                "DROP INDEX users_last_login_at", "DROP INDEX users_email_order", "DROP INDEX federated_identities_local_id",
                "DROP INDEX federated_identities_email", "DROP INDEX passkeys_local_id",
            ] + indexes(dialect)
        }
        return added + rebuilt + indexes(dialect)
    }

    /// SQLite: each table copied into one with the tenant in its key (its rows in the default tenant), then renamed.
    private static var rebuilt: [String] {
        let users = """
            local_id, phone_number, email, email_verified, display_name, photo_url, disabled, created_at, last_login_at, last_refresh_at,
            valid_since, custom_attributes, password_hash, password_updated_at, email_link_sign_in, revocation_generation
            """
        let identities = "provider_id, raw_id, local_id, email, display_name, photo_url, phone_number, screen_name"
        let passkeys = "credential_id, local_id, public_key, rp_id, sign_count, name, transports, created_at"
        return [
            """
            CREATE TABLE users_v21 (local_id TEXT NOT NULL, phone_number TEXT, email TEXT, email_verified BOOLEAN NOT NULL DEFAULT FALSE,
                display_name TEXT, photo_url TEXT, disabled BOOLEAN NOT NULL DEFAULT FALSE, created_at BIGINT NOT NULL, last_login_at BIGINT,
                last_refresh_at BIGINT, valid_since BIGINT NOT NULL, custom_attributes TEXT, password_hash TEXT, password_updated_at BIGINT,
                email_link_sign_in BOOLEAN NOT NULL DEFAULT FALSE, revocation_generation BIGINT NOT NULL DEFAULT 0, \(column),
                PRIMARY KEY (tenant_id, local_id))
            """,
            "INSERT INTO users_v21 (\(users), tenant_id) SELECT \(users), '' FROM users",
            "DROP TABLE users",
            "ALTER TABLE users_v21 RENAME TO users",
            """
            CREATE TABLE federated_identities_v21 (provider_id TEXT NOT NULL, raw_id TEXT NOT NULL, local_id TEXT NOT NULL, email TEXT,
                display_name TEXT, photo_url TEXT, phone_number TEXT, screen_name TEXT, \(column), PRIMARY KEY (tenant_id, provider_id, raw_id))
            """,
            "INSERT INTO federated_identities_v21 (\(identities), tenant_id) SELECT \(identities), '' FROM federated_identities",
            "DROP TABLE federated_identities",
            "ALTER TABLE federated_identities_v21 RENAME TO federated_identities",
            """
            CREATE TABLE passkeys_v21 (credential_id TEXT NOT NULL, local_id TEXT NOT NULL, public_key TEXT NOT NULL, rp_id TEXT NOT NULL,
                sign_count BIGINT NOT NULL, name TEXT, transports TEXT NOT NULL, created_at BIGINT NOT NULL, \(column),
                PRIMARY KEY (tenant_id, credential_id))
            """,
            "INSERT INTO passkeys_v21 (\(passkeys), tenant_id) SELECT \(passkeys), '' FROM passkeys",
            "DROP TABLE passkeys",
            "ALTER TABLE passkeys_v21 RENAME TO passkeys",
        ]
    }
}

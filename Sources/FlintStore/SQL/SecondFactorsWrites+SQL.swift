import FlintCore

/// Statements of multi-factor authentication, for every SQL-backed store: enrolments and recovery codes.
extension SecondFactorsWrites where Self: SQLBacked {
    static var enrollmentColumns: String {
        "tenant_id, enrollment_id, local_id, factor, display_name, phone_number, totp_secret, enrolled_at, last_totp_step"
    }

    func enrollment(from row: SQLRow) throws -> MFAEnrollmentRecord {
        MFAEnrollmentRecord(
            tenant: TenantID(rawValue: try row.string("tenant_id")), enrollmentID: try row.string("enrollment_id"),
            localID: try row.string("local_id"),
            factor: SecondFactorKind(rawValue: try row.string("factor")),
            displayName: try row.optionalString("display_name"), phoneNumber: try row.optionalString("phone_number"),
            sealedTOTPSecret: try row.optionalString("totp_secret"), enrolledAt: try row.instant("enrolled_at"),
            lastTOTPStep: try row.optionalInt64("last_totp_step")
        )
    }

    func mfaEnrollments(tenant: TenantID, localID: String) async throws -> [MFAEnrollmentRecord] {
        try await db.query(
            .read(
                "SELECT \(Self.enrollmentColumns) FROM mfa_enrollments WHERE tenant_id = ? AND local_id = ? ORDER BY enrolled_at, enrollment_id",
                [.text(tenant.rawValue), .text(localID)], from: .mfaEnrollments)
        ).map(enrollment(from:))
    }

    func insertMFAEnrollment(_ e: MFAEnrollmentRecord) async throws {
        if let phone = e.phoneNumber,
            try await db.first(
                .read(
                    "SELECT enrollment_id FROM mfa_enrollments WHERE tenant_id = ? AND local_id = ? AND phone_number = ?",
                    [.text(e.tenant.rawValue), .text(e.localID), .text(phone)],
                    from: .mfaEnrollments)) != nil
        {
            throw StoreError.conflict(.secondFactor)
        }
        let rows = try await db.query(
            .write(
                """
                INSERT INTO mfa_enrollments (\(Self.enrollmentColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING enrollment_id
                """,
                [
                    .text(e.tenant.rawValue), .text(e.enrollmentID), .text(e.localID), .text(e.factor.rawValue), e.displayName.sql, e.phoneNumber.sql,
                    e.sealedTOTPSecret.sql,
                    .instant(e.enrolledAt), e.lastTOTPStep.sql,
                ], into: .mfaEnrollments)
        )
        if rows.isEmpty { throw StoreError.conflict(.secondFactor) }
    }

    func deleteMFAEnrollment(tenant: TenantID, localID: String, enrollmentID: String) async throws -> Bool {
        !(try await db.query(
            .write(
                "DELETE FROM mfa_enrollments WHERE tenant_id = ? AND local_id = ? AND enrollment_id = ? RETURNING enrollment_id",
                [.text(tenant.rawValue), .text(localID), .text(enrollmentID)],
                into: .mfaEnrollments)
        )).isEmpty
    }

    func acceptTOTPStep(tenant: TenantID, enrollmentID: String, step: Int64) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE mfa_enrollments SET last_totp_step = ?
                WHERE enrollment_id = ? AND tenant_id = ? AND (last_totp_step IS NULL OR last_totp_step < ?) RETURNING enrollment_id
                """,
                [.integer(step), .text(enrollmentID), .text(tenant.rawValue), .integer(step)], into: .mfaEnrollments)
        )).isEmpty
    }

    func recoveryCodesLeft(tenant: TenantID, localID: String) async throws -> Int {
        Int(
            try await db.first(
                .read(
                    "SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE tenant_id = ? AND local_id = ? AND used_at IS NULL",
                    [.text(tenant.rawValue), .text(localID)], from: .mfaRecoveryCodes))?
                .int64("n") ?? 0)
    }

    func replaceRecoveryCodes(tenant: TenantID, localID: String, hashes: [String], now: Instant) async throws {
        try await db.run(
            .write(
                "DELETE FROM mfa_recovery_codes WHERE tenant_id = ? AND local_id = ?", [.text(tenant.rawValue), .text(localID)],
                into: .mfaRecoveryCodes))
        for hash in hashes {
            try await db.run(
                .write(
                    "INSERT INTO mfa_recovery_codes (code_hash, tenant_id, local_id, created_at) VALUES (?, ?, ?, ?)",
                    [.text(hash), .text(tenant.rawValue), .text(localID), .instant(now)],
                    into: .mfaRecoveryCodes))
        }
    }

    func useRecoveryCode(tenant: TenantID, localID: String, hash: String, now: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE mfa_recovery_codes SET used_at = ? WHERE code_hash = ? AND tenant_id = ? AND local_id = ? AND used_at IS NULL
                RETURNING code_hash
                """,
                [.instant(now), .text(hash), .text(tenant.rawValue), .text(localID)], into: .mfaRecoveryCodes)
        )).isEmpty

    }
}

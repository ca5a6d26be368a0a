import FlintCore

/// Statements of multi-factor authentication, for every SQL-backed store: enrolments and recovery codes.
extension SecondFactorsWrites where Self: SQLBacked {
    static var enrollmentColumns: String { "enrollment_id, local_id, factor, display_name, phone_number, totp_secret, enrolled_at, last_totp_step" }

    func enrollment(from row: SQLRow) throws -> MFAEnrollmentRecord {
        MFAEnrollmentRecord(
            enrollmentID: try row.string("enrollment_id"), localID: try row.string("local_id"),
            factor: SecondFactorKind(rawValue: try row.string("factor")),
            displayName: try row.optionalString("display_name"), phoneNumber: try row.optionalString("phone_number"),
            sealedTOTPSecret: try row.optionalString("totp_secret"), enrolledAt: try row.instant("enrolled_at"),
            lastTOTPStep: try row.optionalInt64("last_totp_step")
        )
    }

    func mfaEnrollments(localID: String) async throws -> [MFAEnrollmentRecord] {
        try await db.query(
            .read(
                "SELECT \(Self.enrollmentColumns) FROM mfa_enrollments WHERE local_id = ? ORDER BY enrolled_at, enrollment_id", [.text(localID)],
                from: .mfaEnrollments)
        ).map(enrollment(from:))
    }

    func insertMFAEnrollment(_ e: MFAEnrollmentRecord) async throws {
        if let phone = e.phoneNumber,
            try await db.first(
                .read(
                    "SELECT enrollment_id FROM mfa_enrollments WHERE local_id = ? AND phone_number = ?", [.text(e.localID), .text(phone)],
                    from: .mfaEnrollments)) != nil
        {
            throw StoreError.conflict(.secondFactor)
        }
        let rows = try await db.query(
            .write(
                """
                INSERT INTO mfa_enrollments (enrollment_id, local_id, factor, display_name, phone_number, totp_secret, enrolled_at, last_totp_step)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING enrollment_id
                """,
                [
                    .text(e.enrollmentID), .text(e.localID), .text(e.factor.rawValue), e.displayName.sql, e.phoneNumber.sql, e.sealedTOTPSecret.sql,
                    .instant(e.enrolledAt), e.lastTOTPStep.sql,
                ], into: .mfaEnrollments)
        )
        if rows.isEmpty { throw StoreError.conflict(.secondFactor) }
    }

    func deleteMFAEnrollment(localID: String, enrollmentID: String) async throws -> Bool {
        !(try await db.query(
            .write(
                "DELETE FROM mfa_enrollments WHERE local_id = ? AND enrollment_id = ? RETURNING enrollment_id",
                [.text(localID), .text(enrollmentID)],
                into: .mfaEnrollments)
        )).isEmpty
    }

    func acceptTOTPStep(enrollmentID: String, step: Int64) async throws -> Bool {
        !(try await db.query(
            .write(
                """
                UPDATE mfa_enrollments SET last_totp_step = ?
                WHERE enrollment_id = ? AND (last_totp_step IS NULL OR last_totp_step < ?) RETURNING enrollment_id
                """,
                [.integer(step), .text(enrollmentID), .integer(step)], into: .mfaEnrollments)
        )).isEmpty
    }

    func recoveryCodesLeft(localID: String) async throws -> Int {
        Int(
            try await db.first(
                .read(
                    "SELECT COUNT(*) AS n FROM mfa_recovery_codes WHERE local_id = ? AND used_at IS NULL", [.text(localID)], from: .mfaRecoveryCodes))?
                .int64("n") ?? 0)
    }

    func replaceRecoveryCodes(localID: String, hashes: [String], now: Instant) async throws {
        try await db.run(.write("DELETE FROM mfa_recovery_codes WHERE local_id = ?", [.text(localID)], into: .mfaRecoveryCodes))
        for hash in hashes {
            try await db.run(
                .write(
                    "INSERT INTO mfa_recovery_codes (code_hash, local_id, created_at) VALUES (?, ?, ?)",
                    [.text(hash), .text(localID), .instant(now)],
                    into: .mfaRecoveryCodes))
        }
    }

    func useRecoveryCode(localID: String, hash: String, now: Instant) async throws -> Bool {
        !(try await db.query(
            .write(
                "UPDATE mfa_recovery_codes SET used_at = ? WHERE code_hash = ? AND local_id = ? AND used_at IS NULL RETURNING code_hash",
                [.instant(now), .text(hash), .text(localID)], into: .mfaRecoveryCodes)
        )).isEmpty

    }
}

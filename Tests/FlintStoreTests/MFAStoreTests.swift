import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("MFA storage: enrolments, TOTP steps, recovery codes")
struct MFAStoreTests {
    static func phone(_ id: String, _ number: String, user: String = "u1") -> MFAEnrollmentRecord {
        MFAEnrollmentRecord(enrollmentID: id, localID: user, factor: .phone, displayName: nil, phoneNumber: number, enrolledAt: 1)
    }

    @Test("enrolments are per user, one per number; deleting the user deletes them", arguments: Engine.all)
    func enrollments(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: Instant(secondsSince1970: 1))) }
        try await store.write { tx in
            try await tx.insertMFAEnrollment(Self.phone("e1", "+16505550001"))
            try await tx.insertMFAEnrollment(Self.phone("e2", "+16505550001", user: "u2"))
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "e3", localID: "u1", factor: .totp, displayName: "app", sealedTOTPSecret: "s", enrolledAt: 2))
        }
        await #expect(throws: StoreError.conflict(.secondFactor)) {
            try await store.write { try await $0.insertMFAEnrollment(Self.phone("e4", "+16505550001")) }
        }
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u1") }.map(\.enrollmentID) == ["e1", "e3"])
        #expect(try await store.write { try await $0.deleteMFAEnrollment(tenant: .default, localID: "u2", enrollmentID: "e1") } == false)
        #expect(try await store.write { try await $0.deleteUser(tenant: .default, localID: "u1") })
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u1") }.isEmpty)
        #expect(try await store.read { try await $0.mfaEnrollments(tenant: .default, localID: "u2") }.count == 1)
        try await store.close()
    }

    @Test("a TOTP step is accepted once, by one of concurrent callers, and never an older one", arguments: Engine.all)
    func totpSteps(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "t", localID: "u", factor: .totp, displayName: nil, sealedTOTPSecret: "s", enrolledAt: 1))
        }
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask { try await store.write { try await $0.acceptTOTPStep(tenant: .default, enrollmentID: "t", step: 100) } }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(accepted.filter { $0 }.count == 1)
        #expect(try await store.write { try await $0.acceptTOTPStep(tenant: .default, enrollmentID: "t", step: 99) } == false)
        #expect(try await store.write { try await $0.acceptTOTPStep(tenant: .default, enrollmentID: "t", step: 101) })
        try await store.close()
    }

    @Test("recovery codes are used once and replaced as a set", arguments: Engine.all)
    func recoveryCodes(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.replaceRecoveryCodes(tenant: .default, localID: "u", hashes: ["a", "b", "c"], now: 1) }
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: .default, localID: "u") } == 3)
        #expect(try await store.write { try await $0.useRecoveryCode(tenant: .default, localID: "u", hash: "a", now: 2) })
        #expect(try await store.write { try await $0.useRecoveryCode(tenant: .default, localID: "u", hash: "a", now: 3) } == false)
        #expect(try await store.write { try await $0.useRecoveryCode(tenant: .default, localID: "other", hash: "b", now: 3) } == false)
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: .default, localID: "u") } == 2)
        try await store.write { try await $0.replaceRecoveryCodes(tenant: .default, localID: "u", hashes: ["d"], now: 4) }
        #expect(try await store.write { try await $0.useRecoveryCode(tenant: .default, localID: "u", hash: "b", now: 5) } == false)
        #expect(try await store.read { try await $0.recoveryCodesLeft(tenant: .default, localID: "u") } == 1)
        try await store.close()
    }
}

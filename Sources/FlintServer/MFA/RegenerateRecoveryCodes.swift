import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST /flint/v1/accounts/mfaRecoveryCodes:regenerate` (Flint extension): ten new one-time recovery codes for a
/// user with second factors, replacing the old ones. Needs a recent sign-in, like enrolment.
struct RegenerateRecoveryCodesRequest: Decodable {
    var idToken: String?
}

/// The new codes, shown once.
struct RecoveryCodesResponse: ResponseEncodable {
    var recoveryCodes: [String]
}

extension MFAFlow {
    func regenerateRecoveryCodes(_ wire: RegenerateRecoveryCodesRequest) async throws -> RecoveryCodesResponse {
        let (token, user) = try await sessions.authenticate(idToken: wire.idToken)
        guard node.clock.now() - token.authTime <= Sessions.recentSignIn else { throw AuthError.credentialTooOld }
        let codes = RecoveryCodes.generate(using: node.random)
        let hashes = codes.compactMap { RecoveryCodes.normalize($0).map { RecoveryCodes.hash($0, key: secret.recoveryKey) } }
        let now = node.clock.now()
        let enrollments = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: user.localID) }
        try sessions.requireSecondFactorSession(token, enrollments: enrollments)
        let enrolled = try await node.store.write { [self] tx in
            try await replaceRecoveryCodes(of: user.localID, with: hashes, in: tx, now: now)
        }
        guard enrolled else { throw AuthError.mfaEnrollmentNotFound.with(detail: "Recovery codes need a second factor.") }
        node.logger.notice("recovery codes regenerated", metadata: ["uid": "\(user.localID)"])
        return RecoveryCodesResponse(recoveryCodes: codes)
    }

    /// Replaces the account's recovery codes if it still has a second factor; false if it has none.
    private func replaceRecoveryCodes(of localID: String, with hashes: [String], in tx: some Writes, now: Instant) async throws -> Bool {
        guard !(try await tx.mfaEnrollments(tenant: .scoped, localID: localID)).isEmpty else { return false }
        try await tx.replaceRecoveryCodes(tenant: .scoped, localID: localID, hashes: hashes, now: now)
        try await tx.audit(.recoveryCodesRegenerated, uid: localID, at: now)
        return true
    }
}

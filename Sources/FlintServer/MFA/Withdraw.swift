import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `v2/accounts/mfaEnrollment:withdraw`: removes a second factor. Every earlier session is revoked and the caller
/// gets fresh tokens (without second-factor claims); with the last factor go the recovery codes.
struct WithdrawRequest: Decodable {
    var idToken: String?
    var mfaEnrollmentId: String?
}

extension MFAFlow {
    func withdraw(_ wire: WithdrawRequest) async throws -> MFATokensResponse {
        let token = try sessions.verifyIDToken(wire.idToken)
        try sessions.requireRecentSignIn(token)
        guard let enrollmentID = wire.mfaEnrollmentId, !enrollmentID.isEmpty else { throw AuthError.missingMFAEnrollmentID }
        let now = node.clock.now()
        let provider = token.signInProvider ?? "password"
        let result = try await node.store.write { [self] tx in
            try await withdraw(enrollmentID, token: token, provider: provider, in: tx, now: now)
        }
        let (user, refresh) = try result.get()
        node.logger.notice("second factor withdrawn", metadata: ["uid": "\(user.localID)"])
        let tokens = try sessions.sessionTokens(user: user, refreshToken: refresh, provider: provider, now: now, authTime: token.authTime)
        return MFATokensResponse(tokens: tokens)
    }

    /// Withdraw's transaction: the factor goes (with the last one, the recovery codes), the account's sessions end,
    /// and the caller gets a new refresh token.
    private func withdraw(
        _ enrollmentID: String, token: VerifiedIDToken, provider: String, in tx: some Writes, now: Instant
    ) async throws -> Result<(UserRecord, String), AuthError> {
        var user: UserRecord
        switch try await sessions.tokenUser(token, in: tx) {
        case .failure(let error): return .failure(error)
        case .success(let found): user = found
        }
        let enrollments = try await tx.mfaEnrollments(tenant: .scoped, localID: user.localID)
        do throws(AuthError) {
            try sessions.requireSecondFactorSession(token, enrollments: enrollments)
        } catch {
            return .failure(error)
        }
        guard try await tx.deleteMFAEnrollment(tenant: .scoped, localID: user.localID, enrollmentID: enrollmentID) else {
            return .failure(.mfaEnrollmentNotFound)
        }
        try await tx.audit(.mfaWithdrawn, uid: user.localID, at: now, ["enrollmentId": .string(enrollmentID)])
        if try await tx.mfaEnrollments(tenant: .scoped, localID: user.localID).isEmpty {
            try await tx.replaceRecoveryCodes(tenant: .scoped, localID: user.localID, hashes: [], now: now)
        }
        try await sessions.revokeSessions(of: &user, in: tx, now: now)
        user.lastRefreshAt = now
        try await tx.updateUser(user)
        return .success((user, try await sessions.storeRefreshToken(tx, user: user, provider: provider, now: now, authTime: token.authTime)))
    }
}

import Crypto
import FlintCore
import FlintStore

/// What a first-factor sign-in of an enrolled user gets instead of tokens: a sealed, short-lived credential bound
/// to the user and the first factor, and the hints of the enrolled factors.
struct MFAChallenge: Sendable {
    var pendingCredential: String
    var hints: [MFAInfoJSON]
}

extension SignInGate {
    /// How long a pending credential may be used.
    static let mfaPendingLifetime: Duration = .seconds(300)

    /// Whether second factors are asked for at sign-in in this project.
    var mfaActive: Bool { node.config.current.mfaState != .disabled }

    /// The enrolments that make a sign-in of `user` need a second factor (none when MFA is off for the project).
    func activeEnrollments(_ localID: String, in reader: any SecondFactorsReads) async throws -> [MFAEnrollmentRecord] {
        guard mfaActive else { return [] }
        return try await reader.mfaEnrollments(tenant: .scoped, localID: localID)
    }

    /// The challenge for `user`, who proved `provider` at `now` and has `enrollments`.
    func mfaChallenge(user: UserRecord, provider: String, enrollments: [MFAEnrollmentRecord], now: Instant) throws -> MFAChallenge {
        var credential = MFAPendingCredential(
            localID: user.localID, signInProvider: provider, authTime: now.wholeSecond, issuedAt: now.wholeSecond, nonce: node.random.bytes(16))
        credential.revocationGeneration = user.revocationGeneration
        credential.tenant = user.tenant.rawValue
        let sealed: String
        do { sealed = try credential.seal(key: secret.mfaKey) } catch { throw AuthError.internalError }
        return MFAChallenge(pendingCredential: sealed, hints: enrollments.map(MFAInfoJSON.hint))
    }

    /// Opens a pending credential: `INVALID_MFA_PENDING_CREDENTIAL` when forged, garbled or expired;
    /// `INVALID_PROJECT_ID` (as the emulator answers) when it was issued in another tenant than the request's.
    func openPendingCredential(_ text: String) throws(AuthError) -> MFAPendingCredential {
        guard let credential = MFAPendingCredential(opening: text, key: secret.mfaKey),
            !credential.isExpired(now: node.clock.now(), lifetime: Self.mfaPendingLifetime)
        else { throw AuthError.invalidMFAPendingCredential }
        guard credential.tenant == TenantScope.tenant.rawValue else {
            throw AuthError.invalidProjectID.with(detail: "Project ID does not match MFA pending credential.")
        }
        return credential
    }
}

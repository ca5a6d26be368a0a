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

    /// The challenge for `user`, who proved `provider` at `now` and has `enrollments`; the first factor's
    /// `sessionClaims` ride in the pending credential to the session the second factor earns, and the provider's facts
    /// (``ProviderFacts/current``) to the `beforeSignIn` function called at finalize.
    /// - Throws: `INVALID_IDP_RESPONSE` when what the provider gave is too large to carry
    ///   (``MFAPendingCredential/maxCarriedBytes``).
    func mfaChallenge(
        user: UserRecord, provider: String, enrollments: [MFAEnrollmentRecord], sessionClaims: [String: JSONValue]? = nil, now: Instant
    ) throws -> MFAChallenge {
        var credential = MFAPendingCredential(
            localID: user.localID, signInProvider: provider, authTime: now.wholeSecond, issuedAt: now.wholeSecond, nonce: node.random.bytes(16))
        credential.revocationGeneration = user.revocationGeneration
        credential.tenant = user.tenant.rawValue
        credential.sessionClaims = sessionClaims
        credential.blockingFacts = ProviderFacts.current.carried(for: node.config.current)
        let sealed: String
        do {
            sealed = try credential.seal(key: secret.mfaKey)
        } catch let error as MFAPendingCredential.TooLarge {
            throw AuthError.invalidIdpResponse(
                "The identity provider's sign-in attributes and profile (\(error.bytes) bytes) are too large to carry to the second factor "
                    + "(at most \(MFAPendingCredential.maxCarriedBytes)).")
        } catch {
            throw AuthError.internalError
        }
        return MFAChallenge(pendingCredential: sealed, hints: enrollments.map(MFAInfoJSON.hint))
    }

    /// Opens a pending credential: `INVALID_MFA_PENDING_CREDENTIAL` when forged, garbled or expired;
    /// `INVALID_PROJECT_ID` (as the emulator answers) when it was issued in another tenant than the request's.
    func openPendingCredential(_ text: String) throws(AuthError) -> MFAPendingCredential {
        let credential = try openPendingCredentialAnywhere(text)
        guard credential.tenant == TenantScope.tenant.rawValue else {
            throw AuthError.invalidProjectID.with(detail: "Project ID does not match MFA pending credential.")
        }
        return credential
    }

    /// Opens a pending credential of any tenant: `INVALID_MFA_PENDING_CREDENTIAL` when forged, garbled or expired.
    private func openPendingCredentialAnywhere(_ text: String) throws(AuthError) -> MFAPendingCredential {
        guard let credential = MFAPendingCredential(opening: text, key: secret.mfaKey),
            !credential.isExpired(now: node.clock.now(), lifetime: Self.mfaPendingLifetime)
        else { throw AuthError.invalidMFAPendingCredential }
        return credential
    }

    /// Runs `body` in the tenant of the pending credential `text` when the request names no tenant (a client that
    /// sends the credential alone), as an ID token's tenant is the scope of a call that carries only the token: the
    /// tenant is resolved as ``TenantMiddleware`` resolves a named one (`TENANT_NOT_FOUND`, `PROJECT_DISABLED`) and its
    /// settings govern. A request that names a tenant runs in it, where another tenant's credential is refused
    /// (``openPendingCredential(_:)``); so does a credential that does not open.
    func inTenant<T>(ofPendingCredential text: String?, _ body: () async throws -> T) async throws -> T {
        guard let text, !text.isEmpty, TenantScope.tenant.isDefault, let credential = try? openPendingCredentialAnywhere(text),
            !credential.tenant.isEmpty
        else { return try await body() }
        return try await TenantScope.run(resolving: credential.tenant, tenants: tenants, project: node.config.project, body)
    }
}

import Foundation

/// Passkeys of the signed-in user, as FirebaseAuth's passkey API: enrol one (`passkeyEnrollment:start` /
/// `:finalize`), list them (`enrolledPasskeys`, from `accounts:lookup`'s `passkeyInfo`) and withdraw one
/// (`accounts:update`'s `deletePasskey`).
extension User {
    /// The name a passkey gets when none is given, as FirebaseAuth names it.
    static let defaultPasskeyName = "Unnamed account (Apple)"

    /// The account's passkeys (empty when it has none), as of the last sign-in or `reload()`.
    public var enrolledPasskeys: [PasskeyInfo]? { profile.current.passkeys ?? [] }

    /// Asks the server for a passkey enrolment (`passkeyEnrollment:start`, which needs a recent sign-in) and
    /// remembers `name` for the finalize call, as FirebaseAuth does.
    func passkeyRegistrationRequest(withName name: String?) async throws -> PasskeyRegistrationRequest {
        let idToken = try await getIDToken()
        let response = try await backend.callV2(
            "accounts/passkeyEnrollment:start", StartPasskeyEnrollmentRequest(idToken: idToken), as: StartPasskeyEnrollmentResponse.self)
        let options = response.credentialCreationOptions
        guard let rpID = options?.rp?.id, !rpID.isEmpty else {
            throw AuthErrorCode.internalError.error(detail: "The server's passkey options had no RP ID.")
        }
        let challenge = try PasskeyBase64.required(options?.challenge, "challenge")
        let userID = try PasskeyBase64.required(options?.user?.id, "user ID")
        let chosen = name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPasskeyName
        passkeyName.withLock { $0 = chosen }
        return PasskeyRegistrationRequest(relyingPartyIdentifier: rpID, challenge: challenge, name: chosen, userID: userID)
    }

    /// Completes the enrolment with the authenticator's registration (`passkeyEnrollment:finalize`, under the name
    /// given to `startPasskeyEnrollment(withName:)`); the server re-issues the session's tokens and the profile is
    /// reloaded, so ``enrolledPasskeys`` lists the new passkey.
    /// - Throws: `invalidAuthenticatorResponse` when the registration fails verification (wrong challenge, origin, RP
    ///   ID, flags), `requiresRecentLogin`, `userTokenExpired`, `networkError`; `internalError` when the credential is
    ///   already enrolled (`PASSKEY_ENROLLMENT_EXISTS`, which FirebaseAuth does not map).
    public func finalizePasskeyEnrollment(withPlatformCredential platformCredential: PasskeyRegistration) async throws -> AuthDataResult {
        guard !platformCredential.credentialID.isEmpty, !platformCredential.rawClientDataJSON.isEmpty,
            !platformCredential.rawAttestationObject.isEmpty
        else {
            throw AuthErrorCode.internalError.error(
                detail: "Invalid platform credential: missing credentialID, clientDataJSON, or attestationObject.")
        }
        let idToken = try await getIDToken()
        let request = FinalizePasskeyEnrollmentRequest(
            idToken: idToken, name: passkeyName.current ?? Self.defaultPasskeyName,
            authenticatorRegistrationResponse: .init(
                id: platformCredential.credentialID.base64EncodedString(),
                response: .init(
                    clientDataJSON: platformCredential.rawClientDataJSON.base64EncodedString(),
                    attestationObject: platformCredential.rawAttestationObject.base64EncodedString())))
        let response = try await backend.callV2("accounts/passkeyEnrollment:finalize", request, as: SignInResponse.self)
        passkeyName.withLock { $0 = nil }
        try await adopt(response, providerID: PasskeyProvider.id)
        return AuthDataResult(user: self, additionalUserInfo: nil)
    }

    /// Withdraws the passkey with `credentialID` (`accounts:update`, `deletePasskey`; needs a recent sign-in). The
    /// server ends the account's other sessions; this one takes the new tokens and reloads the profile.
    /// - Throws: `missingPasskeyEnrollment` for an empty ID, `requiresRecentLogin`, `userTokenExpired`,
    ///   `networkError`.
    public func unenrollPasskey(withCredentialID credentialID: String) async throws {
        guard !credentialID.isEmpty else { throw AuthErrorCode.missingPasskeyEnrollment.error() }
        try await updateAccount(SetAccountInfoRequest(deletePasskey: [credentialID]))
    }

    /// Completes a passkey enrolment; `completion` runs on the main queue.
    public func finalizePasskeyEnrollment(
        withPlatformCredential platformCredential: PasskeyRegistration, completion: ((AuthDataResult?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.finalizePasskeyEnrollment(withPlatformCredential: platformCredential) }
    }

    /// Withdraws a passkey; `completion` runs on the main queue.
    public func unenrollPasskey(withCredentialID credentialID: String, completion: (((any Error)?) -> Void)?) {
        deliver(completion) { try await self.unenrollPasskey(withCredentialID: credentialID) }
    }
}

/// The `sign_in_provider` of passkey sessions.
enum PasskeyProvider {
    static let id = "passkey"
}

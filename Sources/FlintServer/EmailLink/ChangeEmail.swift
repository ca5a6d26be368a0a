import FlintCore
import FlintStore

/// `VERIFY_AND_CHANGE_EMAIL` (FirebaseAuth's `sendEmailVerification(beforeUpdatingEmail:)`): the code is sent to the
/// new address (the record's `email`) for the account of `localID`; using it — through `accounts:update` with the
/// `oobCode`, or the action page's confirming POST — makes that address the account's email, verified. Like any
/// email change it revokes the account's earlier sessions.
extension AuthServices {
    /// Uses a `VERIFY_AND_CHANGE_EMAIL` code and changes the account's email.
    /// - Throws: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `USER_DISABLED`, and `EMAIL_EXISTS` when another account took
    ///   the address since the link was sent.
    func applyEmailChange(code: String) async throws -> UserRecord {
        let now = nowMS
        let result = try await store.write { [self] tx -> Result<UserRecord, AuthError> in
            let record: OobCodeRecord
            switch try await Self.use(code, as: .verifyAndChangeEmail, in: tx, now: now) {
            case .failure(let error): return .failure(error)
            case .success(let used): record = used
            }
            guard let id = record.localID, var user = try await tx.lockedUser(localID: id) else { return .failure(.invalidOobCode) }
            guard !user.disabled else { return .failure(.userDisabled) }
            if let owner = try await tx.user(email: record.email), owner.localID != user.localID { return .failure(.emailExists) }
            if user.email != record.email { try await revokeSessions(of: &user, in: tx, now: now) }
            user.email = record.email
            user.emailVerified = true
            do {
                try await tx.updateUser(user)
            } catch StoreError.conflict {
                return .failure(.emailExists)
            }
            return .success(user)
        }
        return try result.get()
    }

    /// What `checkActionCode` reports for an unused code: for `VERIFY_AND_CHANGE_EMAIL` the account's current email
    /// and the new one, otherwise the address the code was sent to (none for `EMAIL_SIGNIN`).
    func actionCodeEmails(_ record: OobCodeRecord) async throws -> (email: String?, newEmail: String?) {
        switch record.requestType {
        case EmailAction.signIn.rawValue:
            return (nil, nil)
        case EmailAction.verifyAndChangeEmail.rawValue:
            guard let id = record.localID else { return (nil, record.email) }
            let user = try await store.read { try await $0.user(localID: id) }
            return (user?.email, record.email)
        default:
            return (record.email, nil)
        }
    }
}

import FlintCore
import FlintStore
import FlintTexts
import Logging

/// `VERIFY_AND_CHANGE_EMAIL` (FirebaseAuth's `sendEmailVerification(beforeUpdatingEmail:)`): the code is sent to the
/// new address (the record's `email`) for the account of `localID`; using it — through `accounts:update` with the
/// `oobCode`, or the action page's confirming POST — makes that address the account's email, verified. Like any
/// email change it revokes the account's earlier sessions, and the old address gets a `RECOVER_EMAIL` link.
///
/// `RECOVER_EMAIL`: the link sent to the old address after a user changed the account's email; using it (through
/// `accounts:update` with the `oobCode`, or the action page's confirming POST) puts that address back, verified,
/// and revokes every session — the way an owner takes a hijacked account back.
extension ActionCodes {
    /// Uses a `VERIFY_AND_CHANGE_EMAIL` code and changes the account's email; the old address, if any, is sent a
    /// `RECOVER_EMAIL` link.
    /// - Throws: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `USER_DISABLED`, and `EMAIL_EXISTS` when another account took
    ///   the address since the link was sent.
    func applyEmailChange(code: String, locales: [String] = []) async throws -> UserRecord {
        let now = node.clock.now()
        let result = try await node.store.write { [self] tx in
            try await changeEmail(code: code, in: tx, now: now)
        }
        let (user, replaced) = try result.get()
        if let replaced { await sendEmailRecovery(to: replaced, localID: user.localID, locales: locales) }
        return user
    }

    /// The change's transaction; the address it replaced, if any, comes with the account.
    private func changeEmail(code: String, in tx: some Writes, now: Instant) async throws -> Result<(UserRecord, String?), AuthError> {
        let record: OobCodeRecord
        var user: UserRecord
        switch try await ActionCodes.useForAccount(code, as: .verifyAndChangeEmail, sameEmail: false, in: tx, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let used): (record, user) = used
        }
        if let owner = try await tx.user(tenant: .scoped, email: record.email), owner.localID != user.localID { return .failure(.emailExists) }
        let previous = user.email
        let replaced = user.email != record.email ? user.email : nil
        if user.email != record.email { try await sessions.revokeSessions(of: &user, in: tx, now: now) }
        user.email = record.email
        user.emailVerified = true
        do {
            try await tx.updateUser(user)
        } catch StoreError.conflict(.email) {
            return .failure(.emailExists)
        }
        if previous != record.email {
            try await tx.audit(
                .emailChanged, uid: user.localID, at: now, ["from": previous.map(JSONValue.string) ?? .null, "to": .string(record.email)])
        }
        return .success((user, replaced))
    }

    /// Emails the address an account had before its email changed a `RECOVER_EMAIL` link. The change is already
    /// made, so a failure to send is logged rather than thrown.
    func sendEmailRecovery(to oldEmail: String, localID: String, locales: [String]) async {
        if emailDeliveryUnavailable {
            node.logger.warning("no RECOVER_EMAIL link sent after an email change: email delivery is not configured")
            return
        }
        let request = OobRequest(
            action: .recoverEmail, email: oldEmail, localID: localID, continueURL: nil, linkHost: nil,
            apiKey: node.settings.apiKeys.first ?? "flint", locales: locales, send: true)
        do {
            _ = try await issueOobCode(request, limits: [])
        } catch {
            node.logger.error("no RECOVER_EMAIL link sent after an email change", metadata: ["errorType": "\(type(of: error))"])
        }
    }

    /// Uses a `RECOVER_EMAIL` code: the account's email becomes the address the code was sent to again, verified,
    /// and every earlier session of the account is revoked.
    /// - Throws: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, and `EMAIL_EXISTS` when another account took the address.
    func applyEmailRecovery(code: String) async throws -> UserRecord {
        let now = node.clock.now()
        let result = try await node.store.write { [self] tx in
            try await recoverEmail(code: code, in: tx, now: now)
        }
        return try result.get()
    }

    /// The recovery's transaction.
    private func recoverEmail(code: String, in tx: some Writes, now: Instant) async throws -> Result<UserRecord, AuthError> {
        let record: OobCodeRecord
        var user: UserRecord
        switch try await ActionCodes.useForAccount(code, as: .recoverEmail, sameEmail: false, evenDisabled: true, in: tx, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let used): (record, user) = used
        }
        if let owner = try await tx.user(tenant: .scoped, email: record.email), owner.localID != user.localID { return .failure(.emailExists) }
        user.email = record.email
        user.emailVerified = true
        try await sessions.revokeSessions(of: &user, in: tx, now: now)
        do {
            try await tx.updateUser(user)
        } catch StoreError.conflict(.email) {
            return .failure(.emailExists)
        }
        try await tx.audit(.emailRecovered, uid: user.localID, at: now, ["email": .string(record.email)])
        return .success(user)
    }

    /// What `checkActionCode` reports for an unused code: for `VERIFY_AND_CHANGE_EMAIL` the account's current email
    /// and the new one, otherwise the address the code was sent to (none for `EMAIL_SIGNIN`).
    func actionCodeEmails(_ record: OobCodeRecord) async throws -> (email: String?, newEmail: String?) {
        switch record.requestType {
        case .emailSignIn:
            return (nil, nil)
        case .verifyAndChangeEmail:
            guard let id = record.localID else { return (nil, record.email) }
            let user = try await node.store.read { try await $0.user(tenant: .scoped, localID: id) }
            return (user?.email, record.email)
        case .recoverEmail:
            // The address the link restores, and the one it replaces.
            guard let id = record.localID else { return (record.email, nil) }
            let user = try await node.store.read { try await $0.user(tenant: .scoped, localID: id) }
            return (record.email, user?.email)
        default:
            return (record.email, nil)
        }
    }
}

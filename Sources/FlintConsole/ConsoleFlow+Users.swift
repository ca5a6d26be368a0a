import FlintCore
import FlintServer
import FlintStore

/// What an operator may do to an account from the console. Each runs the admin API's flow for it.
enum ConsoleUserAction: String, Sendable, CaseIterable {
    case disable, enable, unlock, revoke, delete, claims, removeFactor, removePasskey, sendPasswordReset, sendVerification, endSession

    /// How the confirmation page and the audit log name it.
    var title: String {
        switch self {
        case .disable: "Disable the account"
        case .enable: "Enable the account"
        case .unlock: "Unlock the account"
        case .revoke: "Revoke every session"
        case .delete: "Delete the account"
        case .claims: "Replace the custom claims"
        case .removeFactor: "Remove a second factor"
        case .removePasskey: "Remove a passkey"
        case .sendPasswordReset: "Email a password-reset link"
        case .sendVerification: "Email a verification link"
        case .endSession: "End a session"
        }
    }
}

/// The users pages' reads and actions, through the operator's own endpoints' flows.
extension ConsoleFlow {
    /// One page of the users list (``ConsoleUserListing``), with the federated identities of its accounts.
    func listUsers(_ listing: ConsoleUserListing) async throws -> (page: ConsoleUserPage, identities: [String: [FederatedIdentityRecord]]) {
        let page = try await node.store.read { try await $0.consoleUsers(tenant: .scoped, listing) }
        return (page, try await identities(of: page.users))
    }

    /// The federated identities of `users`, by account.
    func identities(of users: [UserRecord]) async throws -> [String: [FederatedIdentityRecord]] {
        guard !users.isEmpty else { return [:] }
        let ids = users.map(\.localID)
        return try await node.store.read { try await $0.federatedIdentities(tenant: .scoped, localIDs: ids) }
    }

    /// The exact match a search asks for: an email, or a phone number (normalized to E.164). A number without `+` or
    /// `00` is read in `region`'s national format when a region is given, else as international digits.
    static func exactFilter(_ query: String, region: String?) -> UserFilter? {
        if query.contains("@") { return EmailAddress.normalize(query).map(UserFilter.email) }
        let separators = Set(" -.()/")
        guard query.count >= 7, query.allSatisfy({ $0.isASCII && ($0.isNumber || separators.contains($0) || $0 == "+") }) else { return nil }
        let text = String(query.map { $0 == "/" ? " " : $0 })
        if let region { return (try? PhoneNumber(parsing: text, region: region)).map { UserFilter.phoneNumber($0.e164) } }
        var international = text
        if international.hasPrefix("00") { international = "+" + international.dropFirst(2) }
        if !international.hasPrefix("+") { international = "+" + international }
        return (try? PhoneNumber(parsing: international)).map { UserFilter.phoneNumber($0.e164) }
    }

    /// The account lockout's operator actions.
    var locks: AccountLocks { AccountLocks(node: node) }

    /// The locks holding now of `users`' addresses, by local ID.
    func heldLocks(of users: [UserRecord]) async throws -> [String: AccountLock] { try await locks.held(of: users) }

    /// The account as the operator's `accounts:lookup` answers it.
    func account(_ localID: String) async throws -> AccountJSON? {
        let wire = try WireDecoder.decode(LookupRequest.self, from: ["localId": .array([.string(localID)])])
        return try await accounts.lookupAccounts(wire).users?.first
    }

    /// Runs `action` on the account `localID` as the operator `caller` from `ip`, through the operator's
    /// `accounts:update` / `accounts:delete` / `accounts:sendOobCode` flow, then records an `ADMIN_ACTION` event naming the action; the flows'
    /// own events (revocations, deletions, second-factor and passkey changes) carry the operator's email as their actor
    /// too. `factor` names the second factor `removeFactor` removes, `passkey` the credential ID `removePasskey` does,
    /// `session` the session `endSession` ends.
    /// - Throws: the flow's ``FlintCore/AuthError`` (an invalid claims document, an unknown account…).
    func perform(
        _ action: ConsoleUserAction, on localID: String, claims: String?, factor: String?, passkey: String? = nil, session: String? = nil,
        by caller: ConsoleCaller, ip: String?
    ) async throws {
        let origin = AuditOrigin.console(ip: ip, actor: caller.email)
        origin.notes.subject = localID
        try await AuditOrigin.$current.withValue(origin) {
            switch action {
            case .delete:
                _ = try await accounts.deleteAccount(localID: localID)
            case .disable, .enable:
                try await update(localID, ["disableUser": .bool(action == .disable)])
            case .unlock:
                // Audited as `ACCOUNT_UNLOCKED` when the account was locked.
                _ = try await locks.unlock(localID)
            case .revoke:
                try await update(localID, ["validSince": .string(String(node.clock.now().secondsSince1970))])
            case .claims:
                try await update(localID, ["customAttributes": .string(claims ?? "")])
            case .removeFactor:
                guard let account = try await account(localID) else { throw AuthError.userNotFound }
                let factors = account.mfaInfo ?? []
                guard let factor, factors.contains(where: { $0.mfaEnrollmentId == factor }) else {
                    throw AuthError.invalidArgument("The account has no second factor with this enrolment ID.")
                }
                let kept = factors.filter { $0.mfaEnrollmentId != factor }.map(Self.kept)
                try await update(localID, ["mfa": .object(["enrollments": .array(kept)])])
            case .removePasskey:
                guard let account = try await account(localID) else { throw AuthError.userNotFound }
                guard let passkey, (account.passkeyInfo ?? []).contains(where: { $0.credentialId == passkey }) else {
                    throw AuthError.invalidArgument("The account has no passkey with this credential ID.")
                }
                // `accounts:update`'s `deletePasskey`, as the operator's API withdraws one: audited, sessions ended.
                try await update(localID, ["deletePasskey": .array([.string(passkey)])])
            case .endSession:
                guard let session, !session.isEmpty else { throw AuthError.sessionNotFound }
                try await sessions.endForOperator(localID: localID, sessionID: session)
            case .sendPasswordReset, .sendVerification:
                guard let email = try await account(localID)?.email else { throw AuthError.invalidArgument("The account has no email.") }
                let type = action == .sendPasswordReset ? "PASSWORD_RESET" : "VERIFY_EMAIL"
                let wire = try WireDecoder.decode(SendOobCodeRequest.self, from: ["requestType": .string(type), "email": .string(email)])
                _ = try await emailLink.sendOobCode(wire, caller: .admin, clientIP: ip, locales: [])
            }
        }
        var detail: [String: JSONValue] = [:]
        if let factor, action == .removeFactor { detail["mfaEnrollmentId"] = .string(factor) }
        if let passkey, action == .removePasskey { detail["credentialId"] = .string(passkey) }
        if let session, action == .endSession { detail["session"] = .string(session) }
        await recordAction(action.rawValue, on: localID, origin: origin, detail)
    }

    /// Records the `ADMIN_ACTION` event of a console action `name` on the account `localID`, with `detail`.
    private func recordAction(_ name: String, on localID: String, origin: AuditOrigin, _ detail: [String: JSONValue] = [:]) async {
        var detail = detail
        detail["action"] = .string(name)
        detail["via"] = "console"
        await node.recordAudit(origin.event(.adminAction, uid: localID, at: node.clock.now(), detail))
    }

    /// Creates an account as the operator `caller` from `ip`, through the operator's account create (`signUp` by an
    /// operator, as `flint users create` runs it): an email with a password, a phone number, or both, each checked by
    /// that flow's rules; then records an `ADMIN_ACTION` event (`create`). Empty fields are left out.
    /// - Returns: the new account's local ID.
    /// - Throws: the flow's ``FlintCore/AuthError`` (`EMAIL_EXISTS`, `INVALID_PHONE_NUMBER`, a weak password…).
    func createUser(
        email: String, password: String, phone: String, displayName: String, emailVerified: Bool, by caller: ConsoleCaller, ip: String?
    ) async throws -> String {
        let (email, phone) = (email.trimmingSpaces, phone.trimmingSpaces)
        guard !email.isEmpty || !phone.isEmpty else { throw AuthError.invalidArgument("Give an email and a password, or a phone number.") }
        if !email.isEmpty && password.isEmpty { throw AuthError.missingPassword }
        if email.isEmpty && !password.isEmpty { throw AuthError.invalidArgument("A password needs an email.") }
        var body: [String: JSONValue] = [:]
        if !email.isEmpty {
            body["email"] = .string(email)
            body["password"] = .string(password)
            body["emailVerified"] = .bool(emailVerified)
        }
        if !phone.isEmpty { body["phoneNumber"] = .string(phone) }
        if !displayName.trimmingSpaces.isEmpty { body["displayName"] = .string(displayName.trimmingSpaces) }
        let origin = AuditOrigin.console(ip: ip, actor: caller.email)
        let created = try await AuditOrigin.$current.withValue(origin) { try await operatorAccounts.create(body) }
        guard let localID = created["localId"]?.stringValue else { throw AuthError.invalidArgument("The account was not created.") }
        await recordAction("create", on: localID, origin: origin)
        return localID
    }

    /// The operator's `accounts:update` with `body` (and `localId`).
    private func update(_ localID: String, _ body: [String: JSONValue]) async throws {
        var body = body
        body["localId"] = .string(localID)
        _ = try await accounts.updateAccount(try WireDecoder.decode(UpdateAccountRequest.self, from: body), localID: localID, token: nil)
    }

    /// A second factor the account keeps, as the Admin SDKs send it in `mfa.enrollments`.
    private static func kept(_ factor: MFAInfoJSON) -> JSONValue {
        var entry: [String: JSONValue] = ["mfaEnrollmentId": .string(factor.mfaEnrollmentId), "enrolledAt": .string(factor.enrolledAt)]
        if let name = factor.displayName { entry["displayName"] = .string(name) }
        if factor.totpInfo != nil {
            entry["totpInfo"] = .object([:])
        } else if let phone = factor.unobfuscatedPhoneInfo ?? factor.phoneInfo {
            entry["phoneInfo"] = .string(phone)
        }
        return .object(entry)
    }
}

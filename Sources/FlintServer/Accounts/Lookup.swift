import FlintCore
import FlintStore
import Hummingbird

/// `accounts:lookup` (v1), `relyingparty/getAccountInfo` (v3) and the admin form under `projects/{p}`.
/// A user sends `idToken`; the operator may instead name users by `localId`, `phoneNumber`, `email` and
/// `federatedUserId` lists (a provider's ID and the user's ID there).
package struct LookupRequest: Decodable {
    /// A user's ID at a provider, as `federatedUserId` names it.
    struct FederatedUserID: Decodable {
        var providerId: String?
        var rawId: String?
    }

    var idToken: String?
    /// Repeated fields, named in the singular on the wire (a single string is a one-element list).
    var localIds: [String]
    var phoneNumbers: [String]
    var emails: [String]
    var federatedUserIds: [FederatedUserID]
    var initialEmails: [String]

    private enum CodingKeys: String, CodingKey {
        case idToken
        case localIds = "localId"
        case phoneNumbers = "phoneNumber"
        case emails = "email"
        case federatedUserIds = "federatedUserId"
        case initialEmails = "initialEmail"
    }

    /// Whether the operator names accounts (rather than sending a user's token).
    var namesAccounts: Bool {
        !localIds.isEmpty || !phoneNumbers.isEmpty || !emails.isEmpty || !federatedUserIds.isEmpty || !initialEmails.isEmpty
    }
}

package struct LookupResponse: ResponseEncodable {
    var kind = "identitytoolkit#GetAccountInfoResponse"
    package var users: [AccountJSON]?
}

struct AccountRoutes {
    let accounts: AccountsFlow

    func lookup(_ request: Request, context: FlintRequestContext) async throws -> LookupResponse {
        let wire = try await context.clientBody(request, as: LookupRequest.self, projectID: accounts.node.settings.projectID)
        if context.isAdmin && (wire.idToken == nil || wire.namesAccounts) { return try await accounts.lookupAccounts(wire) }
        let (_, user) = try await accounts.sessions.authenticate(idToken: wire.idToken)
        let account = try await accounts.node.store.read { try await AccountsFlow.account(user, in: $0) }
        return LookupResponse(users: [account])
    }
}

extension AccountsFlow {
    /// A `federatedUserId` entry's provider and ID there; both are required.
    static func providerIdentity(_ id: LookupRequest.FederatedUserID) throws(AuthError) -> (provider: String, rawID: String) {
        guard let provider = id.providerId, !provider.isEmpty else { throw AuthError(code: "INVALID_PROVIDER_ID") }
        guard let raw = id.rawId, !raw.isEmpty else { throw AuthError.invalidArgument("federatedUserId needs a rawId.") }
        return (provider, raw)
    }

    /// `user` as a lookup answers it: with its second factors, federated identities and passkeys.
    static func account(_ user: UserRecord, in r: some Reads) async throws -> AccountJSON {
        var account = AccountJSON(
            user, enrollments: try await r.mfaEnrollments(tenant: .scoped, localID: user.localID),
            identities: try await r.federatedIdentities(tenant: .scoped, localID: user.localID))
        account.passkeyInfo = PasskeyInfoJSON.list(try await r.passkeys(tenant: .scoped, localID: user.localID))
        return account
    }

    /// The account whose provider `provider` has the ID `rawID`: for `password` (its ID is the email) and `phone`
    /// (the number), the account holding them as its own; for any other provider, the stored federated identity's.
    static func user(linkedTo identity: (provider: String, rawID: String), in reader: any UsersReads) async throws -> UserRecord? {
        var user: UserRecord?
        switch identity.provider {
        case "password":
            if let email = EmailAddress.normalize(identity.rawID) { user = try await reader.user(tenant: .scoped, email: email) }
        case "phone":
            if let phone = try? PhoneNumber(wire: identity.rawID).e164 { user = try await reader.user(tenant: .scoped, phoneNumber: phone) }
        default:
            return try await reader.user(tenant: .scoped, federatedID: FederatedIdentityKey(providerID: identity.provider, rawID: identity.rawID))
        }
        guard let user, AccountJSON.providers(of: user).contains(where: { $0.providerId == identity.provider }) else { return nil }
        return user
    }
}

extension AccountsFlow {
    /// The operator's lookup: each account named (by ID, number, email or provider identity) once, with its second
    /// factors; `users` is left out when none is found, as Firebase does.
    package func lookupAccounts(_ wire: LookupRequest) async throws -> LookupResponse {
        // Flint keeps no address an account had before an email change: refused rather than answered with nothing.
        if !wire.initialEmails.isEmpty {
            throw AuthError.invalidArgument("Lookup by initialEmail is not supported: Flint keeps no account's first email address.")
        }
        let federated = try wire.federatedUserIds.map { id throws(AuthError) in try Self.providerIdentity(id) }
        let phones = try wire.phoneNumbers.map { text throws(AuthError) in try PhoneNumber(wire: text).e164 }
        let emails = wire.emails.compactMap(EmailAddress.normalize)
        let ids = wire.localIds
        let answers = try await node.store.read { r in
            try await Self.accounts(ids: ids, phones: phones, emails: emails, federated: federated, in: r)
        }
        return LookupResponse(users: answers.isEmpty ? nil : answers)
    }

    /// Each account named once, however many times and ways it is named, as a lookup answers it.
    private static func accounts(
        ids: [String], phones: [String], emails: [String], federated: [(provider: String, rawID: String)], in r: some Reads
    ) async throws -> [AccountJSON] {
        var found: [UserRecord] = []
        func add(_ user: UserRecord?) {
            if let user, !found.contains(where: { $0.localID == user.localID }) { found.append(user) }
        }
        for id in ids { add(try await r.user(tenant: .scoped, localID: id)) }
        for p in phones { add(try await r.user(tenant: .scoped, phoneNumber: p)) }
        for e in emails { add(try await r.user(tenant: .scoped, email: e)) }
        for identity in federated { add(try await Self.user(linkedTo: identity, in: r)) }
        var answers: [AccountJSON] = []
        for user in found { answers.append(try await account(user, in: r)) }
        return answers
    }
}

import FlintCore
import FlintStore
import Hummingbird

/// `accounts:lookup` (v1), `relyingparty/getAccountInfo` (v3) and the admin form under `projects/{p}`.
/// A user sends `idToken`; the operator may instead name users by `localId`, `phoneNumber` and `email` lists.
struct LookupRequest: Decodable {
    var idToken: String?
    /// Repeated fields, named in the singular on the wire (a single string is a one-element list).
    var localIds: [String]
    var phoneNumbers: [String]
    var emails: [String]

    private enum CodingKeys: String, CodingKey {
        case idToken
        case localIds = "localId"
        case phoneNumbers = "phoneNumber"
        case emails = "email"
    }
}

struct LookupResponse: ResponseEncodable {
    var kind = "identitytoolkit#GetAccountInfoResponse"
    var users: [AccountJSON]?
}

struct AccountRoutes {
    let services: AuthServices

    func lookup(_ request: Request, context: FlintRequestContext) async throws -> LookupResponse {
        try context.requireClient()
        try checkAdminPath(context)
        let wire = try await request.decode(as: LookupRequest.self, context: context)
        if context.isAdmin && (wire.idToken == nil || !wire.localIds.isEmpty || !wire.phoneNumbers.isEmpty || !wire.emails.isEmpty) {
            let phones = try wire.phoneNumbers.map { text throws(AuthError) in try services.parsePhoneNumber(text).e164 }
            let emails = wire.emails.compactMap(EmailAddress.normalize)
            let ids = wire.localIds
            // Each account once, however many times and ways it is named, with its second factors.
            let accounts = try await services.store.read { r -> [AccountJSON] in
                var found: [UserRecord] = []
                func add(_ user: UserRecord?) {
                    if let user, !found.contains(where: { $0.localID == user.localID }) { found.append(user) }
                }
                for id in ids { add(try await r.user(localID: id)) }
                for p in phones { add(try await r.user(phoneNumber: p)) }
                for e in emails { add(try await r.user(email: e)) }
                var accounts: [AccountJSON] = []
                for user in found { accounts.append(AccountJSON(user, enrollments: try await r.mfaEnrollments(localID: user.localID))) }
                return accounts
            }
            return LookupResponse(users: accounts.isEmpty ? nil : accounts)
        }
        let (_, user) = try await services.authenticate(idToken: wire.idToken)
        let enrollments = try await services.store.read { try await $0.mfaEnrollments(localID: user.localID) }
        return LookupResponse(users: [AccountJSON(user, enrollments: enrollments)])
    }
}

extension AccountRoutes {
    func checkAdminPath(_ context: FlintRequestContext) throws(AuthError) {
        try services.checkAdminPath(context)
    }
}

extension AuthServices {
    /// The `v1/projects/{project}/...` forms are the Admin SDKs': operator only, and for this server's project.
    func checkAdminPath(_ context: FlintRequestContext) throws(AuthError) {
        guard let project = context.parameters.get("project") else { return }
        try context.requireAdmin()
        guard project == settings.projectID else { throw AuthError.projectNotFound }
    }
}

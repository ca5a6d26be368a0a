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
    let accounts: AccountsFlow

    func lookup(_ request: Request, context: FlintRequestContext) async throws -> LookupResponse {
        let wire = try await context.clientBody(request, as: LookupRequest.self, projectID: accounts.node.settings.projectID)
        if context.isAdmin && (wire.idToken == nil || !wire.localIds.isEmpty || !wire.phoneNumbers.isEmpty || !wire.emails.isEmpty) {
            let phones = try wire.phoneNumbers.map { text throws(AuthError) in try PhoneNumber(wire: text).e164 }
            let emails = wire.emails.compactMap(EmailAddress.normalize)
            let ids = wire.localIds
            // Each account once, however many times and ways it is named, with its second factors.
            let answers = try await accounts.node.store.read { r -> [AccountJSON] in
                var found: [UserRecord] = []
                func add(_ user: UserRecord?) {
                    if let user, !found.contains(where: { $0.localID == user.localID }) { found.append(user) }
                }
                for id in ids { add(try await r.user(localID: id)) }
                for p in phones { add(try await r.user(phoneNumber: p)) }
                for e in emails { add(try await r.user(email: e)) }
                var answers: [AccountJSON] = []
                for user in found { answers.append(AccountJSON(user, enrollments: try await r.mfaEnrollments(localID: user.localID))) }
                return answers
            }
            return LookupResponse(users: answers.isEmpty ? nil : answers)
        }
        let (_, user) = try await accounts.sessions.authenticate(idToken: wire.idToken)
        let enrollments = try await accounts.node.store.read { try await $0.mfaEnrollments(localID: user.localID) }
        return LookupResponse(users: [AccountJSON(user, enrollments: enrollments)])
    }
}

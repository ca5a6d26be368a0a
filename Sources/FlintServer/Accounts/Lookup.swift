import FlintCore
import FlintStore
import Hummingbird

/// `accounts:lookup` (v1), `relyingparty/getAccountInfo` (v3) and the admin form under `projects/{p}`.
/// A user sends `idToken`; the operator may instead name users by `localId`, `phoneNumber` and `email` lists.
struct LookupRequest {
    var idToken: String?
    var localIds: [String]
    var phoneNumbers: [String]
    var emails: [String]

    init(_ body: WireBody) throws(AuthError) {
        idToken = try body.string("idToken")
        localIds = try body.stringList("localId")
        phoneNumbers = try body.stringList("phoneNumber")
        emails = try body.stringList("email")
    }
}

struct LookupResponse: Encodable {
    var kind = "identitytoolkit#GetAccountInfoResponse"
    var users: [AccountJSON]?
}

struct AccountRoutes {
    let services: AuthServices

    func lookup(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        try checkAdminPath(context)
        let wire = try LookupRequest(try await WireBody.read(request))
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
            return try JSONReply.make(LookupResponse(users: accounts.isEmpty ? nil : accounts))
        }
        let (_, user) = try await services.authenticate(idToken: wire.idToken)
        let enrollments = try await services.store.read { try await $0.mfaEnrollments(localID: user.localID) }
        return try JSONReply.make(LookupResponse(users: [AccountJSON(user, enrollments: enrollments)]))
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

extension WireBody {
    /// A repeated string field (a single string is taken as a one-element list).
    func stringList(_ name: String) throws(AuthError) -> [String] {
        switch fields[name] {
        case nil, .null?: return []
        case .string(let s)?: return [s]
        case .array(let items)?:
            var out: [String] = []
            for item in items {
                guard let s = item.stringValue else { throw AuthError.invalidJSON("Invalid value at '\(Self.snakeCase(name))' (TYPE_STRING)") }
                out.append(s)
            }
            return out
        case .some: throw AuthError.invalidJSON("Invalid value at '\(Self.snakeCase(name))' (TYPE_STRING)")
        }
    }
}

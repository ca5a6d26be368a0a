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
            let users = try await services.store.read { r -> [UserRecord] in
                var found: [UserRecord] = []
                for id in ids { if let u = try await r.user(localID: id) { found.append(u) } }
                for p in phones { if let u = try await r.user(phoneNumber: p), !found.contains(u) { found.append(u) } }
                for e in emails { if let u = try await r.user(email: e), !found.contains(u) { found.append(u) } }
                return found
            }
            return try JSONReply.make(LookupResponse(users: users.isEmpty ? nil : users.map { AccountJSON($0) }))
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

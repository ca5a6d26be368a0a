import FlintCore
import FlintStore
import Hummingbird

/// `v1/projects/{p}/accounts:query` (and `v1/projects/{p}:queryAccounts`): accounts matching an exact email, phone
/// number or user ID (the first `expression` only, and in it the first of those three), sorted, in a window of at
/// most 500; or with `returnUserInfo: false` only how many match.
struct QueryAccountsRequest: Decodable {
    /// One condition; only the first of `email`, `phoneNumber`, `userId` counts.
    struct Expression: Decodable {
        var email: String?
        var phoneNumber: String?
        var userId: String?
    }

    var returnUserInfo: Bool?
    var limit: Int64
    var offset: Int64
    var sortBy: String?
    var order: String?
    var expression: [Expression]
    var tenantId: String?
}

struct QueryAccountsResponse: ResponseEncodable {
    /// The number of accounts answered, or with `returnUserInfo: false` the number matching.
    var recordsCount: String
    var userInfo: [AccountJSON]?
}

extension UserAdminFlow {
    /// Accounts per query unless told, and at most (Firebase's limit).
    static let maximumQueryResults: Int64 = 500

    func queryAccounts(_ wire: QueryAccountsRequest) async throws -> QueryAccountsResponse {
        if let tenant = wire.tenantId, !tenant.isEmpty { throw AuthError.tenantNotFound }
        guard wire.limit >= 0, wire.offset >= 0 else { throw AuthError.invalidArgument("limit and offset must not be negative.") }
        let sortBy = try Self.sortField(wire.sortBy)
        let descending = try Self.isDescending(wire.order)
        let filter = wire.expression.first.flatMap(Self.filter)
        if wire.returnUserInfo == false {
            let count = try await node.store.read { try await $0.userCount(tenant: .scoped, matching: filter) }
            return QueryAccountsResponse(recordsCount: String(count))
        }
        let limit = wire.limit == 0 ? Self.maximumQueryResults : min(wire.limit, Self.maximumQueryResults)
        let query = UserQuery(
            filter: filter, sortBy: sortBy, descending: descending, offset: Int(min(wire.offset, Int64(Int32.max))), limit: Int(limit))
        let (users, enrollments, identities, passkeys) = try await node.store.read { r in try await Self.query(query, in: r) }
        let answers = users.map {
            var account = AccountJSON($0, enrollments: enrollments[$0.localID] ?? [], identities: identities[$0.localID] ?? [])
            account.passkeyInfo = PasskeyInfoJSON.list(passkeys[$0.localID] ?? [])
            return account
        }
        return QueryAccountsResponse(recordsCount: String(answers.count), userInfo: answers.isEmpty ? nil : answers)
    }

    /// The accounts a query finds, with their factors.
    private static func query(_ query: UserQuery, in r: some Reads) async throws -> Listing {
        try await listing(try await r.users(tenant: .scoped, matching: query), in: r)
    }

    /// The store's filter for one expression: the first of email (compared lower-cased), phone number (in E.164 when
    /// it parses) and user ID; `nil` for an empty expression.
    static func filter(_ expression: QueryAccountsRequest.Expression) -> UserFilter? {
        if let email = expression.email, !email.isEmpty { return .email(EmailAddress.normalize(email) ?? email.lowercased()) }
        if let phone = expression.phoneNumber, !phone.isEmpty { return .phoneNumber((try? PhoneNumber(wire: phone).e164) ?? phone) }
        if let id = expression.userId, !id.isEmpty { return .localID(id) }
        return nil
    }

    /// `sortBy` by name or proto number; unspecified is `USER_ID`.
    static func sortField(_ text: String?) throws(AuthError) -> UserSortField {
        let numbered = ["0": "SORT_BY_FIELD_UNSPECIFIED", "1": "USER_ID", "2": "NAME", "3": "CREATED_AT", "4": "LAST_LOGIN_AT", "5": "USER_EMAIL"]
        let name = text.map { numbered[$0] ?? $0 } ?? ""
        if name.isEmpty || name == "SORT_BY_FIELD_UNSPECIFIED" { return .userID }
        let field = UserSortField(rawValue: name)
        guard field.isKnown else { throw Self.invalidEnum("sort_by", "SortByField", text ?? "") }
        return field
    }

    /// `order` by name or proto number; unspecified is ascending.
    static func isDescending(_ text: String?) throws(AuthError) -> Bool {
        switch text ?? "" {
        case "", "0", "ORDER_UNSPECIFIED", "1", "ASC": false
        case "2", "DESC": true
        default: throw Self.invalidEnum("order", "Order", text ?? "")
        }
    }

    private static func invalidEnum(_ field: String, _ type: String, _ value: String) -> AuthError {
        AuthError.invalidJSON(
            "Invalid value at '\(field)' (type.googleapis.com/google.cloud.identitytoolkit.v1.QueryUserInfoRequest.\(type)), \"\(value)\"")
    }
}

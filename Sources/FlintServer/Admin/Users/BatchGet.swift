import FlintCore
import FlintStore
import Hummingbird

/// `GET v1/projects/{p}/accounts:batchGet?maxResults=&nextPageToken=` (the Admin SDKs' `list_users`), and the v3
/// `relyingparty/downloadAccount` POST with the same fields in its body. Every account in local-ID order, a page at a
/// time, with password hashes and salts as Firebase exports them.
struct DownloadAccountRequest: Decodable {
    var maxResults: Int32?
    var nextPageToken: String?
    var targetProjectId: String?
}

struct DownloadAccountResponse: ResponseEncodable {
    var kind = "identitytoolkit#DownloadAccountResponse"
    var users: [AccountJSON]?
    /// Present when more accounts follow; opaque to clients.
    var nextPageToken: String?
}

extension UserAdminRoutes {
    func batchGet(_ request: Request, context: FlintRequestContext) async throws -> DownloadAccountResponse {
        try context.requireOperator(projectID: projectID)
        let query = request.uri.queryParameters
        var wire = DownloadAccountRequest()
        if let text = query["maxResults"].map(String.init), !text.isEmpty {
            guard let value = Int32(text) else { throw AuthError.invalidJSON("Invalid value at 'max_results' (TYPE_INT32), \"\(text)\"") }
            wire.maxResults = value
        }
        wire.nextPageToken = query["nextPageToken"].map(String.init)
        return try await flow.downloadAccounts(wire)
    }

    func downloadAccount(_ request: Request, context: FlintRequestContext) async throws -> DownloadAccountResponse {
        try context.requireOperator(projectID: projectID)
        let wire = try await request.decode(as: DownloadAccountRequest.self, context: context)
        if let target = wire.targetProjectId, !target.isEmpty, target != projectID { throw AuthError.projectNotFound }
        return try await flow.downloadAccounts(wire)
    }
}

extension UserAdminFlow {
    /// Accounts per page unless told (Firebase's default), and at most.
    static let defaultPageSize: Int32 = 20
    static let maximumPageSize: Int32 = 1000

    /// One page of accounts after the one `nextPageToken` ended (from the first without one): keyset pagination on
    /// the primary key, so every page costs the same however deep; a full page carries a token (as production's do,
    /// even when no account follows: the page after it is then empty and carries none).
    func downloadAccounts(_ wire: DownloadAccountRequest) async throws -> DownloadAccountResponse {
        let size = Int(wire.maxResults.flatMap { $0 == 0 ? nil : $0 } ?? Self.defaultPageSize)
        guard (1...Int(Self.maximumPageSize)).contains(size) else {
            throw AuthError.invalidArgument("maxResults must be at least 1 and no greater than 1000.")
        }
        var after: String?
        if let token = wire.nextPageToken, !token.isEmpty {
            guard let bytes = Base64URL.decode(token), let id = String(validating: bytes, as: UTF8.self), !id.isEmpty else {
                throw AuthError(code: "INVALID_PAGE_SELECTION")
            }
            after = id
        }
        let start = after
        let (page, enrollments, identities, passkeys) = try await node.store.read { r in try await Self.page(after: start, size: size, in: r) }
        let users = page.map {
            var account = AccountJSON(
                $0, enrollments: enrollments[$0.localID] ?? [], identities: identities[$0.localID] ?? [], exportingHash: true)
            account.passkeyInfo = PasskeyInfoJSON.list(passkeys[$0.localID] ?? [], keyMaterial: true)
            return account
        }
        return DownloadAccountResponse(
            users: users.isEmpty ? nil : users, nextPageToken: page.count == size ? page.last.map { Base64URL.encode(Array($0.localID.utf8)) } : nil)
    }

    /// The page of `size` accounts after `start`, with their factors.
    private static func page(after start: String?, size: Int, in r: some Reads) async throws -> Listing {
        try await listing(try await r.users(tenant: .scoped, after: start, limit: size), in: r)
    }
}

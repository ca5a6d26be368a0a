public import FlintCore
public import FlintStore
public import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The operator's user management without HTTP, for the command line: each call takes the body the Admin SDKs send
/// to the endpoint of the same name, decodes it as that endpoint does and runs the same flow, so the rules (and the
/// errors) are the API's. Answers are the endpoint's JSON.
public struct UserConsole: Sendable {
    let flows: Flows

    /// Prepares the flows on an opened store, as a node does when it starts (the master secret and a first signing
    /// key are created if the store has none).
    public init(settings: ServerSettings, store: any AuthStore, logger: Logger) async throws {
        flows = try await Flows.start(settings: settings, store: store, logger: logger)
    }

    /// The operator's user management over a running node's flows (the web console's).
    package init(flows: Flows) { self.flows = flows }

    /// Runs `body` in the tenant `id` (``TenantScope``), as a request naming it on the Admin SDKs' tenant paths runs;
    /// the project's own users when `id` is `nil` or empty.
    /// - Throws: `TENANT_NOT_FOUND` when no tenant has that ID.
    public func inTenant<T>(_ id: String?, _ body: () async throws -> T) async throws -> T {
        guard let id, !id.isEmpty else { return try await body() }
        let settings = try flows.tenants.settings(of: id, try await flows.tenants.resolve(id), over: flows.node.config.project)
        return try await TenantScope.run(in: TenantID(rawValue: id), settings: settings, body)
    }

    /// `accounts:batchGet`: one page of accounts in local-ID order (`maxResults`, `nextPageToken`).
    public func batchGet(_ body: [String: JSONValue]) async throws -> JSONValue {
        try Self.json(try await flows.users.downloadAccounts(try WireDecoder.decode(DownloadAccountRequest.self, from: body)))
    }

    /// `accounts:lookup` by the operator: accounts by `localId`, `email`, `phoneNumber` lists.
    public func lookup(_ body: [String: JSONValue]) async throws -> JSONValue {
        try Self.json(try await flows.accounts.lookupAccounts(try WireDecoder.decode(LookupRequest.self, from: body)))
    }

    /// The operator's `signUp` (`projects/{p}/accounts`): a new account; answers its `localId`.
    public func create(_ body: [String: JSONValue]) async throws -> JSONValue {
        try Self.json(try await flows.password.adminCreateUser(try WireDecoder.decode(SignUpRequest.self, from: body)))
    }

    /// The operator's `accounts:update` (`localId` required).
    public func update(_ body: [String: JSONValue]) async throws -> JSONValue {
        let wire = try WireDecoder.decode(UpdateAccountRequest.self, from: body)
        guard let id = wire.localId, !id.isEmpty else { throw AuthError.missingLocalID }
        return try Self.json(try await flows.accounts.updateAccount(wire, localID: id, token: nil))
    }

    /// The operator's `accounts:delete` (`localId`).
    public func delete(_ body: [String: JSONValue]) async throws -> JSONValue {
        let wire = try WireDecoder.decode(DeleteAccountRequest.self, from: body)
        guard let id = wire.localId, !id.isEmpty else { throw AuthError.missingLocalID }
        return try Self.json(try await flows.accounts.deleteAccount(localID: id))
    }

    /// An account's lockout (`GET …/accounts/{localId}/lock`): `locked`, `lockedUntil`, `failures`.
    public func lock(_ localID: String) async throws -> JSONValue { try Self.json(try await flows.accountLocks.state(of: localID)) }

    /// Lifts an account's lock (`DELETE …/accounts/{localId}/lock`, audited); answers the lockout as it was.
    public func unlock(_ localID: String) async throws -> JSONValue { try Self.json(try await flows.accountLocks.unlock(localID)) }

    /// `accounts:batchDelete` (`localIds`, `force`).
    public func batchDelete(_ body: [String: JSONValue]) async throws -> JSONValue {
        try Self.json(try await flows.users.batchDelete(try WireDecoder.decode(BatchDeleteRequest.self, from: body)))
    }

    /// `blockingFunctions:dryRun` (`functionUri`, `trigger`, `days`): a blocking function replayed against the audit
    /// log's sign-ins (``BlockingDryRun``); answers the endpoint's report.
    public func blockingDryRun(_ body: [String: JSONValue]) async throws -> JSONValue {
        try Self.json(try await BlockingDryRun(node: flows.node).run(try WireDecoder.decode(BlockingDryRun.Request.self, from: body)))
    }

    /// The account's sessions, as `GET /flint/v1/projects/{p}/accounts/{localId}/sessions` answers them.
    public func sessions(localID: String) async throws -> JSONValue {
        try Self.json(SessionListResponse(sessions: try await flows.userSessions.list(localID: localID).map { SessionJSON($0) }))
    }

    /// Ends one session of the account, as `DELETE …/sessions/{session}` does (audited as the operator's).
    public func endSession(localID: String, sessionID: String) async throws {
        try await flows.userSessions.endForOperator(localID: localID, sessionID: sessionID)
    }

    /// The current time in seconds, as `revoke` sends it for `validSince` (the Admin SDKs' `revoke_refresh_tokens`).
    public var nowSeconds: Int64 { flows.node.clock.now().secondsSince1970 }

    /// An answer as JSON.
    static func json(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try JSONValue(parsing: Array(try encoder.encode(value)))
    }
}

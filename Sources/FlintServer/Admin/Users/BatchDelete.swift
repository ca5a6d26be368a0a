import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `v1/projects/{p}/accounts:batchDelete` (the Admin SDKs' `delete_users`): up to 1000 accounts in one transaction.
/// Without `force`, an account that is not disabled stays and is reported (`NOT_DISABLED`); IDs of no account are
/// skipped silently, as Firebase does. Each deleted account is an `ACCOUNT_DELETED` audit event (`batch: true`), in the
/// same transaction.
struct BatchDeleteRequest: Decodable {
    var localIds: [String]
    var force: Bool
    var tenantId: String?
}

struct BatchDeleteResponse: ResponseEncodable {
    /// One entry per account left in place, with its position in `localIds`.
    struct Failure: Encodable, Sendable, Equatable {
        var index: Int
        var localId: String
        var message: String
    }

    var errors: [Failure]?
}

extension UserAdminFlow {
    /// Accounts one batch delete may name.
    static let maximumBatchDelete = 1000

    func batchDelete(_ wire: BatchDeleteRequest) async throws -> BatchDeleteResponse {
        if let tenant = wire.tenantId, !tenant.isEmpty { throw AuthError.tenantNotFound }
        let ids = wire.localIds
        guard !ids.isEmpty, ids.count <= Self.maximumBatchDelete else { throw AuthError(code: "LOCAL_ID_LIST_EXCEEDS_LIMIT") }
        let force = wire.force
        let now = node.clock.now()
        let failures = try await node.store.write { tx in
            try await Self.delete(ids, force: force, in: tx, now: now)
        }
        node.logger.notice("accounts deleted in a batch", metadata: ["named": "\(ids.count)", "refused": "\(failures.count)"])
        return BatchDeleteResponse(errors: failures.isEmpty ? nil : failures)
    }

    /// The batch's transaction: deletes the named accounts that are disabled (all of them with `force`) and audits each;
    /// the others are the answer's failures.
    private static func delete(_ ids: [String], force: Bool, in tx: some Writes, now: Instant) async throws -> [BatchDeleteResponse.Failure] {
        let found = Dictionary(uniqueKeysWithValues: try await tx.users(tenant: .scoped, localIDs: ids).map { ($0.localID, $0) })
        var failures: [BatchDeleteResponse.Failure] = []
        var doomed: [String] = []
        for (index, id) in ids.enumerated() {
            guard let user = found[id] else { continue }
            if !force && !user.disabled {
                failures.append(.init(index: index, localId: id, message: "NOT_DISABLED : Disable the account before batch deletion."))
            } else {
                doomed.append(id)
            }
        }
        for id in try await tx.deleteUsers(tenant: .scoped, localIDs: doomed).sorted() {
            try await tx.audit(.accountDeleted, uid: id, at: now, ["batch": true])
        }
        return failures
    }
}

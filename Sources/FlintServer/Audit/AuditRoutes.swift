import FlintCore
import FlintStore
import Hummingbird

/// `GET /flint/v1/projects/{project}/auditEvents?uid=&kind=&since=&until=&tenantId=&pageSize=&pageToken=` (a Flint
/// extension, operator only): the audit log, newest first, one keyset page at a time (``AuditListing``); with
/// `tenantId`, that tenant's events alone (read from the tenant index), which an admin credential limited to the tenant
/// may list (``TenantMiddleware`` holds it to its tenants).
struct AuditRoutes {
    let node: Node

    func list(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        let query = request.uri.queryParameters
        let filter = AuditListing.Filter(
            uid: query["uid"].map(String.init), kind: query["kind"].map(String.init), since: query["since"].map(String.init),
            until: query["until"].map(String.init), pageSize: query["pageSize"].map(String.init), pageToken: query["pageToken"].map(String.init),
            tenant: try await TenantAdmin.existing(query["tenantId"].map(String.init), in: node.store))
        return try JSONReply.make(try await AuditListing.page(filter, in: node.store).json)
    }
}

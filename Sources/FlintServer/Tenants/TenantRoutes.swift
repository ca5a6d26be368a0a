import FlintCore
import Hummingbird

/// Identity Platform's tenant resources, `v2/projects/{project}/tenants[/{tenant}]`, as the Admin SDKs call them
/// (`tenant_mgt.create_tenant`…): create (`POST`, the ID made by the server), get, list (`pageSize`, `pageToken`),
/// patch (`updateMask`) and delete. Operator only; a read-scoped credential may get and list. Each answer is the
/// tenant with its `name`, `projects/{project}/tenants/{id}`.
struct TenantRoutes {
    let projectID: String
    let admin: TenantAdmin

    func create(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let body = try await request.decode(as: [String: JSONValue].self, context: context)
        let (id, tenant) = try await admin.create(body)
        return try answer(id, tenant)
    }

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let id = context.parameters.get("tenant") ?? ""
        return try answer(id, try await admin.get(id))
    }

    func list(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let query = request.uri.queryParameters
        var size: Int?
        if let text = query["pageSize"] {
            guard let n = Int(text) else { throw AuthError.invalidArgument("Invalid pageSize.") }
            size = n
        }
        let page = try await admin.list(pageSize: size, pageToken: query["pageToken"].map(String.init))
        var out: [String: JSONValue] = [:]
        if !page.tenants.isEmpty { out["tenants"] = .array(page.tenants.map { .object($0.tenant.resource(projectID: projectID, id: $0.id)) }) }
        if let next = page.nextPageToken { out["nextPageToken"] = .string(next) }
        return try JSONReply.make(JSONValue.object(out))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let id = context.parameters.get("tenant") ?? ""
        let patch = try await request.decode(as: [String: JSONValue].self, context: context)
        let mask = request.updateMask
        return try answer(id, try await admin.update(id, patch: patch, updateMask: mask))
    }

    func delete(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        try await admin.delete(context.parameters.get("tenant") ?? "")
        return try JSONReply.make(JSONValue.object([:]))
    }

    /// The operator, for this node's project (another is `INVALID_PROJECT_ID`, as for a project without tenants).
    private func check(_ context: FlintRequestContext) throws(AuthError) {
        try context.requireAdmin()
        guard context.parameters.get("project") == projectID else { throw AuthError.invalidProjectID }
    }

    private func answer(_ id: String, _ tenant: TenantConfig) throws -> Response {
        try JSONReply.make(JSONValue.object(tenant.resource(projectID: projectID, id: id)))
    }
}

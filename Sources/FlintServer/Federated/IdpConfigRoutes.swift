import FlintCore
import Hummingbird

/// Identity Platform's provider resources under `v2/projects/{project}/defaultSupportedIdpConfigs`,
/// `…/oauthIdpConfigs` and `…/inboundSamlConfigs`, and the same under `v2/projects/{project}/tenants/{tenant}/`, as the
/// Admin SDKs call them (`auth.create_oidc_provider_config`, `create_saml_provider_config`, the same on
/// `tenant_mgt.auth_for_tenant(…)`): create (`?idpId=` / `?oauthIdpConfigId=` / `?inboundSamlConfigId=`), get, patch
/// (`updateMask`), delete and list (`pageSize`, `pageToken`). Operator only. The rules are ``IdpConfigAdmin``'s: the
/// project's resources live in the project config (stored and announced as every config change is), a tenant's in the
/// tenant's document (changed through ``TenantAdmin``, `TENANT_NOT_FOUND` for an unknown tenant).
struct IdpConfigRoutes {
    let collection: ProjectConfig.IdpCollection
    let projectID: String
    let config: ConfigCache
    let tenants: TenantAdmin
    let clock: any WallClock
    let spKeys: SAMLServiceProviderKeys

    /// The query parameter that names a new resource.
    private var idParameter: String {
        switch collection {
        case .defaultSupported: "idpId"
        case .oauth: "oauthIdpConfigId"
        case .saml: "inboundSamlConfigId"
        }
    }

    func create(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let admin = try admin(context)
        guard let id = request.uri.queryParameters[Substring(idParameter)].map(String.init), !id.isEmpty else {
            throw AuthError.invalidArgument("Missing \(idParameter).")
        }
        let body = try await request.decode(as: [String: JSONValue].self, context: context)
        return try answer(admin, id, try await admin.create(id, body))
    }

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let admin = try admin(context)
        let id = context.parameters.get("idp") ?? ""
        return try answer(admin, id, try await admin.get(id))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let admin = try admin(context)
        let id = context.parameters.get("idp") ?? ""
        let patch = try await request.decode(as: [String: JSONValue].self, context: context)
        return try answer(admin, id, try await admin.update(id, patch: patch, updateMask: request.updateMask))
    }

    func delete(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await admin(context).delete(context.parameters.get("idp") ?? "")
        return try JSONReply.make(JSONValue.object([:]))
    }

    func list(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let admin = try admin(context)
        var size: Int?
        if let text = request.uri.queryParameters["pageSize"] {
            guard let n = Int(text) else { throw AuthError.invalidArgument("Invalid pageSize.") }
            size = n
        }
        let page = try await admin.list(pageSize: size, pageToken: request.uri.queryParameters["pageToken"].map(String.init))
        var out: [String: JSONValue] = [:]
        if !page.resources.isEmpty { out[collection.rawValue] = .array(page.resources.map { .object(admin.answer($0.id, $0.resource)) }) }
        if let next = page.next { out["nextPageToken"] = .string(next) }
        return try JSONReply.make(JSONValue.object(out))
    }

    /// The operator's operations where the path says the resources live: the tenant it names, else the project's
    /// config.
    private func admin(_ context: FlintRequestContext) throws -> IdpConfigAdmin {
        try context.requireOperator(projectID: projectID)
        if let tenant = context.parameters.get("tenant") {
            return .tenant(collection, tenant, projectID: projectID, tenants: tenants, spKeys: spKeys)
        }
        return .project(collection, projectID: projectID, config: config, clock: clock, spKeys: spKeys)
    }

    private func answer(_ admin: IdpConfigAdmin, _ id: String, _ resource: [String: JSONValue]) throws -> Response {
        try JSONReply.make(JSONValue.object(admin.answer(id, resource)))
    }
}

import FlintCore
import Hummingbird

/// Identity Platform's provider resources under `v2/projects/{project}/defaultSupportedIdpConfigs` and
/// `v2/projects/{project}/oauthIdpConfigs`, as the Admin SDKs call them (`auth.create_oidc_provider_config`…):
/// create (`?idpId=` / `?oauthIdpConfigId=`), get, patch (`updateMask`), delete and list (`pageSize`, `pageToken`).
/// Operator only. The resources live in the project config (``ProjectConfig/IdpCollection``), stored and announced
/// as every config change is.
struct IdpConfigRoutes {
    let collection: ProjectConfig.IdpCollection
    let projectID: String
    let config: ConfigCache
    let clock: any WallClock

    /// The query parameter that names a new resource.
    private var idParameter: String { collection == .oauth ? "oauthIdpConfigId" : "idpId" }

    /// Most resources one page lists.
    static let maxPageSize = 100

    func create(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireOperator(projectID: projectID)
        guard let id = request.uri.queryParameters[Substring(idParameter)].map(String.init), !id.isEmpty else {
            throw AuthError.invalidArgument("Missing \(idParameter).")
        }
        try checkID(id)
        let body = try await request.decode(as: [String: JSONValue].self, context: context)
        guard config.current.idpResources(collection)[id] == nil else { throw AuthError.idpConfigExists }
        let resource = Self.writable(body)
        let saved = try await save(id, resource, change: ["created": .string(id)])
        return try JSONReply.make(JSONValue.object(resourceJSON(id, saved)))
    }

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireOperator(projectID: projectID)
        let id = try existingID(context)
        return try JSONReply.make(JSONValue.object(resourceJSON(id, config.current.idpResources(collection)[id] ?? [:])))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireOperator(projectID: projectID)
        let id = try existingID(context)
        let patch = try await request.decode(as: [String: JSONValue].self, context: context)
        let mask = request.updateMask
        var resource = config.current.idpResources(collection)[id] ?? [:]
        let paths = mask ?? collection.updatablePaths.filter { !$0.contains(".") && patch[$0] != nil }
        for path in paths {
            guard collection.updatablePaths.contains(path) else { throw AuthError.invalidArgument("Invalid update mask path: \(path)") }
            Self.copy(path, from: patch, into: &resource)
        }
        let saved = try await save(id, resource, change: ["updated": .string(id), "updateMask": .array(paths.map(JSONValue.string))])
        return try JSONReply.make(JSONValue.object(resourceJSON(id, saved)))
    }

    func delete(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireOperator(projectID: projectID)
        let id = try existingID(context)
        let updated = try config.current.setting(idp: id, in: collection, to: nil)
        try await config.save(updated, at: clock.now(), change: ["deleted": .string(id), "collection": .string(collection.rawValue)])
        return try JSONReply.make(JSONValue.object([:]))
    }

    func list(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireOperator(projectID: projectID)
        var size = Self.maxPageSize
        if let text = request.uri.queryParameters["pageSize"] {
            guard let n = Int(text), n >= 0 else { throw AuthError.invalidArgument("Invalid pageSize.") }
            if n > 0 { size = min(n, Self.maxPageSize) }
        }
        // Pages in provider-ID order; the token is the last ID of the page before.
        let after = request.uri.queryParameters["pageToken"].map(String.init) ?? ""
        let resources = config.current.idpResources(collection)
        let ids = resources.keys.sorted().filter { after.isEmpty || $0 > after }
        let page = ids.prefix(size)
        var out: [String: JSONValue] = [:]
        if !page.isEmpty { out[collection.rawValue] = .array(page.map { .object(resourceJSON($0, resources[$0] ?? [:])) }) }
        if ids.count > size, let last = page.last { out["nextPageToken"] = .string(last) }
        return try JSONReply.make(JSONValue.object(out))
    }

    // MARK: Helpers

    private func save(_ id: String, _ resource: [String: JSONValue], change: [String: JSONValue]) async throws -> [String: JSONValue] {
        try await config.saveIdentityProvider(id, in: collection, resource, at: clock.now(), change: change) ?? resource
    }

    private func checkID(_ id: String) throws(AuthError) {
        guard collection.accepts(id) else { throw AuthError.invalidProviderID }
    }

    private func existingID(_ context: FlintRequestContext) throws(AuthError) -> String {
        guard let id = context.parameters.get("idp") else { throw AuthError.idpConfigNotFound }
        try checkID(id)
        guard config.current.idpResources(collection)[id] != nil else { throw AuthError.idpConfigNotFound }
        return id
    }

    /// The resource as answered: its `name`, then its fields.
    private func resourceJSON(_ id: String, _ resource: [String: JSONValue]) -> [String: JSONValue] {
        var out = resource
        out["name"] = .string("projects/\(projectID)/\(collection.rawValue)/\(id)")
        return out
    }

    /// What a create body may set: the resource's fields without `name`.
    private static func writable(_ body: [String: JSONValue]) -> [String: JSONValue] {
        var out = body
        out["name"] = nil
        return out
    }

    /// Copies one dotted path (`responseType.code`) from `patch` into `resource`; a path absent from `patch` is cleared.
    private static func copy(_ path: String, from patch: [String: JSONValue], into resource: inout [String: JSONValue]) {
        let keys = path.split(separator: ".").map(String.init)
        var source: JSONValue? = .object(patch)
        for key in keys { source = source?[key] }
        guard keys.count == 2 else {
            resource[keys[0]] = source
            return
        }
        var inner = resource[keys[0]]?.objectValue ?? [:]
        inner[keys[1]] = source
        resource[keys[0]] = .object(inner)
    }
}

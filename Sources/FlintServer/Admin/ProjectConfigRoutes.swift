package import FlintCore
import Hummingbird

/// `GET` and `PATCH /identitytoolkit.googleapis.com/admin/v2/projects/{project}/config` (also served at the
/// `v2/projects/{project}/config` path the Admin SDKs use). Operator only.
package struct ProjectConfigRoutes {
    let projectID: String
    let config: ConfigCache
    /// When changes happen, for their audit events.
    let clock: any WallClock

    func show(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        try checkProject(context)
        return try JSONReply.make(config.current.resource(projectID: projectID))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        try checkProject(context)
        let patch = try await request.decode(as: [String: JSONValue].self, context: context)
        let mask = request.updateMask
        let updated = try await Self.update(config: config, patch: patch, updateMask: mask, at: clock.now())
        return try JSONReply.make(updated.resource(projectID: projectID))
    }

    /// Applies a patch with its `updateMask` (checked as the endpoint checks it), stores the new config with its
    /// `CONFIG_CHANGED` event at `now` and answers it. The web console's settings run this too.
    package static func update(config: ConfigCache, patch: [String: JSONValue], updateMask mask: [String]?, at now: Instant) async throws
        -> ProjectConfig
    {
        let updated = try config.project.applying(patch: patch, updateMask: mask)
        // The change's audit event names the mask, or without one the top-level fields the patch sent.
        let change: [String: JSONValue] =
            mask.map { ["updateMask": .array($0.map(JSONValue.string))] } ?? ["fields": .array(patch.keys.sorted().map(JSONValue.string))]
        try await config.save(updated, at: now, change: change)
        return updated
    }

    private func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == projectID else { throw AuthError.projectNotFound }
    }
}

/// `GET /v1/projects` and `relyingparty/getProjectConfig`: the public part of the config.
struct PublicProjectConfigResponse: ResponseEncodable {
    var projectId: String
    var authorizedDomains: [String]
}

extension ProjectConfigRoutes {
    func publicConfig(_ request: Request, context: FlintRequestContext) async throws -> PublicProjectConfigResponse {
        try context.requireClient()
        return PublicProjectConfigResponse(projectId: projectID, authorizedDomains: config.current.authorizedDomains)
    }
}

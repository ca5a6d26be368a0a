import FlintCore
import Hummingbird

/// `GET` and `PATCH /identitytoolkit.googleapis.com/admin/v2/projects/{project}/config` (also served at the
/// `v2/projects/{project}/config` path the Admin SDKs use). Operator only.
struct ProjectConfigRoutes {
    let services: AuthServices

    func show(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        try checkProject(context)
        return try JSONReply.make(services.config.current.resource(projectID: services.settings.projectID))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        try checkProject(context)
        let patch = try await request.decode(as: [String: JSONValue].self, context: context)
        let mask = request.uri.queryParameters["updateMask"].map { text in
            text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        let updated = try services.config.current.applying(patch: patch, updateMask: mask)
        try await services.config.save(updated)
        return try JSONReply.make(updated.resource(projectID: services.settings.projectID))
    }

    private func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == services.settings.projectID else { throw AuthError.projectNotFound }
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
        return PublicProjectConfigResponse(projectId: services.settings.projectID, authorizedDomains: services.config.current.authorizedDomains)
    }
}

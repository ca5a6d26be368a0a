import FlintCore
import FlintStore
import Hummingbird

/// The operators' event webhook subscriptions (a Flint extension, operator only), under
/// `/flint/v1/projects/{project}/webhooks`: list and create (`POST {"url","events":[…],"description"}`, answered once
/// with the `secret`), get, enable or disable (`PATCH {"enabled":…}`), delete; `GET …/webhooks/{webhook}/deliveries`
/// (`pageSize`, `pageToken`: keyset pages, newest first); `POST …/webhookDeliveries:replay {"delivery":"<id>"}`.
struct WebhookRoutes {
    let projectID: String
    let subscriptions: WebhookSubscriptions

    /// `POST …/webhooks`.
    struct CreateRequest: Decodable {
        var url: String?
        var events: [String]?
        var description: String?
    }

    /// `PATCH …/webhooks/{webhook}`.
    struct UpdateRequest: Decodable {
        var enabled: Bool?
    }

    /// `POST …/webhookDeliveries:replay`.
    struct ReplayRequest: Decodable {
        var delivery: String?
    }

    func list(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let all = try await subscriptions.list()
        return try JSONReply.make(JSONValue.object(["webhooks": .array(all.map { WebhookJSON.subscription($0, projectID: projectID) })]))
    }

    func create(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let wire = try await request.decode(as: CreateRequest.self, context: context)
        guard let url = wire.url, !url.isEmpty else { throw AuthError.invalidArgument("url is required") }
        let created = try await subscriptions.create(url: url, events: wire.events ?? [], description: wire.description)
        guard case .object(var out) = WebhookJSON.subscription(created.subscription, projectID: projectID) else { throw AuthError.internalError }
        out["secret"] = .string(created.secret)
        return try JSONReply.make(JSONValue.object(out))
    }

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        return try JSONReply.make(WebhookJSON.subscription(try await subscriptions.subscription(try webhook(context)), projectID: projectID))
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let wire = try await request.decode(as: UpdateRequest.self, context: context)
        guard let enabled = wire.enabled else { throw AuthError.invalidArgument("enabled is required") }
        return try JSONReply.make(WebhookJSON.subscription(try await subscriptions.setEnabled(try webhook(context), enabled), projectID: projectID))
    }

    func delete(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        try await subscriptions.remove(try webhook(context))
        return try JSONReply.make(JSONValue.object([:]))
    }

    func deliveries(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let id = try webhook(context)
        _ = try await subscriptions.subscription(id)
        let query = request.uri.queryParameters
        let size =
            try query["pageSize"].map { text throws(AuthError) in
                guard let n = Int(text), (1...WebhookSubscriptions.maxPage).contains(n) else {
                    throw AuthError.invalidArgument("pageSize must be 1 to \(WebhookSubscriptions.maxPage)")
                }
                return n
            } ?? 100
        let before = try query["pageToken"].map { text throws(AuthError) in
            guard let n = Int64(text), n > 0 else {
                throw AuthError(code: "INVALID_PAGE_SELECTION", detail: "The page token is not one this listing gave.")
            }
            return n
        }
        let page = try await subscriptions.deliveries(of: id, before: before, limit: size + 1)
        var out: [String: JSONValue] = ["deliveries": .array(page.prefix(size).map(WebhookJSON.delivery))]
        if page.count > size, let last = page[size - 1].sequence { out["nextPageToken"] = .string("\(last)") }
        return try JSONReply.make(JSONValue.object(out))
    }

    func replay(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try check(context)
        let wire = try await request.decode(as: ReplayRequest.self, context: context)
        guard let text = wire.delivery, let sequence = Int64(text) else { throw AuthError.invalidArgument("delivery must be a delivery's id") }
        try await subscriptions.replay(sequence)
        return try JSONReply.make(JSONValue.object([:]))
    }

    private func check(_ context: FlintRequestContext) throws {
        try context.requireAdmin()
        guard context.parameters.get("project") == projectID else { throw AuthError.projectNotFound }
    }

    private func webhook(_ context: FlintRequestContext) throws -> String {
        guard let id = context.parameters.get("webhook"), !id.isEmpty else { throw AuthError.notFound }
        return id
    }
}

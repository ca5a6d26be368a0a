import FlintCore
import FlintStore
import Hummingbird

/// `GET /emulator/v1/projects/{p}/pushes` (Flint extension, dev mode): the silent pushes `verifyClient` recorded
/// instead of sending, oldest first, as `{"pushes":[{"appToken","environment","payload":{…},"createdAt"}]}`.
/// A test (or a developer without a device) hands `payload` to `Auth.canHandleNotification(_:)`.
/// `?appToken=` narrows the list to one device token (hex, any case).
extension DevRoutes {
    struct Push: Encodable {
        var appToken: String
        var environment: String
        var payload: JSONValue
        var createdAt: String
    }

    func pushes(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let only = request.uri.queryParameters["appToken"].map { String($0).lowercased() }
        let messages = try await node.store.read { try await $0.outbox(limit: 10_000) }
        let pushes = messages.compactMap { m -> Push? in
            guard m.channel == .apns, only == nil || m.recipient == only,
                let payload = try? JSONValue(parsing: Array(m.body.utf8))
            else { return nil }
            return Push(appToken: m.recipient, environment: m.locale, payload: payload, createdAt: String(m.createdAt.millisecondsSince1970))
        }
        return try JSONReply.make(["pushes": pushes])
    }
}

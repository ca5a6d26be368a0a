import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird

/// Binds each request's ``AuditOrigin`` (client address; the admin credential's name — a named credential's, `bootstrap` or
/// dev mode's `owner` — when one is used) for the events its flows record, and records the two kinds only the answer tells: a sign-in endpoint's refusal (`SIGN_IN_FAILED`,
/// with the sign-in method of the endpoint it matched (``Endpoint/signIn``), Firebase's error code, and the account when the
/// flow noted one) and an operator's request that is not a read (`ADMIN_ACTION`, with method, path and status). Both
/// are written once the handler is done, in a write of their own; successful sign-ins and every change are recorded
/// inside their flow's transaction instead. The origin also carries what blocking functions are told of the client
/// (``RequestFacts``: user agent and locale).
struct AuditMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let node: Node

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var origin = AuditOrigin(
            ip: context.clientIP, actor: context.admin?.name, userAgent: request.headers[.userAgent],
            locale: request.headers[.firebaseLocale])
        origin.clientVersion = request.headers[.clientVersion]
        return try await AuditOrigin.$current.withValue(origin) { try await respond(request, context: context, origin: origin, next: next) }
    }

    private func respond(
        _ request: Request, context: Context, origin: AuditOrigin, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            await record(request, context: context, origin: origin, status: status, error: (error as? AuthError)?.code)
            throw error
        }
        // Most answers record nothing here (a sign-in's events are written in its transaction): no call for them.
        if Self.records(request, context: context, status: response.status.code) {
            await record(request, context: context, origin: origin, status: response.status.code, error: nil)
        }
        return response
    }

    /// Whether an answer with `status` records an event: a refused sign-in, or an operator's change.
    private static func records(_ request: Request, context: Context, status: Int) -> Bool {
        (status >= 400 && context.endpoint?.signIn != nil) || (context.isAdmin && ![.get, .head, .options].contains(request.method))
    }

    /// Records what the answer tells, if anything.
    private func record(_ request: Request, context: Context, origin: AuditOrigin, status: Int, error: String?) async {
        let now = node.clock.now()
        if status >= 400, let method = context.endpoint?.signIn {
            var detail: [String: JSONValue] = ["method": .string(method.rawValue), "status": .number(Double(status))]
            if let error { detail["error"] = .string(error) }
            await node.recordAudit(origin.event(.signInFailed, uid: nil, at: now, detail))
        }
        if context.isAdmin, ![.get, .head, .options].contains(request.method) {
            var detail: [String: JSONValue] = [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path), "status": .number(Double(status)),
            ]
            if let error { detail["error"] = .string(error) }
            await node.recordAudit(origin.event(.adminAction, uid: nil, at: now, detail))
        }
    }
}

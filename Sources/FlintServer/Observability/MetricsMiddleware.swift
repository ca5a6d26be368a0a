import FlintCore
import HTTPTypes
import Hummingbird

/// Counts and times every request by route template, method and status (`flint_http_request_duration_seconds`), the
/// answers of the sign-in endpoints by method and outcome (`flint_sign_ins_total`), and the refusals of abuse limits
/// (`flint_limit_refusals_total`).
///
/// It sits inside ``ErrorMiddleware``, so it sees the error a handler threw: the status it records is the one
/// ``ErrorMiddleware`` will answer, and the outcome of a refused sign-in is Firebase's error code. The route is the
/// template Hummingbird matched (`…/v1/projects/{project}/accounts:lookup`), `unmatched` when none did; methods
/// outside the standard ones count as `OTHER`. Sign-in endpoints are those whose ``Endpoint`` names a sign-in method
/// (bound by ``RequestContextMiddleware``). A request costs one clock read at each end and one histogram update; sign-in endpoints also bind a
/// ``SignInProbe``. The console dashboard's counts of sign-ins and error answers (by code, on matched routes) are
/// noted here too, in memory (``FlintMetrics/stats``).
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let metrics: FlintMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = context.endpoint?.signIn
        do {
            let response: Response
            if let method {
                // Only sign-in endpoints pay for a probe and its task-local binding.
                let probe = SignInProbe()
                response = try await SignInProbe.$current.withValue(probe) { try await next(request, context) }
                metrics.signIn(method: method, outcome: probe.outcome(status: response.status.code), probe: probe)
            } else {
                response = try await next(request, context)
            }
            record(request, context: context, status: response.status.code, start: start)
            return response
        } catch {
            let failure = Self.authError(error)
            record(request, context: context, status: failure.status.code, start: start)
            let label = Self.label(failure)
            if let method { metrics.signIn(method: method, outcome: label) }
            if Self.route(context) != Self.unmatched { metrics.errorAnswer(code: label) }
            if failure == .tooManyAttempts || failure == .smsQuotaExceeded {
                metrics.limitRefusal(route: Self.route(context), code: failure.code)
            }
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.request(route: Self.route(context), method: Self.method(request.method), status: status, nanoseconds: nanoseconds)
    }

    /// The route label of a request no route matched.
    private static let unmatched = "unmatched"

    /// The matched template; Hummingbird names the not-found responder `NotFound`.
    private static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path != "NotFound" else { return unmatched }
        return path
    }

    /// The method, or `OTHER` for anything a client made up (label values stay bounded).
    private static func method(_ method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .post, .put, .patch, .delete, .head, .options: method.rawValue
        default: "OTHER"
        }
    }

    /// The error as ``ErrorMiddleware`` will render it (status and code only).
    static func authError(_ error: any Error) -> AuthError {
        switch error {
        case let error as AuthError: error
        case let error as HTTPError: ErrorMiddleware.firebaseError(error.status)
        case let error as any HTTPResponseError: AuthError(status: error.status, code: "HTTP_\(error.status.code)")
        default: .internalError
        }
    }

    /// A bounded label for an error: Firebase's code when it is one (`INVALID_CODE`), else its RPC status (the proto
    /// decoder's messages name the field), else `OTHER`.
    static func label(_ error: AuthError) -> String {
        let code = error.code.utf8
        if !code.isEmpty, code.count <= 64, code.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == 95 }) { return error.code }
        return error.rpcStatus ?? "OTHER"
    }
}

import Hummingbird

/// Binds the endpoint a request matched (``EndpointTable``, from the route template Hummingbird matched) to its
/// context, for the middleware inside it: the metrics and the audit log read the sign-in method it counts as, the
/// caller middleware whether it only reads. Costs one dictionary lookup.
struct EndpointMiddleware: RouterMiddleware {
    typealias Context = FlintRequestContext
    let table: EndpointTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.endpoint = table[request.method, context.endpointPath]
        return try await next(request, context)
    }
}

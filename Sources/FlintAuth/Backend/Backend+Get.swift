import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Backend {
    /// GETs an Identity Toolkit endpoint (`recaptchaConfig` on v2, `projects` on v1), which take no body, with
    /// `query` after the API key, and decodes the answer. A GET is idempotent, so a lost answer is retried once.
    func get<Response: Decodable>(
        _ path: String, query: [URLQueryItem] = [], as: Response.Type = Response.self
    ) async throws -> Response {
        guard let base = url(host: "identitytoolkit.googleapis.com", path: path),
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        else { throw AuthErrorCode.internalError.error(detail: "The request URL could not be built.") }
        components.queryItems = (components.queryItems ?? []) + query
        guard let url = components.url else { throw AuthErrorCode.internalError.error(detail: "The request URL could not be built.") }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        return try await perform(request, idempotent: true)
    }
}

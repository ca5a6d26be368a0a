import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Backend {
    /// GETs an Identity Toolkit endpoint (`recaptchaConfig` on v2, `projects` on v1), which take no body, with
    /// `query` after the API key, and decodes the answer.
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
        request.setValue("Swift/FlintAuth/1.0", forHTTPHeaderField: "X-Client-Version")
        if let language = configuration.current.languageCode, !language.isEmpty {
            request.setValue(language, forHTTPHeaderField: "X-Firebase-Locale")
        }
        let (data, status) = try await send(request)
        guard (200..<300).contains(status) else { throw Self.serverError(data: data) }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw AuthErrorCode.internalError.error(detail: "The server's answer could not be decoded.", userInfo: [NSUnderlyingErrorKey: error])
        }
    }
}

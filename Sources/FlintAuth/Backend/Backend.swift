import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the SDK's RPCs over URLSession and turns the server's answers into values or FirebaseAuth errors.
final class Backend: Sendable {
    /// Where requests go and with what headers; changed by `useEmulator` and `languageCode`.
    struct Configuration: Sendable {
        var apiKey: String
        var baseURL: URL?
        var emulatorHost: String?
        var languageCode: String?
        /// Sent as `X-Ios-Bundle-Identifier` (the options' bundle ID, else the main bundle's), as FirebaseAuth does.
        var bundleID: String?
        /// Sent as `X-Firebase-GMPID`.
        var googleAppID: String?
        /// `Auth.tenantID`, sent as `tenantId` in the body of Identity Toolkit requests (see `tenantlessPaths`).
        var tenantID: String?
    }

    /// The Identity Toolkit requests FirebaseAuth sends without `tenantId` even when a tenant is set: account reads
    /// and deletion, client verification and token revocation. (FirebaseAuth sends Game Center's sign-in without one
    /// too, which signs its players in to the project; FlintAuth names the tenant, as Identity Platform's request has it.)
    static let tenantlessPaths: Set<String> = [
        "/v1/accounts:lookup", "/v1/accounts:delete", "/v1/accounts:verifyClient", "/v2/accounts:revokeToken",
    ]

    let configuration: Locked<Configuration>
    private let session: URLSession
    /// The clock every token lifetime of this app is read on (the wall clock; tests inject their own).
    let now: @Sendable () -> Date

    init(options: FlintOptions, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        configuration = Locked(
            Configuration(
                apiKey: options.apiKey, baseURL: options.baseURL, bundleID: options.bundleID ?? Bundle.main.bundleIdentifier,
                googleAppID: options.googleAppID))
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: sessionConfiguration)
    }

    /// The URL of `path` on `host` (`identitytoolkit.googleapis.com` or `securetoken.googleapis.com`), addressed
    /// as FirebaseAuth addresses Google, the emulator (`http://host:port/<host>/<path>`) or a self-hosted root.
    /// With `host` `nil`, a Flint endpoint at the root of the emulator or base URL (none exists at Google).
    func url(host: String?, path: String) -> URL? {
        let config = configuration.current
        let hostSegment = host.map { "/" + $0 } ?? ""
        let root: String
        if let emulator = config.emulatorHost {
            root = "http://\(emulator)\(hostSegment)"
        } else if let base = config.baseURL {
            let text = base.absoluteString
            root = (text.hasSuffix("/") ? String(text.dropLast()) : text) + hostSegment
        } else if let host {
            root = "https://\(host)"
        } else {
            return nil
        }
        var components = URLComponents(string: root + path)
        components?.queryItems = [URLQueryItem(name: "key", value: config.apiKey)]
        return components?.url
    }

    /// POSTs `request` as JSON to an Identity Toolkit v1 endpoint such as `accounts:signUp`. `idempotent` calls
    /// (reads) are sent once more when the first attempt's answer was lost.
    func call<Response: Decodable>(
        _ endpoint: String, _ request: some Encodable, as: Response.Type = Response.self, idempotent: Bool = false
    ) async throws -> Response {
        try await post(host: "identitytoolkit.googleapis.com", path: "/v1/" + endpoint, request, idempotent: idempotent)
    }

    /// POSTs `request` as JSON to an Identity Toolkit v2 endpoint such as `accounts/mfaEnrollment:start`.
    func callV2<Response: Decodable>(_ endpoint: String, _ request: some Encodable, as: Response.Type = Response.self) async throws -> Response {
        try await post(host: "identitytoolkit.googleapis.com", path: "/v2/" + endpoint, request)
    }

    /// POSTs `request` as JSON to a Flint extension endpoint such as `/flint/v1/accounts/mfaRecoveryCodes:regenerate`,
    /// which only a Flint server (through `useEmulator` or a base URL) has.
    func callFlint<Response: Decodable>(_ path: String, _ request: some Encodable, as: Response.Type = Response.self) async throws -> Response {
        guard configuration.current.emulatorHost != nil || configuration.current.baseURL != nil else {
            throw AuthErrorCode.operationNotAllowed.error(detail: "\(path) is a Flint extension; point the SDK at a Flint server first.")
        }
        return try await post(host: nil, path: path, request)
    }

    /// POSTs `request` as JSON and decodes the answer.
    func post<Response: Decodable>(
        host: String?, path: String, _ request: some Encodable, idempotent: Bool = false
    ) async throws -> Response {
        guard let url = url(host: host, path: path) else {
            throw AuthErrorCode.internalError.error(detail: "The request URL could not be built.")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            urlRequest.httpBody = try Self.body(
                request,
                tenantID: host == "identitytoolkit.googleapis.com" && !Self.tenantlessPaths.contains(path) ? configuration.current.tenantID : nil)
        } catch {
            throw AuthErrorCode.internalError.error(userInfo: [NSUnderlyingErrorKey: error])
        }
        return try await perform(urlRequest, idempotent: idempotent)
    }

    /// The JSON of `request`, with `tenantId` added when a tenant is given, as FirebaseAuth's requests add it.
    static func body(_ request: some Encodable, tenantID: String?) throws -> Data {
        let data = try JSONEncoder().encode(request)
        guard let tenantID, var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        object["tenantId"] = tenantID
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Sends a request with the SDK's headers and decodes a 2xx answer; any other answer becomes the FirebaseAuth
    /// error it maps to. An `idempotent` request whose answer was lost (a dropped or refused connection, a
    /// timeout, a 502/503/504 from a proxy) is sent once more after ``retryDelay``; others never are, because the
    /// server may have acted on them (a code sent, a code spent).
    func perform<Response: Decodable>(_ request: URLRequest, idempotent: Bool, as: Response.Type = Response.self) async throws -> Response {
        var request = request
        let config = configuration.current
        request.setValue("Swift/FlintAuth/1.0", forHTTPHeaderField: "X-Client-Version")
        if let language = config.languageCode, !language.isEmpty {
            request.setValue(language, forHTTPHeaderField: "X-Firebase-Locale")
        }
        if let bundleID = config.bundleID, !bundleID.isEmpty { request.setValue(bundleID, forHTTPHeaderField: "X-Ios-Bundle-Identifier") }
        if let appID = config.googleAppID, !appID.isEmpty { request.setValue(appID, forHTTPHeaderField: "X-Firebase-GMPID") }
        var (data, status) = try await sendRetryingIf(idempotent, request)
        if idempotent, Self.retriableStatuses.contains(status) {
            try await Task.sleep(for: Self.retryDelay)
            (data, status) = try await send(request)
        }
        guard (200..<300).contains(status) else { throw Self.serverError(data: data) }
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw AuthErrorCode.internalError.error(
                detail: "The server's answer could not be decoded.", userInfo: [NSUnderlyingErrorKey: error])
        }
    }

    /// How long an idempotent request waits before its one retry.
    static let retryDelay: Duration = .milliseconds(500)
    /// Gateway answers that say the request did not reach (or was not finished by) the service.
    static let retriableStatuses: Set<Int> = [502, 503, 504]

    private func sendRetryingIf(_ idempotent: Bool, _ request: URLRequest) async throws -> (Data, Int) {
        do {
            return try await send(request)
        } catch let error as NSError where idempotent && error.code == AuthErrorCode.networkError.rawValue {
            try await Task.sleep(for: Self.retryDelay)
            return try await send(request)
        }
    }

    /// One round trip; a transport failure is `networkError` with the cause under `NSUnderlyingErrorKey`.
    func send(_ request: URLRequest) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: AuthErrorCode.networkError.error(userInfo: [NSUnderlyingErrorKey: error]))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), http.statusCode))
                } else {
                    continuation.resume(throwing: AuthErrorCode.networkError.error())
                }
            }
            task.resume()
        }
    }

    /// The FirebaseAuth error for an HTTP error answer: `error.message` split at its first `:`, the left part
    /// mapped to a code and the right part kept as the message.
    /// A server message's code and detail: `CODE` or `CODE : detail`.
    static func serverMessageParts(_ message: String) -> (name: String, detail: String?) {
        let parts = message.split(separator: ":", maxSplits: 1)
        let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return (name, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil)
    }

    static func serverError(data: Data) -> NSError {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let error = object["error"] as? [String: Any], let message = error["message"] as? String
        else {
            return AuthErrorCode.internalError.error(detail: "The server's error answer was not the expected JSON.")
        }
        let (name, detail) = serverMessageParts(message)
        if let code = AuthErrorCode(serverMessage: name) {
            return code.error(detail: detail)
        }
        let reasons = (error["errors"] as? [[String: Any]])?.compactMap { $0["reason"] as? String } ?? []
        if reasons.contains(where: { $0.hasPrefix("keyInvalid") }) { return AuthErrorCode.invalidAPIKey.error(detail: detail) }
        if reasons.contains("ipRefererBlocked") { return AuthErrorCode.appNotAuthorized.error(detail: detail) }
        return AuthErrorCode.internalError.error(
            detail: "The server answered \(message).", userInfo: [AuthErrors.userInfoDeserializedResponseKey: error])
    }
}

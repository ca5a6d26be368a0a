import AsyncHTTPClient
import FlintCore
import Logging
import NIOCore
import NIOHTTP1

/// A provider's answer: its status, its body, and the body as JSON (`nil` when it is not a JSON object or array).
struct ProviderAnswer: Sendable {
    var status: Int
    var json: JSONValue?
    /// The body as received (a form-encoded answer, as OAuth 1.0a's token endpoints give).
    var body: [UInt8] = []
}

extension ProviderKeys {
    /// GETs `address` (with a bearer token when given, and `headers`); `nil` when it cannot be reached or is refused
    /// (not https).
    func getJSON(_ address: String, bearer: String? = nil, headers: [(String, String)] = []) async -> ProviderAnswer? {
        var request = HTTPClientRequest(url: address)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return await send(request, to: address)
    }

    /// POSTs a form to `address`, with HTTP Basic client authentication when `basic` is given.
    func postForm(
        _ address: String, _ fields: [(String, String)], basic: (user: String, password: String)? = nil, headers: [(String, String)] = []
    ) async -> ProviderAnswer? {
        var request = HTTPClientRequest(url: address)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if let basic {
            let pair = URLQuery.escape(basic.user) + ":" + URLQuery.escape(basic.password)
            request.headers.add(name: "Authorization", value: "Basic \(Self.base64(Array(pair.utf8)))")
        }
        let body = URLQuery.encode(fields)
        request.body = .bytes(ByteBuffer(string: body))
        return await send(request, to: address)
    }

    /// Sends `request` to `address` (asking for JSON unless the request says otherwise) and reads its answer, within
    /// ``requestTimeout``; `nil` when the provider cannot be reached in time or the address is refused (not https).
    func send(_ request: HTTPClientRequest, to address: String) async -> ProviderAnswer? {
        guard permits(address) else { return nil }
        var request = request
        if !request.headers.contains(name: "Accept") { request.headers.add(name: "Accept", value: "application/json") }
        do {
            let response = try await OutgoingCall.execute(
                request, timeout: Self.requestTimeout, client: client, tracer: tracer, peer: "identity-provider")
            let body = Array(buffer: try await response.body.collect(upTo: Self.maxDocumentSize))
            let json = (try? JSONValue(parsing: body)).flatMap { $0.objectValue == nil && $0.arrayValue == nil ? nil : $0 }
            return ProviderAnswer(status: Int(response.status.code), json: json, body: body)
        } catch {
            logger.warning("identity provider could not be reached", metadata: ["errorType": "\(type(of: error))"])
            return nil
        }
    }

    /// Standard, padded base64.
    static func base64(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}

import FlintCore
import Hummingbird

/// The published keys: the x509 map Firebase Admin SDKs read and the JWKS form, with `Cache-Control: max-age`.
extension TokenRoutes {
    private var cacheHeaders: HTTPFields {
        [.cacheControl: "public, max-age=\(keyCacheMaxAge.inSeconds), must-revalidate, no-transform"]
    }

    func x509(_ request: Request, context: FlintRequestContext) async throws -> Response {
        var map: [String: String] = [:]
        for key in sessions.keys.current.published(at: sessions.node.clock.now()) { map[key.kid] = key.certificatePEM }
        return try JSONReply.make(map, headers: cacheHeaders)
    }

    func jwks(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let keys = try sessions.keys.current.published(at: sessions.node.clock.now()).map { try $0.jwk() }
        return try JSONReply.make(["keys": keys], headers: cacheHeaders)
    }
}

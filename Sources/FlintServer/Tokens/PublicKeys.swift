import FlintCore
import Hummingbird

/// The published keys: the x509 map Firebase Admin SDKs read and the JWKS form (also served at the session-cookie
/// key URLs), with `Cache-Control: max-age` and, as Google sends and some verifiers read instead, `Expires` at the
/// answer's `Date` plus that max-age.
extension TokenRoutes {
    /// The caching headers of an answer made at `now`: `Date` is its whole second (the HTTP server writes the same
    /// second over it from its own clock) and `Expires` that second plus the max-age.
    private func cacheHeaders(now: Instant) -> HTTPFields {
        let date = now.wholeSecond
        return [
            .cacheControl: "public, max-age=\(keyCacheMaxAge.inSeconds), must-revalidate, no-transform",
            .date: date.httpDate,
            .expires: (date + .seconds(keyCacheMaxAge.inSeconds)).httpDate,
        ]
    }

    func x509(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let now = sessions.node.clock.now()
        var map: [String: String] = [:]
        for key in sessions.keys.current.published(at: now) { map[key.kid] = key.certificatePEM }
        return try JSONReply.make(map, headers: cacheHeaders(now: now))
    }

    func jwks(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let now = sessions.node.clock.now()
        let keys = try sessions.keys.current.published(at: now).map { try $0.jwk() }
        return try JSONReply.make(["keys": keys], headers: cacheHeaders(now: now))
    }
}

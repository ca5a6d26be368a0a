import FlintCore
// `removingPercentEncoding` is Foundation's own (not FoundationEssentials').
import Foundation
import HTTPTypes
import NIOHTTP1

/// How `flint admin-bridge` turns an Admin SDK's emulator-mode request into one for a production Flint: which paths
/// it forwards, to what URL, and with which headers each way. Pure rules, no I/O.
///
/// The SDKs address `FIREBASE_AUTH_EMULATOR_HOST` over plain HTTP with `Authorization: Bearer owner`; the bridge
/// sends the same method, path, query and body to the upstream Flint with the named admin credential instead of
/// `owner`, and answers the upstream's status, headers and body unchanged.
struct AdminBridgeForwarding: Sendable {
    /// The path prefixes of the API the Admin SDKs call: Identity Toolkit (v1 and v2), Secure Token, and the v3
    /// `relyingparty` paths and key URLs under `www.googleapis.com/identitytoolkit`.
    static let apiPrefixes = [
        "/identitytoolkit.googleapis.com/", "/securetoken.googleapis.com/", "/www.googleapis.com/identitytoolkit/",
    ]
    /// What the bridge adds to the caller's `User-Agent`, so the audit log's user agent shows the call came through it.
    static let userAgentProduct = "flint-admin-bridge"

    /// The upstream Flint's base URL without a trailing slash (`https://auth.example.com`, or with a path prefix).
    let upstreamBase: String
    /// The `Authorization` value sent in place of the SDK's `Bearer owner`.
    let authorization: String

    /// - Parameters:
    ///   - upstreamBase: the upstream Flint's base URL (a trailing slash is dropped).
    ///   - secret: the admin credential's secret.
    init(upstreamBase: String, secret: String) {
        var base = Substring(upstreamBase)
        while base.hasSuffix("/") { base = base.dropLast() }
        self.upstreamBase = String(base)
        self.authorization = "Bearer " + secret
    }

    /// The upstream URL for a request target (its origin-form path and query, as received).
    /// - Throws: ``AuthError/emulatorOnlyRoute`` for `/emulator/...`; ``AuthError/notFound`` for anything that is not
    ///   an API path, and for a path with a `.` or `..` segment or an encoded slash (`%2F`, `%5C`), which could leave
    ///   the prefix it was let through by.
    func url(for target: String) throws(AuthError) -> String {
        let path = target.prefix { $0 != "?" }
        guard path.hasPrefix("/") else { throw AuthError.notFound }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = String(segment).removingPercentEncoding ?? String(segment)
            guard decoded != ".", decoded != "..", !decoded.contains("/"), !decoded.contains("\\") else { throw AuthError.notFound }
        }
        if path == "/emulator" || path.hasPrefix("/emulator/") { throw AuthError.emulatorOnlyRoute }
        guard Self.apiPrefixes.contains(where: { path.hasPrefix($0) }) else { throw AuthError.notFound }
        return upstreamBase + target
    }

    /// The headers sent upstream: the caller's, with `Bearer owner` replaced by the credential, `User-Agent` marked
    /// with ``userAgentProduct``, and without hop-by-hop headers, `Host`, `Content-Length` (the body's length is
    /// given with the body), `Expect` (the bridge has read the caller's headers already) and the forwarding headers (`X-Forwarded-*`, `Forwarded`, `X-Real-IP`): the caller is a
    /// local process, so the bridge adds none and lets none through. Another `Authorization` (none, an ID token, a
    /// credential of the caller's own) is sent as it came.
    func requestHeaders(_ incoming: HTTPFields) -> HTTPHeaders {
        let dropped = Self.hopByHop(incoming).union(["host", "content-length", "expect", "forwarded", "x-real-ip"])
        var headers = HTTPHeaders()
        var agent: String?
        for field in incoming {
            let name = field.name.canonicalName
            if dropped.contains(name) || name.hasPrefix("x-forwarded-") { continue }
            switch name {
            case "authorization" where Self.isOwner(field.value): headers.add(name: "authorization", value: authorization)
            case "user-agent": agent = agent.map { "\($0), \(field.value)" } ?? field.value
            default: headers.add(name: field.name.rawName, value: field.value)
            }
        }
        headers.add(name: "user-agent", value: agent.map { "\($0) \(Self.userAgentProduct)" } ?? Self.userAgentProduct)
        return headers
    }

    /// The headers answered to the caller: the upstream's, without hop-by-hop headers (the bridge's own connection
    /// to its caller frames the body).
    static func responseHeaders(_ upstream: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        let connection = upstream[canonicalForm: "connection"].map { $0.lowercased() }
        let dropped = Set(connection).union(hopByHopNames)
        for (name, value) in upstream where !dropped.contains(name.lowercased()) {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }

    /// Whether an `Authorization` value is the emulator's `Bearer owner`.
    static func isOwner(_ value: String) -> Bool {
        let parts = value.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer" && String(parts[1]).trimmingSpaces == "owner"
    }

    /// Headers that describe one connection, never forwarded (RFC 9110 §7.6.1).
    static let hopByHopNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// The hop-by-hop headers of a request: the fixed ones and those its `Connection` header names.
    private static func hopByHop(_ fields: HTTPFields) -> Set<String> {
        let named = fields[values: .connection].flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces.lowercased() }
        return hopByHopNames.union(named)
    }
}

import AsyncHTTPClient
import FlintCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Tracing

/// The public keys of identity providers, fetched with async-http-client and cached per JWKS address: kept for the
/// answer's `Cache-Control: max-age` (one hour without it), fetched again before that when a token names an unknown
/// `kid` (key rotation), at most once per ``minimumRefetch`` per address, and kept past their age when the provider
/// cannot be reached; requests that need a document at the same time wait for one fetch. After a failed fetch the
/// address is not fetched again for a while (``backOff(failures:)``: 5 seconds, doubling to 5 minutes, reset by a
/// success); meanwhile requests get the cached document, or fail at once as a failed fetch does. OIDC issuers are
/// found through `/.well-known/openid-configuration`, cached the same way.
final class ProviderKeys: Sendable {
    /// Apple's keys.
    static let appleJWKS = "https://appleid.apple.com/auth/keys"
    /// Google's OAuth 2 keys.
    static let googleJWKS = "https://www.googleapis.com/oauth2/v3/certs"
    /// How long a set is kept without `max-age`, and the bounds put on `max-age`.
    static let defaultAge: Duration = .seconds(3600)
    static let ageRange: ClosedRange<Int64> = 60...86_400
    /// The shortest gap between two fetches of one address for an unknown `kid`.
    static let minimumRefetch: Duration = .seconds(30)
    /// How long a call to a provider (a token exchange, a profile, a key set) may take in all before the sign-in
    /// fails with `INVALID_IDP_RESPONSE`: a provider that is down never holds a client longer.
    static let requestTimeout: TimeAmount = .seconds(10)
    /// The largest JWKS or discovery document read.
    static let maxDocumentSize = 1 << 20
    /// The pause after a first failed fetch of an address, and the longest pause however many fail in a row.
    static let backOffRange: ClosedRange<Duration> = .seconds(5)...(.seconds(300))

    private struct Entry: Sendable {
        var document: [UInt8]
        var keys: ProviderKeySet
        var fetchedAt: Instant
        var expiresAt: Instant
    }

    /// An address whose last fetches failed: how many in a row, and when it may be fetched again.
    private struct Failures: Sendable {
        var count: Int
        var retryAt: Instant
    }

    let client: HTTPClient
    let clock: any WallClock
    let logger: Logger
    /// Dev mode's stand-ins: provider ID → the origin (`http://127.0.0.1:8080`) that serves the provider's paths in its
    /// place (loopback stand-in issuers in tests).
    let standIns: [String: String]
    /// Whether plain `http` addresses may be fetched (dev mode only).
    let allowsHTTP: Bool
    /// Traces each call to a provider (``OutgoingCall``) when set.
    let tracer: (any Tracer)?
    private let cache = Mutex<[String: Entry]>([:])
    /// Fetches under way, by address: requests that need the same document at once wait for one fetch.
    private let inFlight = Mutex<[String: Task<Entry?, Never>]>([:])
    /// Addresses in back-off after failed fetches.
    private let failures = Mutex<[String: Failures]>([:])

    init(
        client: HTTPClient = .shared, clock: any WallClock, logger: Logger, standIns: [String: String], allowsHTTP: Bool,
        tracer: (any Tracer)? = nil
    ) {
        self.tracer = tracer
        self.client = client
        self.clock = clock
        self.logger = logger
        self.standIns = standIns
        self.allowsHTTP = allowsHTTP
    }

    /// `url`, a provider's own address, or the same path at the provider's dev-mode stand-in.
    func address(_ url: String, provider: String) -> String {
        guard let origin = standIns[provider] else { return url }
        // The path after `scheme://host`: the third `/` on.
        var slashes = 0
        guard
            let start = url.firstIndex(where: { c in
                if c == "/" { slashes += 1 }
                return slashes == 3
            })
        else { return origin }
        return origin + url[start...]
    }

    /// The keys that should hold `kid` for `provider`.
    /// - Throws: `INVALID_IDP_RESPONSE` when the provider's keys cannot be had.
    func keys(for provider: IdentityProviderConfig, kid: String?) async throws(AuthError) -> ProviderKeySet {
        try await keys(at: try await jwksAddress(for: provider), kid: kid)
    }

    /// The key set published at `address` that should hold `kid`.
    /// - Throws: `INVALID_IDP_RESPONSE` when the keys cannot be had.
    func keys(at address: String, kid: String?) async throws(AuthError) -> ProviderKeySet {
        try await document(at: address, wantedKid: kid).keys
    }

    /// Where `provider` publishes its keys: Apple's or Google's address (or its dev-mode stand-in), or an OIDC
    /// issuer's `jwks_uri` from its discovery document.
    func jwksAddress(for provider: IdentityProviderConfig) async throws(AuthError) -> String {
        switch provider.providerID {
        case "apple.com": return address(Self.appleJWKS, provider: provider.providerID)
        case "google.com": return address(Self.googleJWKS, provider: provider.providerID)
        default:
            guard let discovery = try await discovery(for: provider), let uri = discovery["jwks_uri"]?.stringValue else {
                throw AuthError.invalidIdpResponse("The issuer's discovery document has no jwks_uri.")
            }
            return uri
        }
    }

    /// An OIDC issuer's discovery document, whose `issuer` must be the configured one.
    func discovery(for provider: IdentityProviderConfig) async throws(AuthError) -> JSONValue? {
        guard var issuer = provider.issuer else { return nil }
        while issuer.hasSuffix("/") { issuer.removeLast() }
        let entry = try await document(at: issuer + "/.well-known/openid-configuration", wantedKid: nil, parseKeys: false)
        guard let document = try? JSONValue(parsing: entry.document), document.objectValue != nil else {
            throw AuthError.invalidIdpResponse("The issuer's discovery document is not JSON.")
        }
        let named = document["issuer"]?.stringValue.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        guard named == issuer else { throw AuthError.invalidIdpResponse("The discovery document names another issuer.") }
        return document
    }

    /// The cached document at `address`, fetched when absent, past its age, or (for key sets) missing `wantedKid`
    /// and not fetched within ``minimumRefetch``. A failed fetch keeps serving what was cached, and so does an
    /// address in back-off, which is not fetched.
    private func document(at address: String, wantedKid: String?, parseKeys: Bool = true) async throws(AuthError) -> Entry {
        let now = clock.now()
        let cached = cache.withLock { $0[address] }
        if let cached, now < cached.expiresAt {
            guard let kid = wantedKid, cached.keys.key(kid: kid) == nil else { return cached }
            if now - cached.fetchedAt < Self.minimumRefetch { return cached }
        }
        let result: Entry?
        if let retryAt = failures.withLock({ $0[address]?.retryAt }), now < retryAt {
            result = nil
        } else {
            let task = inFlight.withLock { tasks in
                if let running = tasks[address] { return running }
                let started = Task { await self.fetchCounted(address, now: now, parseKeys: parseKeys) }
                tasks[address] = started
                return started
            }
            result = await task.value
            inFlight.withLock { tasks in if tasks[address] == task { tasks[address] = nil } }
        }
        guard let fetched = result else {
            if let cached { return cached }
            throw AuthError.idpKeysUnavailable
        }
        cache.withLock { $0[address] = fetched }
        return fetched
    }

    /// Fetches `address` once for all the requests waiting on it, and keeps the back-off: a failure pauses the
    /// address, a success ends the pause.
    private func fetchCounted(_ address: String, now: Instant, parseKeys: Bool) async -> Entry? {
        let fetched = await fetchDocument(address, now: now, parseKeys: parseKeys)
        let failedAt = clock.now()
        failures.withLock { all in
            if fetched != nil {
                all[address] = nil
            } else {
                let count = (all[address]?.count ?? 0) + 1
                all[address] = Failures(count: count, retryAt: failedAt + Self.backOff(failures: count))
            }
        }
        return fetched
    }

    /// The pause after `failures` failed fetches in a row: 5 seconds after the first, doubling each time, at most
    /// 5 minutes.
    static func backOff(failures: Int) -> Duration {
        let doublings = min(max(failures - 1, 0), 6)
        return min(backOffRange.lowerBound * (1 << doublings), backOffRange.upperBound)
    }

    private func fetchDocument(_ address: String, now: Instant, parseKeys: Bool) async -> Entry? {
        guard permits(address) else { return nil }
        do {
            var request = HTTPClientRequest(url: address)
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await OutgoingCall.execute(
                request, timeout: Self.requestTimeout, client: client, tracer: tracer, peer: "identity-provider")
            let body = try await response.body.collect(upTo: Self.maxDocumentSize)
            guard response.status == .ok else {
                logger.warning("identity provider answered an error", metadata: ["address": "\(address)", "status": "\(response.status.code)"])
                return nil
            }
            let bytes = Array(buffer: body)
            let keys = parseKeys ? try ProviderKeySet(jwks: bytes) : ProviderKeySet()
            let age = Self.maxAge(response.headers.first(name: "cache-control")).map { Duration.seconds($0) } ?? Self.defaultAge
            return Entry(document: bytes, keys: keys, fetchedAt: now, expiresAt: now + age)
        } catch {
            logger.warning("identity provider could not be fetched", metadata: ["address": "\(address)", "errorType": "\(type(of: error))"])
            return nil
        }
    }

    /// Whether `address` may be called: `https`, or `http` in dev mode.
    func permits(_ address: String) -> Bool {
        guard address.hasPrefix("https://") || (allowsHTTP && address.hasPrefix("http://")) else {
            logger.warning("identity provider address refused: not https", metadata: ["address": "\(address)"])
            return false
        }
        return true
    }

    /// `max-age` of a `Cache-Control` header, bounded by ``ageRange``; `nil` without one (or with `no-store`/`no-cache`,
    /// which get the shortest age).
    static func maxAge(_ header: String?) -> Int64? {
        guard let header else { return nil }
        var age: Int64?
        for directive in header.lowercased().split(separator: ",") {
            let part = String(directive).trimmingSpaces
            if part == "no-store" || part == "no-cache" { return ageRange.lowerBound }
            if part.hasPrefix("max-age="), let n = Int64(part.dropFirst(8)) { age = n }
        }
        return age.map { min(max($0, ageRange.lowerBound), ageRange.upperBound) }
    }
}

/// A setting `flint serve` refuses at start.
public struct FlintStartError: Error, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

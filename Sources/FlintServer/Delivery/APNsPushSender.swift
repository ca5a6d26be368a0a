public import AsyncHTTPClient
public import FlintCore
public import Logging
import NIOCore
import NIOHTTP1
import Synchronization
public import Tracing

/// Silent pushes through Apple's APNs provider API (HTTP/2, token-based authentication).
///
/// `POST https://api.push.apple.com/3/device/<token>` (`api.sandbox.push.apple.com` for sandbox tokens) with
/// `authorization: bearer <ES256 provider token>`, `apns-topic: <bundle ID>`, `apns-push-type: background`,
/// `apns-priority: 5` (background pushes must not use 10) and a short `apns-expiration`: a secret that arrives
/// after the client gave up waiting is useless. The provider token is re-signed every 30 minutes (Apple refuses
/// tokens older than an hour and throttles providers that renew more often than every 20 minutes).
public final class APNsPushSender: PushSender {
    /// Apple's answer to a refused push: the HTTP status and the `reason` of its JSON body.
    public struct Refused: Error, Sendable, Equatable {
        /// HTTP status.
        public var status: Int
        /// Apple's reason, e.g. `BadDeviceToken`, `TopicDisallowed`.
        public var reason: String
    }

    /// Production and sandbox endpoints.
    public static let productionURL = "https://api.push.apple.com"
    public static let sandboxURL = "https://api.sandbox.push.apple.com"
    /// Time between provider-token renewals.
    static let tokenRenewal: Duration = .seconds(1800)
    /// How long APNs keeps trying an undelivered push.
    static let expiration: Duration = .seconds(60)

    let credentials: APNsProviderToken
    let bundleID: String
    let client: HTTPClient
    let clock: any WallClock
    let productionURL: String
    let sandboxURL: String
    let logger: Logger
    let tracer: (any Tracer)?
    private let cachedToken = Mutex<(token: String, issuedAt: Instant)?>(nil)

    /// Creates a sender.
    /// - Parameters:
    ///   - credentials: the `.p8` key with its key ID and team ID.
    ///   - bundleID: the app's bundle ID, sent as `apns-topic`.
    ///   - client: the HTTP client (HTTP/2 is negotiated with Apple through ALPN); defaults to the shared one.
    ///   - productionURL: base URL for production tokens (tests point it elsewhere).
    ///   - sandboxURL: base URL for sandbox tokens.
    ///   - logger: where refusals are logged.
    ///   - tracer: traces each push (``OutgoingCall``) when set.
    public init(
        credentials: APNsProviderToken, bundleID: String, client: HTTPClient = .shared, clock: any WallClock = SystemClock(),
        productionURL: String = APNsPushSender.productionURL, sandboxURL: String = APNsPushSender.sandboxURL, logger: Logger,
        tracer: (any Tracer)? = nil
    ) {
        self.credentials = credentials
        self.bundleID = bundleID
        self.client = client
        self.clock = clock
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.logger = logger
        self.tracer = tracer
    }

    public func send(_ push: PushMessage) async throws {
        let request = try makeRequest(push)
        let response = try await OutgoingCall.execute(request, timeout: .seconds(15), client: client, tracer: tracer, peer: "apns")
        let body = try await response.body.collect(upTo: 64 * 1024)
        guard response.status == .ok else {
            let reason = (try? JSONValue(parsing: body.readableBytesView))?["reason"]?.stringValue ?? "unknown"
            if response.status == .forbidden { cachedToken.withLock { $0 = nil } }  // e.g. ExpiredProviderToken
            logger.warning("APNs refused a push", metadata: ["status": "\(response.status.code)", "reason": "\(reason)"])
            throw Refused(status: Int(response.status.code), reason: reason)
        }
    }

    /// The HTTP request for `push` (exposed to tests: method, URL, headers, body).
    func makeRequest(_ push: PushMessage) throws -> HTTPClientRequest {
        let now = clock.now()
        var request = HTTPClientRequest(url: "\(push.sandbox ? sandboxURL : productionURL)/3/device/\(push.deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try providerToken(now: now))")
        request.headers.add(name: "apns-topic", value: bundleID)
        request.headers.add(name: "apns-push-type", value: "background")
        request.headers.add(name: "apns-priority", value: "5")
        request.headers.add(name: "apns-expiration", value: String((now + Self.expiration).secondsSince1970))
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: push.payload))
        return request
    }

    private func providerToken(now: Instant) throws -> String {
        try cachedToken.withLock { cached in
            if let cached, now - cached.issuedAt < Self.tokenRenewal, now >= cached.issuedAt { return cached.token }
            let token = try credentials.token(issuedAt: now)
            cached = (token, now)
            return token
        }
    }
}

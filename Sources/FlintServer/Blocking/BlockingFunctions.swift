import AsyncHTTPClient
import FlintCore
import FlintStore
import Logging
import NIOCore
import NIOHTTP1
import Tracing

/// Calls the project's blocking functions (``ProjectConfig/blockingFunctionURIs``) as Identity Platform does: a POST
/// of `{"data":{"jwt":…}}` whose JWT is signed with the ID-token keys (RS256, `kid`, `iss`
/// `https://securetoken.google.com/<project>`, `aud` the function's URL) and carries the event
/// (``BlockingEvent``). A 2xx answer lets the operation go on with its changes (``BlockingVerdict``); any other
/// answer refuses it with `BLOCKING_FUNCTION_ERROR_RESPONSE` and the function's answer, whose `error.message` the
/// SDKs show; a function that does not answer within ``timeout``, cannot be reached or answers something unusable
/// stops the operation too (500, same code): a failing function never lets an operation through.
struct BlockingFunctions: Sendable {
    let projectID: String
    let config: ConfigCache
    let keys: KeyCache
    let clock: any WallClock
    let random: any RandomSource
    let logger: Logger
    var client: HTTPClient = .shared
    /// Traces each call (``OutgoingCall``) when set.
    var tracer: (any Tracer)?
    /// How long a function may take: 7 seconds, as Identity Platform allows.
    var timeout: TimeAmount = .seconds(7)
    /// The most of a function's answer read.
    static let maxAnswerSize = 1 << 16
    /// The most of a refusal's answer quoted back to the client.
    static let maxQuoted = 4096

    /// Whether a function runs at `trigger`.
    func isConfigured(_ trigger: ProjectConfig.BlockingTrigger) -> Bool {
        config.current.blockingFunctionURIs[trigger] != nil
    }

    /// Whether any function runs: a node without one never takes the blocking path (one lookup in the config).
    var anyConfigured: Bool { config.current.document["blockingFunctions"]?["triggers"]?.objectValue?.isEmpty == false }

    /// Calls the function of `event.trigger`; `nil` when none is configured.
    /// - Throws: ``AuthError/blockingFunctionRefused`` (the function's refusal, or its reCAPTCHA override `BLOCK`) or
    ///   ``AuthError/blockingFunctionFailed`` (no answer in time, unreachable, unusable answer, no signing key).
    func call(_ event: BlockingEvent) async throws(AuthError) -> BlockingVerdict? {
        let config = config.current
        guard let uri = config.blockingFunctionURIs[event.trigger] else { return nil }
        switch await post(event, to: uri, forwarded: config.forwardedCredentials, request: RequestFacts.current) {
        case .verdict(let verdict): return verdict
        case .refused(let detail, _): throw AuthError.blockingFunctionRefused.with(detail: detail)
        case .failed(let detail): throw AuthError.blockingFunctionFailed.with(detail: detail)
        }
    }

    /// What a function answered one call.
    enum Answer: Sendable, Equatable {
        /// A 2xx answer: the operation goes on with its changes.
        case verdict(BlockingVerdict)
        /// A refusal: the error's detail, and the function's own `error.message` when its answer has one.
        case refused(detail: String, message: String?)
        /// No answer in time, unreachable, an unusable answer, or no key to sign with: the error's detail.
        case failed(detail: String)
    }

    /// POSTs `event` to the function at `uri` in a JWT signed with the ID-token keys, told of the client `request`
    /// and of the provider's credentials as far as `forwarded` allows. A dry run (``BlockingDryRun``) sends the same
    /// call with the header `X-Flint-Dry-Run: true` and an `event_id` starting `dry-run-` (Identity Platform's JWT has
    /// no field for it, so the SDKs see an ordinary event).
    func post(
        _ event: BlockingEvent, to uri: String, forwarded: ProjectConfig.ForwardedCredentials, request facts: RequestFacts, dryRun: Bool = false
    ) async -> Answer {
        let now = clock.now()
        let eventID = (dryRun ? Self.dryRunEventPrefix : "") + Base64URL.encode(random.bytes(16))
        let payload = event.payload(projectID: projectID, functionURI: uri, eventID: eventID, request: facts, forwarded: forwarded, now: now)
        guard let key = keys.current.signer(at: now), let jwt = try? TokenSigner.sign(payload: payload, with: key) else {
            logger.error("blocking function token not signed: no signing key")
            return .failed(detail: "((The request to the blocking function could not be signed.))")
        }
        var request = HTTPClientRequest(url: uri)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if dryRun { request.headers.add(name: Self.dryRunHeader, value: "true") }
        let body: JSONValue = ["data": ["jwt": .string(jwt)]]
        request.body = .bytes(ByteBuffer(bytes: body.serialized()))
        let started = ContinuousClock.now
        let status: Int
        let answer: [UInt8]
        do {
            let response = try await OutgoingCall.execute(request, timeout: timeout, client: client, tracer: tracer, peer: "blocking-function")
            status = Int(response.status.code)
            answer = Array(buffer: try await response.body.collect(upTo: Self.maxAnswerSize))
        } catch {
            logger.warning(
                "blocking function failed",
                metadata: ["trigger": "\(event.trigger.rawValue)", "errorType": "\(type(of: error))", "eventId": "\(eventID)"])
            return .failed(
                detail: "((HTTP request to \(uri) failed: no answer within \(timeout.nanoseconds / 1_000_000_000) seconds or not reachable.))")
        }
        logger.info(
            "blocking function answered",
            metadata: [
                "trigger": "\(event.trigger.rawValue)", "status": "\(status)", "eventId": "\(eventID)",
                "elapsed": "\(ContinuousClock.now - started)",
            ])
        let json = try? JSONValue(parsing: answer)
        guard (200..<300).contains(status) else {
            let quoted = String(decoding: answer.prefix(Self.maxQuoted), as: UTF8.self)
            return .refused(detail: "((HTTP Cloud Function returned an error: \(quoted)))", message: json?["error"]?["message"]?.stringValue)
        }
        let verdict: BlockingVerdict
        do throws(BlockingVerdict.Unusable) {
            guard let json else { throw BlockingVerdict.Unusable("the answer is not JSON") }
            verdict = try BlockingVerdict(answer: json, trigger: event.trigger)
        } catch {
            return .failed(detail: "((HTTP Cloud Function returned an unusable answer: \(error.reason).))")
        }
        if verdict.recaptchaActionOverride == "BLOCK" {
            return .refused(detail: "((The blocking function's recaptchaActionOverride is BLOCK.))", message: "recaptchaActionOverride is BLOCK")
        }
        return .verdict(verdict)
    }

    /// The header a dry run's calls carry.
    static let dryRunHeader = "X-Flint-Dry-Run"
    /// How a dry run's `event_id` starts.
    static let dryRunEventPrefix = "dry-run-"
}

public import Hummingbird
import NIOCore

/// Per-request state: the caller's credential as the API-key/admin check found it.
public struct FlintRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who is calling, set by ``CallerMiddleware``.
    public var caller: Caller = .anonymous
    /// For an admin call, the credential it carries (named in the log), set by ``CallerMiddleware``.
    public var admin: AdminIdentity?
    /// The peer's IP address, if the connection has one (``RequestContextMiddleware`` replaces it with the last
    /// `X-Forwarded-For` entry when the server is told to trust its proxy).
    public var clientIP: String?
    /// The endpoint the request matched, set by ``RequestContextMiddleware`` (`nil` when no route matched).
    package var endpoint: Endpoint?

    /// The connection the request came on.
    private let channel: any Channel

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.clientIP = source.channel.remoteAddress?.ipAddress
    }

    /// Closes the connection once the answer being prepared has been written. Hummingbird otherwise reads on after
    /// an answer, waiting for the next request; after refusing a body the rest of it is not worth reading.
    ///
    /// This is the event that graceful shutdown sends each connection, which Hummingbird's connection handler
    /// answers by closing after the response in progress.
    package func closeConnectionAfterResponse() {
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }

    /// Firebase refuses bodies over 1 MiB.
    public var maxUploadSize: Int { WireBody.maxBytes }

    /// Wire types are decoded as leniently as Google's front end does, with its error answers.
    public var requestDecoder: WireDecoder { WireDecoder() }

    /// Answers are encoded as Google's front end writes them.
    public var responseEncoder: WireEncoder { WireEncoder() }
}

/// The credential a request carries.
public enum Caller: Sendable, Equatable {
    /// No API key and no admin credential.
    case anonymous
    /// A client holding an API key.
    case apiKey(String)
    /// The operator (an admin credential, or `Bearer owner` in dev mode); ``FlintRequestContext/admin`` says which.
    case admin
    /// A `Bearer` credential that is not the admin's: refused with 401 wherever credentials matter.
    case invalidBearer
}

import NIOCore
import NIOSSL

extension SMTPError {
    /// The `SMTPError` for an error from the channel: itself when it already is one, `tls` for NIOSSL's errors,
    /// `timeout` for a connect timeout, `connection` for the rest.
    init(_ error: any Error) {
        switch error {
        case let error as SMTPError: self = error
        case let error as NIOSSLError: self = .tls(Self.explain(error))
        case let error as NIOSSLExtraError: self = .tls(String(describing: error))
        case let error as BoringSSLError: self = .tls(String(describing: error))
        case ChannelError.connectTimeout(let amount): self = .timeout("no connection within \(amount.nanoseconds / 1_000_000) ms")
        default: self = .connection(String(describing: error))
        }
    }

    private static func explain(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let reason): "handshake failed (is the server's certificate trusted and for this host?): \(reason)"
        default: String(describing: error)
        }
    }
}

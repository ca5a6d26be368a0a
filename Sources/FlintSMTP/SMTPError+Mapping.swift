import NIOCore
import NIOSSL

extension SMTPError {
    /// The `SMTPError` for an error from the channel: itself when it already is one, `tls` for NIOSSL's and BoringSSL's
    /// errors (a failed handshake, an untrusted certificate, a name mismatch), `timeout` for a connect timeout,
    /// `connection` for the rest, a TLS connection that ended without close_notify included (a broken connection, not a
    /// TLS failure).
    init(_ error: any Error) {
        switch error {
        case let error as SMTPError: self = error
        case NIOSSLError.uncleanShutdown: self = .connection("the server closed the TLS connection without close_notify")
        case let error as NIOSSLError: self = .tls(Self.explain(error))
        case let error as NIOSSLExtraError: self = .tls(String(describing: error))
        case let error as BoringSSLError: self = .tls(String(describing: error))
        case ChannelError.connectTimeout(let amount): self = .timeout("no connection within \(amount.nanoseconds / 1_000_000) ms")
        default: self = .connection(String(describing: error))
        }
    }

    /// Whether `error` says that TLS could not be set up (a failed handshake, an untrusted certificate, a name that
    /// does not match), as opposed to a TLS session that ended badly.
    static func isHandshakeFailure(_ error: any Error) -> Bool {
        if let error = error as? NIOSSLError {
            switch error {
            case .handshakeFailed, .unableToValidateCertificate, .noCertificateToValidate, .cannotMatchULabel, .cannotFindPeerIP: return true
            default: return false
            }
        }
        return error is NIOSSLExtraError || error is BoringSSLError
    }

    private static func explain(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let reason): "handshake failed (is the server's certificate trusted and for this host?): \(reason)"
        default: String(describing: error)
        }
    }
}

import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `flint admin-bridge` is told: where it listens, the production Flint it forwards to, and with which
/// credential.
public struct AdminBridgeSettings: Sendable {
    /// The interface it listens on; loopback unless ``allowNonLoopback``.
    public var host = "127.0.0.1"
    /// The port it listens on (`FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT`); 0 takes a free one.
    public var port = 9099
    /// Lets it listen on an address other machines reach (`--allow-non-loopback`): whoever reaches it acts with the
    /// credential.
    public var allowNonLoopback = false
    /// The production Flint's base URL: `https://auth.example.com` (plain `http://` only to a loopback host).
    public var upstream = ""
    /// The named admin credential's secret (from a file or an environment variable, never the command line).
    public var secret = ""
    /// A PEM file of the certificate authorities the upstream's certificate must chain to, in place of the
    /// system's (a private CA).
    public var caFile: String?
    /// How long one forwarded call may take, its body included.
    public var timeout: Duration = .seconds(30)

    public init() {}

    /// Why settings cannot run a bridge, said as one line.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether it listens on an address only this machine reaches.
    public var listensOnLoopback: Bool { LoopbackHost.contains(host) }

    /// Checks the settings.
    /// - Throws: ``Invalid`` for a non-loopback host without ``allowNonLoopback``, an upstream that is not an
    ///   absolute `https` URL (or `http` to a loopback host) without query or fragment, an empty secret, or a
    ///   timeout that is not positive.
    public func validate() throws(Invalid) {
        guard listensOnLoopback || allowNonLoopback else {
            throw Invalid(
                description:
                    "refusing to listen on \(host): the bridge answers with an admin credential, so it listens on loopback only; say --allow-non-loopback to listen there anyway"
            )
        }
        guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(), let upstreamHost = url.host, !upstreamHost.isEmpty,
            url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw Invalid(description: "--upstream must be the production Flint's base URL, such as https://auth.example.com")
        }
        guard scheme == "https" || (scheme == "http" && LoopbackHost.contains(upstreamHost)) else {
            throw Invalid(description: "--upstream must be https (plain http only to a Flint on this machine's loopback): the credential crosses it")
        }
        guard !secret.isEmpty, !secret.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw Invalid(description: "the admin credential's secret is empty or has spaces in it")
        }
        guard timeout > .zero else { throw Invalid(description: "--timeout must be more than 0 seconds") }
    }
}

/// The parts of an absolute `http(s)` URL that the email flows check: a `continueUrl` must be absolute and its
/// host must be one of the project's authorized domains.
package struct ContinueURL: Sendable, Equatable {
    /// `http` or `https` (lower-cased); other schemes are app deep links (`myapp://`), accepted as absolute too.
    package var scheme: String
    /// The host, lower-cased, without port or brackets.
    package var host: String
    /// The URL as given.
    package var text: String

    /// Characters RFC 3986 allows in a URL (unreserved, reserved and `%`). Anything else — a backslash above all,
    /// which browsers read as `/` — could make a browser see another host than this parser, so it is refused.
    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)

    /// Parses an absolute URL with a scheme and a host, and no user info; `nil` otherwise.
    package init?(_ text: String) {
        guard text.utf8.count <= 2048, text.utf8.allSatisfy({ Self.allowed.contains($0) }) else { return nil }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // User info (`user@host`) has no place in a continue URL and is a classic way to disguise the real host.
        guard !authority.contains("@") else { return nil }
        let hostPort = authority
        var host: Substring
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
        } else {
            host = hostPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.text = text
    }

    /// Whether the host is exactly one of the authorized domains (a subdomain must be listed itself, as in Firebase).
    package func isAuthorized(by domains: [String]) -> Bool {
        domains.contains { $0.lowercased() == host }
    }
}

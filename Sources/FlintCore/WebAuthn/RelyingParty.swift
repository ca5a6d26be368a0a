/// Which web origins and RP IDs a project's passkeys may use: its authorized domains (config `authorizedDomains`).
package struct RelyingParty: Sendable {
    /// The project's authorized domains, lower-cased.
    package var authorizedDomains: [String]

    package init(authorizedDomains: [String]) {
        self.authorizedDomains = authorizedDomains.map { $0.lowercased() }
    }

    /// Hosts that may use plain `http`, as Firebase allows for local development.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1"]

    /// Whether `host` is an authorized domain or a subdomain of one.
    package func covers(_ host: String) -> Bool {
        let host = host.lowercased()
        return authorizedDomains.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The host of an origin the project accepts: `https://host[:port]` whose host is covered by an authorized
    /// domain, or `http://localhost[:port]` / `http://127.0.0.1[:port]` when that host is authorized; `nil` otherwise.
    package func acceptedHost(origin: String) -> String? {
        let lowered = origin.lowercased()
        let rest: Substring
        let secure: Bool
        if lowered.hasPrefix("https://") {
            (rest, secure) = (lowered.dropFirst(8), true)
        } else if lowered.hasPrefix("http://") {
            (rest, secure) = (lowered.dropFirst(7), false)
        } else {
            return nil
        }
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else { return nil }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port), parts[1].allSatisfy(\.isASCII) else { return nil }
        }
        guard covers(host) else { return nil }
        guard secure || Self.loopbackHosts.contains(host) else { return nil }
        return host
    }

    /// The RP ID offered to a client calling from `origin` (the `Origin` header): the authorized domain covering its
    /// host; without one (native apps send none), the first authorized domain that is not a loopback host.
    package func rpID(forOrigin origin: String?) -> String? {
        if let origin, let host = acceptedHost(origin: origin) {
            return authorizedDomains.filter { host == $0 || host.hasSuffix("." + $0) }.max { $0.count < $1.count }
        }
        return authorizedDomains.first { !Self.loopbackHosts.contains($0) } ?? authorizedDomains.first
    }

    /// Checks a ceremony's origin against `rpID`: the origin is accepted, and the RP ID is its host or a suffix of
    /// it on a label boundary, itself covered by an authorized domain.
    package func check(origin: String, rpID: String) throws(WebAuthnError) {
        guard let host = acceptedHost(origin: origin) else { throw .invalid("origin") }
        guard covers(rpID), host == rpID || host.hasSuffix("." + rpID) else { throw .invalid("RP ID for this origin") }
    }
}

import Crypto

/// `clientDataJSON` (WebAuthn §5.8.1): what the browser or platform says it asked the authenticator for.
package struct ClientData: Sendable {
    /// `webauthn.create` at registration, `webauthn.get` at sign-in.
    package var type: String
    /// The challenge, base64url as the client wrote it.
    package var challenge: String
    package var origin: String
    /// SHA-256 of the raw JSON, which attestation and assertion signatures cover.
    package var hash: [UInt8]

    /// Longest `clientDataJSON` read.
    package static let maxLength = 8192

    /// Parses the raw JSON bytes.
    /// - Throws: ``WebAuthnError`` when it is not a JSON object with string `type`, `challenge` and `origin`.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maxLength, let json = try? JSONValue(parsing: bytes), let object = json.objectValue,
            let type = object["type"]?.stringValue, let challenge = object["challenge"]?.stringValue, let origin = object["origin"]?.stringValue
        else { throw .invalid("clientDataJSON") }
        // A cross-origin iframe's ceremony is not one Flint offers.
        if object["crossOrigin"]?.boolValue == true { throw .invalid("clientDataJSON: cross-origin") }
        (self.type, self.challenge, self.origin) = (type, challenge, origin)
        hash = Array(SHA256.hash(data: bytes))
    }

    /// Checks the ceremony type and the challenge (compared as bytes, so padding differences do not matter).
    package func check(type expected: String, challenge issued: [UInt8]) throws(WebAuthnError) {
        guard type == expected else { throw .invalid("clientDataJSON type") }
        guard let sent = Base64URL.decode(challenge), sent == issued else { throw .invalid("challenge") }
    }
}

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

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

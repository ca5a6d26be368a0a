/// An identity provider's ID token (a compact JWS), split and decoded but not yet trusted.
package struct ProviderIDToken: Sendable {
    /// The header's `alg`.
    package let alg: String
    /// The header's `kid`, which names the key in the provider's JWKS.
    package let kid: String?
    /// The payload.
    package let claims: [String: JSONValue]
    private let signingInput: [UInt8]
    private let signature: [UInt8]

    /// Longest token accepted (Apple's and Google's are around 1 KB).
    package static let maxLength = 16_384

    /// Splits and decodes `token`.
    /// - Throws: ``ProviderTokenError`` when it is not a JWS with JSON header and payload.
    package init(parsing token: String) throws(ProviderTokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= Self.maxLength, parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONValue(parsing: headerBytes))?.objectValue,
            let claims = (try? JSONValue(parsing: payloadBytes))?.objectValue
        else { throw ProviderTokenError("Unable to parse the ID Token: it is not a JWT.") }
        guard let alg = header["alg"]?.stringValue else { throw ProviderTokenError("The ID Token has no algorithm.") }
        self.alg = alg
        kid = header["kid"]?.stringValue
        self.claims = claims
        self.signature = signature
        signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    }

    /// Checks the signature with the key its `kid` names in `keys`, then the claims: `iss`, `aud` (a string or a list;
    /// one of them must be an expected client ID), `exp` and `iat` with `expected.skew`, `sub`, and the nonce.
    /// - Parameters:
    ///   - keys: the provider's current key set.
    ///   - expected: what the project's config says the token must carry.
    ///   - rawNonce: the nonce the app sent in `postBody`.
    ///   - now: the server's time.
    /// - Throws: ``ProviderTokenError``.
    package func verify(keys: ProviderKeySet, expected: ProviderTokenExpectation, rawNonce: String?, now: Instant) throws(ProviderTokenError) {
        guard alg == "RS256" || alg == "ES256" else { throw ProviderTokenError("The ID Token's algorithm \(alg) is not supported.") }
        guard let kid, let key = keys.key(kid: kid) else { throw ProviderTokenError("The ID Token's key ID is not among the provider's keys.") }
        guard key.verify(signature: signature, input: signingInput, alg: alg) else {
            throw ProviderTokenError("The ID Token's signature is invalid.")
        }
        guard let iss = claims["iss"]?.stringValue, expected.issuers.contains(iss) else {
            throw ProviderTokenError("The ID Token's issuer does not match the expected issuer.")
        }
        let audiences: [String] =
            switch claims["aud"] {
            case .string(let one)?: [one]
            case .array(let list)?: list.compactMap(\.stringValue)
            default: []
            }
        guard audiences.contains(where: expected.audiences.contains) else {
            throw ProviderTokenError("The audience in ID Token does not match the expected audience.")
        }
        guard let exp = Self.numericDate(claims["exp"]) else { throw ProviderTokenError("The ID Token has no expiry.") }
        guard now < Instant(secondsSince1970: exp) + expected.skew else { throw ProviderTokenError("The ID Token has expired.") }
        if let iat = claims["iat"] {
            guard let seconds = Self.numericDate(iat), Instant(secondsSince1970: seconds) <= now + expected.skew else {
                throw ProviderTokenError("The ID Token's issue time is in the future.")
            }
        }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty, sub.utf8.count <= 255 else {
            throw ProviderTokenError("The ID Token has no subject.")
        }
        try expected.nonce.check(claim: claims["nonce"]?.stringValue, raw: rawNonce)
    }
}

extension ProviderIDToken {
    /// A JWT NumericDate (RFC 7519 §2: seconds, possibly with a fraction, as some libraries write them), in whole
    /// seconds toward the past; `nil` for anything but a non-negative number below 2^53.
    static func numericDate(_ value: JSONValue?) -> Int64? {
        guard case .number(let n)? = value, n.isFinite, n >= 0, n < 9_007_199_254_740_992 else { return nil }
        return Int64(n.rounded(.down))
    }
}

/// What a provider's ID token must carry, from the project's config.
package struct ProviderTokenExpectation: Sendable {
    /// Accepted `iss` values.
    package var issuers: [String]
    /// The configured client IDs (Apple: the services ID and the apps' bundle IDs); `aud` must name one.
    package var audiences: [String]
    /// How `nonce` is checked.
    package var nonce: ProviderNonceRule
    /// Clock skew allowed on `exp` and `iat`.
    package var skew: Duration = .seconds(60)

    /// Creates an expectation.
    package init(issuers: [String], audiences: [String], nonce: ProviderNonceRule) {
        self.issuers = issuers
        self.audiences = audiences
        self.nonce = nonce
    }
}

/// An ID token whose signature, audience, issuer and expiry have been checked.
package struct VerifiedIDToken: Sendable {
    /// `sub` / `user_id`.
    package let userID: String
    /// `iat`, a whole second.
    package let issuedAt: Instant
    /// `auth_time`, a whole second.
    package let authTime: Instant
    /// `firebase.sign_in_provider`.
    package let signInProvider: String?
    /// `firebase.revocation_generation`, 0 when absent.
    package let revocationGeneration: Int64
    /// `firebase.session_id` (Flint's): the session (refresh token) the token was minted for, when it names one.
    package var sessionID: String? { payload["firebase"]?[IDTokenClaims.sessionIDClaim]?.stringValue }
    /// The whole payload.
    package let payload: [String: JSONValue]
    /// `firebase.tenant`: the account's tenant, empty for the default tenant's.
    package var tenant: String { payload["firebase"]?["tenant"]?.stringValue ?? "" }
}

/// Checks ID tokens against the ring's published keys. Any failure is Firebase's `INVALID_ID_TOKEN`:
/// `alg` other than RS256 (including `none`), unknown `kid`, bad signature, wrong `aud`/`iss`, past `exp`.
package enum TokenVerifier {
    /// Verifies a compact JWS ID token.
    /// - Throws: ``AuthError/invalidIDToken``.
    package static func verify(_ token: String, ring: KeyRing, projectID: String, now: Instant) throws(AuthError) -> VerifiedIDToken {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count < 16_384, parts.count == 3,
            let headerBytes = Base64URL.decodeCanonical(parts[0]),
            let payloadBytes = Base64URL.decodeCanonical(parts[1]),
            let signature = Base64URL.decodeCanonical(parts[2]),
            let header = (try? JSONValue(parsing: headerBytes))?.objectValue,
            header["alg"]?.stringValue == "RS256",
            let kid = header["kid"]?.stringValue,
            let key = ring.key(kid: kid),
            ring.isPublished(key, at: now),
            key.verify(signature: signature, input: Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))),
            let payload = (try? JSONValue(parsing: payloadBytes))?.objectValue
        else { throw AuthError.invalidIDToken }

        guard payload["aud"]?.stringValue == projectID,
            payload["iss"]?.stringValue == IDTokenClaims.issuer(projectID: projectID),
            let sub = payload["sub"]?.stringValue, !sub.isEmpty,
            let exp = payload["exp"]?.nonNegativeInteger, let iat = payload["iat"]?.nonNegativeInteger
        else { throw AuthError.invalidIDToken }
        guard now < Instant(secondsSince1970: exp) else { throw AuthError.invalidIDToken }
        // Numbers from outside are converted without traps: a claim out of range makes the token invalid.
        var authTime = iat
        if let present = payload["auth_time"] {
            guard let seconds = present.nonNegativeInteger else { throw AuthError.invalidIDToken }
            authTime = seconds
        }
        let firebase = payload["firebase"]
        var generation: Int64 = 0
        if let present = firebase?[IDTokenClaims.revocationGenerationClaim] {
            guard let value = present.nonNegativeInteger else { throw AuthError.invalidIDToken }
            generation = value
        }
        return VerifiedIDToken(
            userID: sub, issuedAt: Instant(secondsSince1970: iat), authTime: Instant(secondsSince1970: authTime),
            signInProvider: firebase?["sign_in_provider"]?.stringValue,
            revocationGeneration: generation, payload: payload)
    }
}

extension JSONValue {
    /// A whole, non-negative number that fits JSON's exact integers (below 2^53), as `Int64`; `nil` for anything
    /// else (fractions, negatives, huge values, other types), so claims from outside never trap a conversion.
    var nonNegativeInteger: Int64? {
        guard case .number(let n) = self, n.isFinite, n >= 0, n < 9_007_199_254_740_992, n.rounded(.towardZero) == n else { return nil }
        return Int64(n)
    }
}

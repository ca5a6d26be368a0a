#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An ID token whose signature, audience, issuer and expiry have been checked.
public struct VerifiedIDToken: Sendable {
    /// `sub` / `user_id`.
    public let userID: String
    /// `iat`, seconds.
    public let issuedAt: Int64
    /// `auth_time`, seconds.
    public let authTime: Int64
    /// `firebase.sign_in_provider`.
    public let signInProvider: String?
    /// The whole payload.
    public let payload: [String: JSONValue]
}

/// Checks ID tokens against the ring's published keys. Any failure is Firebase's `INVALID_ID_TOKEN`:
/// `alg` other than RS256 (including `none`), unknown `kid`, bad signature, wrong `aud`/`iss`, past `exp`.
public enum TokenVerifier {
    /// Verifies a compact JWS ID token.
    /// - Throws: ``AuthError/invalidIDToken``.
    public static func verify(_ token: String, ring: KeyRing, projectID: String, now: Date) throws(AuthError) -> VerifiedIDToken {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count < 16_384, parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]),
            let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONValue(parsing: headerBytes))?.objectValue,
            header["alg"]?.stringValue == "RS256",
            let kid = header["kid"]?.stringValue,
            let key = ring.key(kid: kid),
            ring.published(at: now).contains(where: { $0.kid == kid }),
            key.verify(signature: signature, input: Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))),
            let payload = (try? JSONValue(parsing: payloadBytes))?.objectValue
        else { throw AuthError.invalidIDToken }

        guard payload["aud"]?.stringValue == projectID,
            payload["iss"]?.stringValue == IDTokenClaims.issuer(projectID: projectID),
            let sub = payload["sub"]?.stringValue, !sub.isEmpty,
            case .number(let exp)? = payload["exp"], case .number(let iat)? = payload["iat"]
        else { throw AuthError.invalidIDToken }
        guard Double(Int64(now.timeIntervalSince1970)) < exp else { throw AuthError.invalidIDToken }
        var authTime = Int64(iat)
        if case .number(let a)? = payload["auth_time"] { authTime = Int64(a) }
        let provider = payload["firebase"]?["sign_in_provider"]?.stringValue
        return VerifiedIDToken(userID: sub, issuedAt: Int64(iat), authTime: authTime, signInProvider: provider, payload: payload)
    }
}

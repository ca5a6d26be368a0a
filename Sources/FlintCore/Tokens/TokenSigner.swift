#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Produces RS256 JWTs with the key the ring has signing at the token's `iat`. Header:
/// `{"alg":"RS256","kid":...,"typ":"JWT"}`.
package struct TokenSigner: Sendable {
    /// Why a token could not be signed.
    package enum Failure: Error { case noActiveKey }

    /// Signs the claims with the ring's signing key at their `issuedAt` and returns the compact JWS.
    /// - Throws: ``Failure/noActiveKey`` when the ring has no key signing then, or a crypto error.
    package static func sign(_ claims: IDTokenClaims, with ring: KeyRing) throws -> String {
        guard let key = ring.signer(at: claims.issuedAt) else { throw Failure.noActiveKey }
        return try sign(payload: claims.payload, with: key)
    }

    /// Signs an arbitrary JSON payload.
    package static func sign(payload: [String: JSONValue], with key: SigningKey) throws -> String {
        let header = #"{"alg":"RS256","kid":"\#(key.kid)","typ":"JWT"}"#
        let body = JSONValue.object(payload).serialized()
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(body)
        let signature = try key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}

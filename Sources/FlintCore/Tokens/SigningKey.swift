import Crypto
package import CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One RS256 signing key with its self-signed certificate (the x509 map Firebase verifiers read needs one).
package struct SigningKey: Sendable {
    /// The key ID written into the JWT header (`kid`).
    package let kid: String
    /// The private key.
    package let privateKey: _RSA.Signing.PrivateKey
    /// The PEM-encoded self-signed certificate for the public key.
    package let certificatePEM: String
    /// When the key was created: it is published from then.
    package let createdAt: Instant
    /// When the key starts signing (later than its creation for a scheduled key).
    package let activatesAt: Instant
    /// When the key stops signing (its successor's activation), or `nil` while no successor is scheduled.
    package var retiredAt: Instant?
    /// When the key was revoked (leaked): from then on it is neither published nor accepted.
    package var revokedAt: Instant?
    /// The same key in the system's OpenSSL, when that fast path is available.
    private let fast: OpenSSLKey?

    /// The public half.
    package var publicKey: _RSA.Signing.PublicKey { privateKey.publicKey }
    /// The private key in PKCS#8 PEM, as stored.
    package var privateKeyPEM: String { privateKey.pemRepresentation }

    /// Rebuilds a key from its stored form; `activatesAt` defaults to `createdAt`.
    /// - Throws: when the PEM is not an RSA private key.
    package init(
        kid: String, privateKeyPEM: String, certificatePEM: String, createdAt: Instant, activatesAt: Instant? = nil, retiredAt: Instant?,
        revokedAt: Instant? = nil
    ) throws {
        self.kid = kid
        self.privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        self.certificatePEM = certificatePEM
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
        self.retiredAt = retiredAt
        self.revokedAt = revokedAt
        self.fast = OpenSSLKey(pem: privateKeyPEM)
    }

    /// Creates a fresh 2048-bit key and a self-signed certificate valid for `validity`.
    /// - Parameters:
    ///   - now: the creation instant.
    ///   - random: the source of the key ID.
    ///   - validity: certificate lifetime.
    package static func generate(now: Instant, random: some RandomSource, validity: Duration = .seconds(400 * 86_400)) throws -> SigningKey {
        let pair = try RSAKeyPair.generate(commonName: "securetoken.system.gserviceaccount.com", now: now, validity: validity)
        let kid = Hex.encode(random.bytes(20))
        return try SigningKey(kid: kid, privateKeyPEM: pair.privateKeyPEM, certificatePEM: pair.certificatePEM, createdAt: now, retiredAt: nil)
    }

    /// Signs `input` with RSASSA-PKCS1-v1_5 over SHA-256 (JWS `RS256`).
    package func sign(_ input: [UInt8]) throws -> [UInt8] {
        if let fast, let signature = fast.sign(input) { return signature }
        let signature = try privateKey.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        return [UInt8](signature.rawRepresentation)
    }

    /// Checks an RS256 signature.
    package func verify(signature: [UInt8], input: [UInt8]) -> Bool {
        publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature),
            for: SHA256.hash(data: input),
            padding: .insecurePKCS1v1_5
        )
    }

    /// The key as a JWK (`kty`, `alg`, `use`, `kid`, `n`, `e`).
    package func jwk() throws -> [String: String] {
        let primitives = try publicKey.getKeyPrimitives()
        return [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
            "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent),
        ]
    }
}

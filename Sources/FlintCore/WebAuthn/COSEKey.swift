package import Crypto
package import CryptoExtras

/// A credential public key as COSE (RFC 9053) encodes it in authenticator data: ES256 (EC2, P-256) or RS256 (RSA,
/// PKCS #1 v1.5 with SHA-256), the two algorithms Flint offers in `pubKeyCredParams`.
package enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// COSE algorithm identifiers.
    package static let es256Algorithm: Int64 = -7
    package static let rs256Algorithm: Int64 = -257

    /// Reads a COSE key map.
    /// - Throws: ``WebAuthnError`` when the key is not an ES256 or RS256 key with well-formed parameters.
    package init(_ item: CBOR) throws(WebAuthnError) {
        guard case .map = item, let kty = item[1]?.int, let alg = item[3]?.int else { throw .invalid("credential public key") }
        switch (kty, alg) {
        case (2, Self.es256Algorithm):
            guard item[-1]?.int == 1, let x = item[-2]?.bytes, let y = item[-3]?.bytes, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw .invalid("ES256 public key") }
            self = .es256(key)
        case (3, Self.rs256Algorithm):
            guard let n = item[-1]?.bytes, let e = item[-2]?.bytes, n.count >= 256, n.count <= 1024, !e.isEmpty, e.count <= 8,
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { throw .invalid("RS256 public key") }
            self = .rs256(key)
        default:
            throw .unsupported("credential algorithm")
        }
    }

    /// Reads a COSE key from its CBOR bytes (as stored).
    package init(bytes: [UInt8]) throws(WebAuthnError) {
        let item: CBOR
        do { item = try CBORDecoder.decode(bytes) } catch { throw .invalid("credential public key (\(error.reason))") }
        try self.init(item)
    }

    /// Whether `signature` (DER ECDSA for ES256, PKCS #1 v1.5 for RS256) signs `message` with SHA-256.
    package func verifies(_ signature: [UInt8], over message: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: message))
        case .rs256(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }
}

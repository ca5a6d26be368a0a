import Crypto
import CryptoExtras

/// One signing key an identity provider publishes in its JWKS: RSA (`RS256`) or P-256 (`ES256`).
package struct ProviderKey: Sendable {
    /// The key's material.
    enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
    }

    /// `kid`.
    package let kid: String
    /// The public key.
    let material: Material

    /// Whether `signature` is this key's `alg` signature over `input`. An `alg` that does not fit the key's type
    /// (an `RS256` header over an EC key, `none`, `HS256`) never verifies.
    package func verify(signature: [UInt8], input: [UInt8], alg: String) -> Bool {
        switch (material, alg) {
        case (.rsa(let key), "RS256"):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.p256(let key), "ES256"):
            guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: input))
        default:
            return false
        }
    }
}

/// A provider's JWKS (`{"keys":[…]}`) as its ID tokens are checked against it. Keys Flint cannot use (encryption
/// keys, other key types or curves, RSA below 2048 bits, keys without a `kid`) are left out rather than refusing
/// the whole set, so a provider adding a new kind of key does not stop sign-ins.
package struct ProviderKeySet: Sendable {
    /// The usable keys by `kid`.
    package let keys: [String: ProviderKey]

    /// An empty set.
    package init() {
        keys = [:]
    }

    /// Parses a JWKS document.
    /// - Throws: ``ProviderTokenError`` when the document is not a JSON object with a `keys` array.
    package init(jwks bytes: [UInt8]) throws(ProviderTokenError) {
        guard let document = try? JSONValue(parsing: bytes), case .array(let list)? = document["keys"] else {
            throw ProviderTokenError("the provider's key set is not a JWKS document")
        }
        var keys: [String: ProviderKey] = [:]
        for entry in list {
            guard let key = Self.key(entry) else { continue }
            keys[key.kid] = key
        }
        self.keys = keys
    }

    /// The key named `kid`.
    package func key(kid: String) -> ProviderKey? { keys[kid] }

    /// A base64url member of a JWK, decoded.
    private static func bytes(_ jwk: JSONValue, _ member: String) -> [UInt8]? {
        guard let text = jwk[member]?.stringValue else { return nil }
        return Base64URL.decode(text)
    }

    private static func key(_ jwk: JSONValue) -> ProviderKey? {
        guard let kid = jwk["kid"]?.stringValue, !kid.isEmpty else { return nil }
        if let use = jwk["use"]?.stringValue, use != "sig" { return nil }
        switch jwk["kty"]?.stringValue {
        case "RSA":
            guard let n = bytes(jwk, "n"), let e = bytes(jwk, "e"),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { return nil }
            return ProviderKey(kid: kid, material: .rsa(key))
        case "EC":
            guard jwk["crv"]?.stringValue == "P-256", let x = bytes(jwk, "x"), let y = bytes(jwk, "y"), x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { return nil }
            return ProviderKey(kid: kid, material: .p256(key))
        default:
            return nil
        }
    }
}

import ArgumentParser
import Crypto
import CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the stand-in signs: RS256 with a 2048-bit key, as Apple's published keys are, or ES256.
enum IdpAlgorithm: String, ExpressibleByArgument, CaseIterable, Sendable {
    case rs256
    case es256
}

/// Sign in with Apple's issuer, stood in for on loopback: a signing key, its JWKS (what Flint fetches from
/// `/auth/keys` through `--idp-stand-in apple.com=…`), and Apple-like ID tokens signed with it.
struct AppleStandIn: Sendable {
    enum Key: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    static let issuer = "https://appleid.apple.com"
    let key: Key
    let kid: String
    let bundleID: String

    /// The key in `file` (PEM) when it exists, else a new one, written there when a file is named: repeated runs
    /// against one server then sign with the key it has cached.
    init(algorithm: IdpAlgorithm, keyFile: String?, bundleID: String) throws {
        self.bundleID = bundleID
        let pem = keyFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        switch algorithm {
        case .rs256:
            let rsa = try pem.map { try _RSA.Signing.PrivateKey(pemRepresentation: $0) } ?? _RSA.Signing.PrivateKey(keySize: .bits2048)
            key = .rsa(rsa)
            kid = "bench-rs-" + Self.fingerprint(rsa.publicKey.derRepresentation)
            if pem == nil, let keyFile { try rsa.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8) }
        case .es256:
            let p256 = try pem.map { try P256.Signing.PrivateKey(pemRepresentation: $0) } ?? P256.Signing.PrivateKey()
            key = .p256(p256)
            kid = "bench-es-" + Self.fingerprint(p256.publicKey.derRepresentation)
            if pem == nil, let keyFile { try p256.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8) }
        }
    }

    private static func fingerprint(_ der: some DataProtocol) -> String {
        SHA256.hash(data: Array(der)).prefix(6).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    var alg: String {
        switch key {
        case .rsa: "RS256"
        case .p256: "ES256"
        }
    }

    /// `{"keys":[…]}` with the public key.
    func jwks() throws -> String {
        let members: String
        switch key {
        case .rsa(let rsa):
            let primitives = try rsa.publicKey.getKeyPrimitives()
            members =
                "\"kty\":\"RSA\",\"n\":\"" + Base64URL.encode(primitives.modulus) + "\",\"e\":\"" + Base64URL.encode(primitives.publicExponent) + "\""
        case .p256(let p256):
            let point = Array(p256.publicKey.x963Representation)
            members =
                "\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + Base64URL.encode(point[1..<33]) + "\",\"y\":\"" + Base64URL.encode(point[33..<65])
                + "\""
        }
        return "{\"keys\":[{" + members + ",\"kid\":\"" + kid + "\",\"use\":\"sig\",\"alg\":\"" + alg + "\"}]}"
    }

    /// An ID token as Apple issues one to an app: `aud` the bundle ID, `nonce` the SHA-256 hex of the app's raw nonce,
    /// the email (a private relay address), valid for an hour from now.
    func token(sub: String, email: String, rawNonce: String, now: Int) throws -> String {
        let nonce = SHA256.hash(data: Array(rawNonce.utf8)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let header = "{\"kid\":\"" + kid + "\",\"alg\":\"" + alg + "\"}"
        let claims =
            "{\"iss\":\"" + Self.issuer + "\",\"aud\":" + JSONText.quote(bundleID) + ",\"exp\":" + String(now + 3600) + ",\"iat\":" + String(now)
            + ",\"sub\":" + JSONText.quote(sub) + ",\"nonce\":\"" + nonce + "\",\"c_hash\":\"bench\",\"email\":" + JSONText.quote(email)
            + ",\"email_verified\":\"true\",\"is_private_email\":\"true\",\"auth_time\":" + String(now) + ",\"nonce_supported\":true}"
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature: [UInt8]
        switch key {
        case .rsa(let rsa):
            signature = Array(try rsa.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
        case .p256(let p256):
            signature = Array(try p256.signature(for: Array(input.utf8)).rawRepresentation)
        }
        return input + "." + Base64URL.encode(signature)
    }
}

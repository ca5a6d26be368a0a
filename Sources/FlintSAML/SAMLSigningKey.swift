import Crypto
import CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SP's RSA private key for signing AuthnRequests in the HTTP-Redirect binding (RSA-SHA256, PKCS #1 v1.5).
public struct SAMLSigningKey: Sendable {
    private let key: _RSA.Signing.PrivateKey

    /// - Parameter pemRepresentation: an RSA private key of 2048 bits or more, PKCS #1 or PKCS #8 PEM.
    /// - Throws: ``SAMLError/invalidSigningKey(_:)``.
    public init(pemRepresentation: String) throws(SAMLError) {
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation)
        } catch {
            throw .invalidSigningKey("not an RSA private key of at least 2048 bits in PEM")
        }
    }

    /// The RSA-SHA256 signature of the bytes.
    func signature(for bytes: [UInt8]) throws(SAMLError) -> Data {
        do {
            return try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation
        } catch {
            throw .invalidSigningKey("the key could not sign")
        }
    }
}

import Crypto
package import CryptoExtras
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fresh RSA-2048 private key with a self-signed X.509 certificate for its public half (SHA-256 with RSA): the
/// token-signing keys' (``SigningKey``) and the SAML service provider's request-signing keys.
package struct RSAKeyPair: Sendable {
    /// The private key.
    package let privateKey: _RSA.Signing.PrivateKey
    /// The certificate, PEM.
    package let certificatePEM: String

    /// The private key in PKCS#8 PEM.
    package var privateKeyPEM: String { privateKey.pemRepresentation }

    /// Generates a key and its certificate, valid from five minutes before `now` (clocks that lag a little) for
    /// `validity`.
    /// - Parameter commonName: the certificate's subject and issuer CN.
    package static func generate(commonName: String, now: Instant, validity: Duration) throws -> RSAKeyPair {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: (now - .seconds(300)).date,
            notValidAfter: (now + validity).date,
            issuer: name,
            subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: Certificate.Extensions {},
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return RSAKeyPair(privateKey: key, certificatePEM: try certificate.serializeAsPEM().pemString)
    }
}

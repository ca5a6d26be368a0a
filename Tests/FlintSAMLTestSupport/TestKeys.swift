import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import X509

/// An RSA key pair and a self-signed certificate for it, made at test time (swift-certificates), in PEM.
package struct TestKey: Sendable {
    package let privateKeyPEM: String
    package let certificatePEM: String

    package init(commonName: String) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let certificateKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: certificateKey.publicKey,
            notValidBefore: Date(timeIntervalSince1970: 0), notValidAfter: Date(timeIntervalSince1970: 4_000_000_000),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(),
            issuerPrivateKey: certificateKey)
        privateKeyPEM = key.pemRepresentation
        certificatePEM = try certificate.serializeAsPEM().pemString
    }

    /// The IdP's key, whose certificate the tests configure.
    package static let idp = Result { try TestKey(commonName: "Flint Test IdP") }
    /// A key the configuration does not know: an attacker's, or another IdP's.
    package static let stranger = Result { try TestKey(commonName: "Someone Else") }
}

import Crypto
import CryptoExtras
import SwiftASN1
import X509

/// A registration's `attestationObject` (WebAuthn §6.5): the authenticator data with its new credential, checked
/// with its attestation statement. Formats `none` and `packed` are verified; `packed` as self attestation (signed by
/// the credential key) or with an `x5c` certificate whose key signs the statement. The certificate chain is not
/// validated up to a root (Flint keeps no list of authenticator vendors' roots), so `x5c` proves nothing more than
/// self attestation about where the authenticator comes from.
package struct Attestation: Sendable {
    package var format: String
    package var authenticatorData: AuthenticatorData
    /// The credential the authenticator attests.
    package var credential: AuthenticatorData.AttestedCredential

    /// Parses `attestationObject` and verifies its statement over the authenticator data and `clientDataHash`.
    /// - Throws: ``WebAuthnError`` for malformed input, an unsupported format or a signature that does not verify.
    package init(_ bytes: [UInt8], clientDataHash: [UInt8]) throws(WebAuthnError) {
        let object: CBOR
        do { object = try CBORDecoder.decode(bytes) } catch { throw .invalid("attestationObject (\(error.reason))") }
        guard let format = object["fmt"]?.text, let statement = object["attStmt"], case .map(let fields) = statement,
            let authData = object["authData"]?.bytes
        else { throw .invalid("attestationObject") }
        let data = try AuthenticatorData(authData)
        guard let credential = data.attestedCredential else { throw .invalid("attestationObject: no credential") }
        switch format {
        case "none":
            guard fields.isEmpty else { throw .invalid("attestation statement") }
        case "packed":
            try Self.verifyPacked(statement, signed: authData + clientDataHash, credential: credential.publicKey)
        default:
            throw .unsupported("attestation format \(format)")
        }
        (self.format, self.authenticatorData, self.credential) = (format, data, credential)
    }

    /// `packed`: `sig` over authenticator data ‖ client data hash, by the `x5c` leaf's key or by the credential.
    static func verifyPacked(_ statement: CBOR, signed message: [UInt8], credential: COSEKey) throws(WebAuthnError) {
        guard let alg = statement["alg"]?.int, let signature = statement["sig"]?.bytes else { throw .invalid("packed attestation statement") }
        guard statement["ecdaaKeyId"] == nil else { throw .unsupported("ECDAA attestation") }
        if let chain = statement["x5c"] {
            guard case .array(let certificates) = chain, let leaf = certificates.first?.bytes,
                certificates.allSatisfy({ $0.bytes != nil }),
                let certificate = try? Certificate(derEncoded: leaf)
            else { throw .invalid("x5c") }
            let key: COSEKey
            switch alg {
            case COSEKey.es256Algorithm:
                guard let p256 = P256.Signing.PublicKey(certificate.publicKey) else { throw .invalid("x5c key for ES256") }
                key = .es256(p256)
            case COSEKey.rs256Algorithm:
                guard let rsa = _RSA.Signing.PublicKey(certificate.publicKey) else { throw .invalid("x5c key for RS256") }
                key = .rs256(rsa)
            default:
                throw .unsupported("attestation algorithm")
            }
            guard key.verifies(signature, over: message) else { throw .invalid("attestation signature") }
        } else {
            // Self attestation: the statement's algorithm is the credential's own.
            let expected =
                switch credential {
                case .es256: COSEKey.es256Algorithm
                case .rs256: COSEKey.rs256Algorithm
                }
            guard alg == expected else { throw .invalid("self attestation algorithm") }
            guard credential.verifies(signature, over: message) else { throw .invalid("attestation signature") }
        }
    }
}

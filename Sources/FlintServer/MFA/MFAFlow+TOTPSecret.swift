import Crypto
package import FlintCore

/// TOTP secrets at rest: sealed with the MFA key (AES-GCM) under their own context.
extension MFAFlow {
    /// Bound into every sealed TOTP secret, so nothing else sealed with the MFA key opens as one.
    private static let totpSecretContext = Array("flint totp secret v1".utf8)

    /// A TOTP secret as stored: sealed with the MFA key (AES-GCM), base64url.
    package func sealTOTPSecret(_ secretBytes: [UInt8]) throws -> String {
        let box = try AES.GCM.seal(secretBytes, using: secret.mfaKey, authenticating: Self.totpSecretContext)
        guard let combined = box.combined else { throw AuthError.internalError }
        return Base64URL.encode(combined)
    }

    /// The TOTP secret of a stored enrolment.
    package func openTOTPSecret(_ sealed: String) throws(AuthError) -> [UInt8] {
        guard let bytes = Base64URL.decodeCanonical(sealed), let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: secret.mfaKey, authenticating: Self.totpSecretContext)
        else { throw AuthError.internalError }
        return Array(plain)
    }
}

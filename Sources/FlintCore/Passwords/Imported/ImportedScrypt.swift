import Crypto
import CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The two scrypt imports: Firebase's modified scrypt and RFC 7914 scrypt.
enum ImportedScrypt {
    /// Firebase's `SCRYPT`: AES-256-CTR with a zero IV, keyed by the first 32 bytes of
    /// `scrypt(password, salt ‖ saltSeparator, N: 2^memoryCost, r: rounds, p: 1, 64 bytes)`, applied to the signer key.
    /// `nil` for parameters outside Firebase's ranges.
    static func firebase(password: [UInt8], salt: [UInt8], parameters: FirebaseScryptParameters) -> [UInt8]? {
        guard parameters.isValid,
            let derived = scrypt(
                password: password, salt: salt + parameters.saltSeparator, n: 1 << parameters.memoryCost, r: parameters.rounds, p: 1,
                length: 64),
            let nonce = try? AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)),
            let encrypted = try? AES._CTR.encrypt(parameters.signerKey, using: SymmetricKey(data: derived[0..<32]), nonce: nonce)
        else { return nil }
        return [UInt8](encrypted)
    }

    /// `STANDARD_SCRYPT`: `dkLen` bytes of scrypt; `nil` for parameters Flint does not accept.
    static func standard(password: [UInt8], salt: [UInt8], parameters: StandardScryptParameters) -> [UInt8]? {
        guard parameters.isValid else { return nil }
        return scrypt(
            password: password, salt: salt, n: parameters.cpuMemCost, r: parameters.blockSize, p: parameters.parallelization,
            length: parameters.dkLen)
    }

    private static func scrypt(password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, length: Int) -> [UInt8]? {
        guard
            let key = try? KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: length, rounds: n, blockSize: r, parallelism: p)
        else { return nil }
        return key.withUnsafeBytes { [UInt8]($0) }
    }
}

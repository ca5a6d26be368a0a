import CFlintOpenSSL

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An RSA private key loaded into the system's libcrypto, for the fast RS256 path on Linux.
///
/// `@unchecked Sendable`: the wrapped `EVP_PKEY` is never mutated after loading, and OpenSSL 3 allows signing with one
/// key from many threads at once (each call makes its own `EVP_MD_CTX`).
final class OpenSSLKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Whether the fast path is compiled in and not switched off (`FLINT_RSA=boringssl` turns it off).
    static let enabled: Bool = {
        guard flint_openssl_available() == 1 else { return false }
        return ProcessInfo.processInfo.environment["FLINT_RSA"] != "boringssl"
    }()

    /// Loads a PEM private key; `nil` if OpenSSL is unavailable or refuses the key.
    init?(pem: String) {
        guard Self.enabled else { return nil }
        let bytes = Array(pem.utf8)
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { flint_rsa_key_load($0.baseAddress, $0.count) }
        }
        guard let loaded else { return nil }
        key = loaded
    }

    deinit { flint_rsa_key_free(key) }

    /// RSASSA-PKCS1-v1_5 / SHA-256 signature of `input`, or `nil` on failure.
    func sign(_ input: [UInt8]) -> [UInt8]? {
        let size = flint_rsa_key_size(key)
        var signature = [UInt8](repeating: 0, count: size)
        let written = input.withUnsafeBufferPointer { msg in
            signature.withUnsafeMutableBufferPointer { sig in
                flint_rsa_sign_sha256(key, msg.baseAddress, msg.count, sig.baseAddress, sig.count)
            }
        }
        guard written > 0 else { return nil }
        return Array(signature.prefix(written))
    }
}

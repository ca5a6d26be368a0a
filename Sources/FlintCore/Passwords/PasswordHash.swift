import Crypto
import CryptoExtras

/// Memory-hard password hashes: scrypt (RFC 7914) with its parameters stored beside each hash, in the PHC string
/// format `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (unpadded base64url), so the cost can be raised later without
/// breaking stored passwords.
public struct PasswordHashParameters: Sendable, Equatable, CustomStringConvertible {
    /// log2 of the CPU/memory cost N.
    public var logN: Int
    /// Block size r.
    public var r: Int
    /// Parallelism p.
    public var p: Int

    /// Creates parameters; see ``default`` for Flint's choice.
    public init(logN: Int, r: Int = 8, p: Int = 1) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// N = 2^14, r = 8, p = 1: 16 MiB per hash, the parameters Firebase itself hashes with (about 30 ms on one core
    /// of the benchmark machine; 2^15 took five times as long there, see BENCHMARKS.md).
    public static let `default` = PasswordHashParameters(logN: 14)

    /// Memory one hash needs, bytes (128 · r · N).
    public var memoryBytes: Int { 128 * r << logN }

    /// Whether the values are within what Flint accepts (N from 2^10 to 2^22, r 1...32, p 1...16).
    public var isValid: Bool { (10...22).contains(logN) && (1...32).contains(r) && (1...16).contains(p) }

    public var description: String { "scrypt N=2^\(logN) r=\(r) p=\(p) (\(memoryBytes >> 20) MiB)" }
}

/// Computing and checking password hashes. CPU-bound and slow on purpose: call it from a bounded pool, never on
/// a request's event loop.
public enum PasswordHash {
    static let saltBytes = 16
    static let keyBytes = 32

    /// Hashes `password` with a fresh `salt` (16 random bytes).
    /// - Returns: the PHC string to store.
    public static func make(password: String, salt: [UInt8], parameters: PasswordHashParameters) throws -> String {
        let key = try derive(password: password, salt: salt, parameters: parameters, length: keyBytes)
        return "$scrypt$ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)$\(Base64URL.encode(salt))$\(Base64URL.encode(key))"
    }

    /// Whether `password` matches the stored PHC string (constant-time comparison). A malformed string never matches.
    public static func verify(password: String, stored: String) -> Bool {
        guard let parsed = parse(stored),
            let key = try? derive(password: password, salt: parsed.salt, parameters: parsed.parameters, length: parsed.hash.count)
        else { return false }
        return constantTimeEquals(key, parsed.hash)
    }

    /// The parameters a stored hash was made with, if it is one of ours.
    public static func parameters(of stored: String) -> PasswordHashParameters? {
        parse(stored)?.parameters
    }

    static func parse(_ stored: String) -> (parameters: PasswordHashParameters, salt: [UInt8], hash: [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, let n = Int(kv[1]) else { return nil }
            values[kv[0]] = n
        }
        guard let ln = values["ln"], let r = values["r"], let p = values["p"] else { return nil }
        let parameters = PasswordHashParameters(logN: ln, r: r, p: p)
        guard parameters.isValid, let salt = Base64URL.decode(parts[3]), let hash = Base64URL.decode(parts[4]),
            salt.count >= 8, hash.count >= 16
        else { return nil }
        return (parameters, salt, hash)
    }

    private static func derive(password: String, salt: [UInt8], parameters: PasswordHashParameters, length: Int) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: length, rounds: 1 << parameters.logN, blockSize: parameters.r,
            parallelism: parameters.p, maxMemory: parameters.memoryBytes + (1 << 20)
        )
        return key.withUnsafeBytes { Array($0) }
    }
}

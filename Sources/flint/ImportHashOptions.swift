import ArgumentParser
import FlintCore

/// `firebase auth:import`'s hash flags, with its meanings: `--mem-cost` is SCRYPT's memory cost (log2 N) and
/// STANDARD_SCRYPT's CPU/memory cost N; `--hash-key` and `--salt-separator` are base64.
struct ImportHashOptions: ParsableArguments {
    @Option(
        name: .customLong("hash-algo"),
        help:
            "The password hash algorithm: SCRYPT (Firebase's), STANDARD_SCRYPT, BCRYPT (cost at most 14; a user above is refused), PBKDF_SHA1, PBKDF2_SHA256, HMAC_SHA512, HMAC_SHA256, HMAC_SHA1, HMAC_MD5, SHA512, SHA256, SHA1, MD5."
    )
    var hashAlgo: String?

    @Option(name: .customLong("hash-key"), help: "The signer key (base64), for SCRYPT and HMAC_*.")
    var hashKey: String?

    @Option(name: .customLong("salt-separator"), help: "The salt separator (base64), for SCRYPT.")
    var saltSeparator: String?

    @Option(help: "Rounds: SCRYPT 1-8, PBKDF* 1-120000, SHA* 1-8192, MD5 0-8192.")
    var rounds: Int?

    @Option(name: .customLong("mem-cost"), help: "SCRYPT's memory cost (1-14), or STANDARD_SCRYPT's CPU/memory cost N.")
    var memCost: Int?

    @Option(help: "STANDARD_SCRYPT's parallelization.")
    var parallelization: Int?

    @Option(name: .customLong("block-size"), help: "STANDARD_SCRYPT's block size (normally 8).")
    var blockSize: Int?

    @Option(name: .customLong("dk-len"), help: "STANDARD_SCRYPT's derived key length.")
    var dkLen: Int?

    @Option(name: .customLong("hash-input-order"), help: "SALT_FIRST or PASSWORD_FIRST, for MD5, SHA* and HMAC_*.")
    var hashInputOrder: String?

    /// The algorithm the flags describe, or `nil` without `--hash-algo` (users with a hash are then refused).
    func algorithm() throws -> ImportedHashAlgorithm? {
        guard let name = hashAlgo?.uppercased() else { return nil }
        var wire: [String: JSONValue] = ["hashAlgorithm": .string(name)]
        if let hashKey { wire["signerKey"] = .string(hashKey) }
        if let saltSeparator { wire["saltSeparator"] = .string(saltSeparator) }
        if let rounds { wire["rounds"] = .number(Double(rounds)) }
        if name == "STANDARD_SCRYPT" {
            if let memCost { wire["cpuMemCost"] = .number(Double(memCost)) }
        } else if let memCost {
            wire["memoryCost"] = .number(Double(memCost))
        }
        if let parallelization { wire["parallelization"] = .number(Double(parallelization)) }
        if let blockSize { wire["blockSize"] = .number(Double(blockSize)) }
        if let dkLen { wire["dkLen"] = .number(Double(dkLen)) }
        switch hashInputOrder?.uppercased() {
        case nil: break
        case "SALT_FIRST": wire["passwordHashOrder"] = "SALT_AND_PASSWORD"
        case "PASSWORD_FIRST": wire["passwordHashOrder"] = "PASSWORD_AND_SALT"
        default: throw ValidationError("--hash-input-order must be SALT_FIRST or PASSWORD_FIRST")
        }
        do {
            return try ImportedHashAlgorithm(wire: wire)
        } catch {
            throw ValidationError(Self.explain(error, algorithm: name))
        }
    }

    /// firebase-tools' wording of a refused flag.
    static func explain(_ error: AuthError, algorithm: String) -> String {
        switch error.code {
        case "INVALID_HASH_ALGORITHM": "Unsupported hash algorithm \(algorithm)"
        case "EMPTY_HASH_KEY": "Must provide hash key (base64 encoded) for hash algorithm \(algorithm)"
        case "INVALID_HASH_ROUNDS":
            switch algorithm {
            case "SCRYPT": "Must provide valid rounds (1..8) for hash algorithm SCRYPT"
            case "MD5": "Must provide valid rounds (0..8192) for hash algorithm MD5"
            case "PBKDF_SHA1", "PBKDF2_SHA256": "Must provide valid rounds (1..120000) for hash algorithm \(algorithm)"
            default: "Must provide valid rounds (1..8192) for hash algorithm \(algorithm)"
            }
        case "INVALID_HASH_MEMORY_COST": "Must provide valid memory cost (1..14) for hash algorithm \(algorithm)"
        case "INVALID_HASH_PARAMETER":
            "STANDARD_SCRYPT needs --mem-cost (N, a power of two), --block-size, --parallelization and --dk-len within Flint's limits"
        default: "invalid hash flags: \(error.message)"
        }
    }
}

package import FlintCore

/// `firebase auth:import`'s password hash parameters, with its meanings, as `flint users import`'s flags and the
/// console's import form give them: `memCost` is SCRYPT's memory cost (log2 N) and STANDARD_SCRYPT's CPU/memory cost
/// N; `hashKey` and `saltSeparator` are base64.
package struct ImportHashParameters: Sendable {
    package var hashAlgo: String?
    package var hashKey: String?
    package var saltSeparator: String?
    package var rounds: Int?
    package var memCost: Int?
    package var parallelization: Int?
    package var blockSize: Int?
    package var dkLen: Int?
    /// `SALT_FIRST` or `PASSWORD_FIRST`.
    package var hashInputOrder: String?

    package init() {}

    /// The algorithm the parameters describe, or `nil` without `hashAlgo` (users with a hash are then refused).
    /// - Throws: ``ImportCommandError`` in firebase-tools' words for a refused parameter.
    package func algorithm() throws(ImportCommandError) -> ImportedHashAlgorithm? {
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
        default: throw ImportCommandError("--hash-input-order must be SALT_FIRST or PASSWORD_FIRST")
        }
        do {
            return try ImportedHashAlgorithm(wire: wire)
        } catch {
            throw ImportCommandError(Self.explain(error, algorithm: name))
        }
    }

    /// firebase-tools' wording of a refused parameter.
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

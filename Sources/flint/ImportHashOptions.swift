import ArgumentParser
import FlintCore
import FlintServer

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
        var parameters = ImportHashParameters()
        (parameters.hashAlgo, parameters.hashKey, parameters.saltSeparator, parameters.hashInputOrder) = (
            hashAlgo, hashKey, saltSeparator, hashInputOrder
        )
        (parameters.rounds, parameters.memCost, parameters.parallelization, parameters.blockSize, parameters.dkLen) = (
            rounds, memCost, parallelization, blockSize, dkLen
        )
        do {
            return try parameters.algorithm()
        } catch {
            throw ValidationError(error.description)
        }
    }
}

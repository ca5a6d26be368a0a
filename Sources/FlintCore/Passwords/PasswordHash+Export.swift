extension PasswordHash {
    /// A stored password hash as an operator's export shows it (`passwordHash` and `salt` of `accounts:batchGet`,
    /// `flint users export`), with the algorithm that checks it: for Flint's own `$scrypt$` strings the derived key,
    /// its salt and RFC 7914 scrypt (`STANDARD_SCRYPT`); for an imported hash the bytes and algorithm it was imported
    /// with, so a hash that came from Firebase goes back out unchanged. `nil` for a text that is neither.
    package static func exported(_ stored: String) -> (hash: [UInt8], salt: [UInt8], algorithm: ImportedHashAlgorithm)? {
        if let parsed = parse(stored) {
            let p = parsed.parameters
            let scrypt = StandardScryptParameters(cpuMemCost: 1 << p.logN, blockSize: p.r, parallelization: p.p, dkLen: parsed.hash.count)
            return (parsed.hash, parsed.salt, .standardScrypt(scrypt))
        }
        if let imported = ImportedPasswordHash(stored: stored) { return (imported.hash, imported.salt, imported.algorithm) }
        return nil
    }
}

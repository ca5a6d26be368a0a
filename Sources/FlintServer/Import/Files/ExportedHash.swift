package import FlintCore

/// A stored password hash as an export carries it: the user's hash and salt, and the `firebase auth:import` (and
/// `flint users import`) flags that check it. Imported hashes keep their algorithm; Flint's own scrypt hashes are
/// RFC 7914 scrypt, which imports as `STANDARD_SCRYPT`.
package struct ExportedHash: Equatable {
    package var hash: [UInt8]
    package var salt: [UInt8]
    /// The import flags of the hash's algorithm and parameters.
    package var flags: String

    /// The export form of a stored hash; `nil` for a text that is neither kind.
    package init?(stored: String) {
        guard let exported = PasswordHash.exported(stored) else { return nil }
        self.init(hash: exported.hash, salt: exported.salt, flags: Self.flags(exported.algorithm))
    }

    private init(hash: [UInt8], salt: [UInt8], flags: String) {
        self.hash = hash
        self.salt = salt
        self.flags = flags
    }

    /// The flags that name `algorithm` and its parameters.
    package static func flags(_ algorithm: ImportedHashAlgorithm) -> String {
        let name = "--hash-algo \(algorithm.wireName)"
        switch algorithm {
        case .firebaseScrypt(let p):
            let separator = p.saltSeparator.isEmpty ? "" : " --salt-separator \(ImportBase64.encode(p.saltSeparator))"
            return "\(name) --hash-key \(ImportBase64.encode(p.signerKey))\(separator) --rounds \(p.rounds) --mem-cost \(p.memoryCost)"
        case .standardScrypt(let p):
            return "\(name) --mem-cost \(p.cpuMemCost) --block-size \(p.blockSize) --parallelization \(p.parallelization) --dk-len \(p.dkLen)"
        case .bcrypt:
            return name
        case .pbkdfSHA1(let rounds), .pbkdf2SHA256(let rounds):
            return "\(name) --rounds \(rounds)"
        case .hmac(_, let key, let order):
            return "\(name) --hash-key \(ImportBase64.encode(key)) --hash-input-order \(orderFlag(order))"
        case .salted(_, let rounds, let order):
            return "\(name) --rounds \(rounds) --hash-input-order \(orderFlag(order))"
        }
    }

    private static func orderFlag(_ order: PasswordHashOrder) -> String {
        order == .saltAndPassword ? "SALT_FIRST" : "PASSWORD_FIRST"
    }
}

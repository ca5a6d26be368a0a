extension PasswordHash {
    /// The hash and salt bytes a stored password hash holds, as an operator's export shows them (`passwordHash` and
    /// `salt` of `accounts:batchGet`): for Flint's own `$scrypt$` strings the derived key and its salt; for an imported
    /// hash the bytes it was imported with, so a hash that came from Firebase goes back out unchanged. `nil` for a
    /// text that is neither.
    package static func exportedParts(of stored: String) -> (hash: [UInt8], salt: [UInt8])? {
        if let parsed = parse(stored) { return (parsed.hash, parsed.salt) }
        if let imported = ImportedPasswordHash(stored: stored) { return (imported.hash, imported.salt) }
        return nil
    }
}

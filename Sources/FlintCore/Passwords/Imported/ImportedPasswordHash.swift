/// A user's imported password hash with everything needed to check it: the algorithm and its parameters, the
/// user's salt and hash. ``stored`` is what goes in the password-hash column, beside Flint's own `$scrypt$` strings.
///
/// The stored text is `KIND$PARAMETERS$SALT$HASH`, where `KIND` is one of `firebase-scrypt`, `standard-scrypt`,
/// `bcrypt`, `pbkdf-sha1`, `pbkdf2-sha256`, `hmac-md5`, `hmac-sha1`, `hmac-sha256`, `hmac-sha512`, `md5`, `sha1`,
/// `sha256`, `sha512`; `PARAMETERS` is a comma-separated list of `name=value` (numbers in decimal, bytes and the salt
/// and hash in unpadded base64url), empty for bcrypt. For example
/// `firebase-scrypt$rounds=8,memcost=14,key=jxspr…,sep=Bw$42xEC-ixf3L2lw$lSrfV15c…`, `sha256$rounds=1,order=salt-password$…$…`,
/// `bcrypt$$$JDJiJDEwJC…` (a bcrypt hash is the modular-crypt string's bytes). None starts with `$`, so none can be
/// taken for Flint's own format (``PasswordHash``); see ``PasswordHash/isImported(_:)``.
///
/// The signer key of `SCRYPT` and `HMAC_*` imports is kept in every such user's row: whoever reads the column reads
/// the key.
package struct ImportedPasswordHash: Sendable, Hashable {
    /// How the hash was computed.
    package var algorithm: ImportedHashAlgorithm
    /// The user's salt (`salt` on the wire); empty when there is none.
    package var salt: [UInt8]
    /// The user's hash (`passwordHash` on the wire); for bcrypt, the modular-crypt string's bytes.
    package var hash: [UInt8]

    /// Creates a stored hash from an import's algorithm and one user's salt and hash.
    package init(algorithm: ImportedHashAlgorithm, salt: [UInt8], hash: [UInt8]) {
        self.algorithm = algorithm
        self.salt = salt
        self.hash = hash
    }

    /// Whether `password` matches (see ``ImportedHashAlgorithm/verify(password:hash:salt:)``).
    package func verify(password: String) -> Bool {
        algorithm.verify(password: password, hash: hash, salt: salt)
    }

    /// Whether checking a password against this hash would run more work than Flint allows (see
    /// ``ImportedHashAlgorithm/exceedsWorkBound(hash:)``): such a hash never matches.
    package var exceedsWorkBound: Bool { algorithm.exceedsWorkBound(hash: hash) }

    /// The text to keep in the password-hash column.
    package var stored: String {
        let (kind, parameters) = Self.describe(algorithm)
        let list = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        return "\(kind)$\(list)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// Reads a stored text back; `nil` for Flint's own hashes and for anything malformed or with parameters outside
    /// the ranges an import may have.
    package init?(stored: String) {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, let salt = Base64URL.decode(parts[2]), let hash = Base64URL.decode(parts[3]) else { return nil }
        var values: [Substring: Substring] = [:]
        for pair in parts[1].split(separator: ",") {
            let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard nameValue.count == 2, values.updateValue(nameValue[1], forKey: nameValue[0]) == nil else { return nil }
        }
        guard let algorithm = Self.algorithm(kind: parts[0], values: StoredValues(values: values)) else { return nil }
        self.init(algorithm: algorithm, salt: salt, hash: hash)
    }

    private static func describe(_ algorithm: ImportedHashAlgorithm) -> (String, [(name: String, value: String)]) {
        switch algorithm {
        case .firebaseScrypt(let p):
            return (
                "firebase-scrypt",
                [
                    ("rounds", "\(p.rounds)"), ("memcost", "\(p.memoryCost)"), ("key", Base64URL.encode(p.signerKey)),
                    ("sep", Base64URL.encode(p.saltSeparator)),
                ]
            )
        case .standardScrypt(let p):
            return ("standard-scrypt", [("n", "\(p.cpuMemCost)"), ("r", "\(p.blockSize)"), ("p", "\(p.parallelization)"), ("dklen", "\(p.dkLen)")])
        case .bcrypt: return ("bcrypt", [])
        case .pbkdfSHA1(let rounds): return ("pbkdf-sha1", [("rounds", "\(rounds)")])
        case .pbkdf2SHA256(let rounds): return ("pbkdf2-sha256", [("rounds", "\(rounds)")])
        case .hmac(let digest, let key, let order):
            return ("hmac-\(digest.rawValue)", [("key", Base64URL.encode(key)), ("order", storedName(order))])
        case .salted(let digest, let rounds, let order):
            return (digest.rawValue, [("rounds", "\(rounds)"), ("order", storedName(order))])
        }
    }

    private static func storedName(_ order: PasswordHashOrder) -> String {
        order == .saltAndPassword ? "salt-password" : "password-salt"
    }

    /// The algorithm a stored kind and its parameters name, checked against the ranges ``ImportedHashAlgorithm/init(wire:)``
    /// accepts so that a hand-edited or restored row cannot make a sign-in run unbounded work.
    private static func algorithm(kind: Substring, values: StoredValues) -> ImportedHashAlgorithm? {
        switch kind {
        case "firebase-scrypt":
            guard let rounds = values.int("rounds"), let cost = values.int("memcost"), let key = values.bytes("key"),
                let separator = values.bytes("sep"), values.count == 4
            else { return nil }
            let p = FirebaseScryptParameters(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: cost)
            return p.isValid ? .firebaseScrypt(p) : nil
        case "standard-scrypt":
            guard let n = values.int("n"), let r = values.int("r"), let p = values.int("p"), let dkLen = values.int("dklen"),
                values.count == 4
            else { return nil }
            let parameters = StandardScryptParameters(cpuMemCost: n, blockSize: r, parallelization: p, dkLen: dkLen)
            return parameters.isValid ? .standardScrypt(parameters) : nil
        case "bcrypt":
            return values.count == 0 ? .bcrypt : nil
        case "pbkdf-sha1", "pbkdf2-sha256":
            guard let rounds = values.int("rounds"), (1...120_000).contains(rounds), values.count == 1 else { return nil }
            return kind == "pbkdf-sha1" ? .pbkdfSHA1(rounds: rounds) : .pbkdf2SHA256(rounds: rounds)
        case let kind where kind.hasPrefix("hmac-"):
            guard let digest = ImportedDigest(rawValue: String(kind.dropFirst(5))), let key = values.bytes("key"), !key.isEmpty,
                let order = values.order(), values.count == 2
            else { return nil }
            return .hmac(digest, key: key, order: order)
        default:
            guard let digest = ImportedDigest(rawValue: String(kind)), let rounds = values.int("rounds"),
                (digest == .md5 ? 0...8192 : 1...8192).contains(rounds), let order = values.order(), values.count == 2
            else { return nil }
            return .salted(digest, rounds: rounds, order: order)
        }
    }
}

/// The `name=value` parameters of a stored text.
private struct StoredValues {
    let values: [Substring: Substring]

    var count: Int { values.count }

    /// A decimal number written as ``ImportedPasswordHash/stored`` writes it (no sign, no leading zero).
    func int(_ name: Substring) -> Int? {
        guard let text = values[name], let n = Int(text), n >= 0, String(n) == text else { return nil }
        return n
    }

    func bytes(_ name: Substring) -> [UInt8]? { values[name].flatMap { Base64URL.decode($0) } }

    func order() -> PasswordHashOrder? {
        switch values["order"] {
        case "salt-password": .saltAndPassword
        case "password-salt": .passwordAndSalt
        default: nil
        }
    }
}

extension PasswordHash {
    /// Whether `stored` is an imported hash (``ImportedPasswordHash``'s text) rather than one of Flint's own: check it
    /// with `ImportedPasswordHash(stored:)?.verify(password:)`, and after a successful sign-in store a fresh
    /// ``PasswordHash/make(password:salt:parameters:)`` in its place, as Firebase rehashes imported passwords.
    package static func isImported(_ stored: String) -> Bool {
        ImportedPasswordHash(stored: stored) != nil
    }
}

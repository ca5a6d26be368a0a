import Crypto
import CryptoExtras

/// Checking a password against an imported hash.
extension ImportedHashAlgorithm {
    /// The most bytes a `PBKDF_SHA1` or `PBKDF2_SHA256` hash may have (each 20 or 32 bytes more costs `rounds` again).
    package static let maximumPBKDF2HashBytes = 512

    /// The longest password checked against an `MD5` import, whose every round hashes the password again (8,192
    /// rounds of a 1 MiB password took 11 s): longer ones never match. Flint sets no password longer either.
    package static let maximumMD5PasswordBytes = 4096

    /// The highest bcrypt cost Flint imports and checks, 14: each step doubles the work of one check.
    package static let maximumBCryptCost = BCrypt.maximumCost

    /// Whether one check of `hash` under this algorithm would run more work than Flint allows: a bcrypt string whose
    /// cost is above ``maximumBCryptCost``. (The other kinds carry their work factors in the import's parameters,
    /// which ``init(wire:)`` bounds.) Such a hash is refused at import and never computed at sign-in.
    package func exceedsWorkBound(hash: [UInt8]) -> Bool {
        guard case .bcrypt = self, let parsed = BCrypt.parse(hash) else { return false }
        return parsed.cost > Self.maximumBCryptCost
    }

    /// Whether `password` (its UTF-8 bytes) is the one that produced `hash` with `salt` under this algorithm.
    ///
    /// The final comparison takes the same time wherever the bytes differ. An empty hash, parameters outside the
    /// ranges ``init(wire:)`` accepts (``StandardScryptParameters/isValid``, ``FirebaseScryptParameters/isValid``), a
    /// PBKDF2 hash longer than ``maximumPBKDF2HashBytes``, a malformed bcrypt string or one whose cost is above
    /// ``maximumBCryptCost``, and a password longer than ``maximumMD5PasswordBytes`` for `MD5`, never match. CPU-bound and
    /// slow for the scrypt and bcrypt kinds: call it off the event loop, as ``PasswordHash/verify(password:stored:)``.
    package func verify(password: String, hash: [UInt8], salt: [UInt8]) -> Bool {
        guard !hash.isEmpty else { return false }
        let password = Array(password.utf8)
        switch self {
        case .firebaseScrypt(let parameters):
            guard let derived = ImportedScrypt.firebase(password: password, salt: salt, parameters: parameters) else { return false }
            return constantTimeEquals(derived, hash)
        case .standardScrypt(let parameters):
            guard let derived = ImportedScrypt.standard(password: password, salt: salt, parameters: parameters) else { return false }
            return constantTimeEquals(derived, hash)
        case .bcrypt:
            return BCrypt.verify(password: password, modularCrypt: hash)
        case .pbkdfSHA1(let rounds):
            return Self.pbkdf2(.insecureSHA1, password: password, salt: salt, rounds: rounds, hash: hash)
        case .pbkdf2SHA256(let rounds):
            return Self.pbkdf2(.sha256, password: password, salt: salt, rounds: rounds, hash: hash)
        case .hmac(let digest, let key, let order):
            guard !key.isEmpty else { return false }
            return constantTimeEquals(digest.hmac(key: key, message: order.join(salt: salt, password: password)), hash)
        case .salted(.md5, let rounds, let order):
            guard (0...8192).contains(rounds), password.count <= Self.maximumMD5PasswordBytes else { return false }
            var x = ImportedDigest.md5.hash(order.join(salt: salt, password: password))
            for _ in 0..<rounds { x = ImportedDigest.md5.hash(x + password) }
            return Self.matchesMD5(x, hash)
        case .salted(let digest, let rounds, let order):
            guard (1...8192).contains(rounds) else { return false }
            var x = digest.hash(order.join(salt: salt, password: password))
            for _ in 1..<rounds { x = digest.hash(x) }
            return constantTimeEquals(x, hash)
        }
    }

    private static func pbkdf2(
        _ function: KDF.Insecure.PBKDF2.HashFunction, password: [UInt8], salt: [UInt8], rounds: Int, hash: [UInt8]
    ) -> Bool {
        guard (1...120_000).contains(rounds), hash.count <= maximumPBKDF2HashBytes,
            let key = try? KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: function, outputByteCount: hash.count, unsafeUncheckedRounds: rounds)
        else { return false }
        return constantTimeEquals(key.withUnsafeBytes { Array($0) }, hash)
    }

    /// An MD5 import stores the digest's hex text (Firebase's own example hashes `md5(...).digest('hex')`); the raw
    /// 16 bytes and upper-case hex are taken as well.
    private static func matchesMD5(_ digest: [UInt8], _ hash: [UInt8]) -> Bool {
        if hash.count == digest.count { return constantTimeEquals(digest, hash) }
        // Upper-case hex to lower case (this looks at the stored hash only, never at what the password derived).
        let lowered = hash.map { (65...70).contains($0) ? $0 | 0x20 : $0 }
        return constantTimeEquals(Array(Hex.encode(digest).utf8), lowered)
    }
}

extension ImportedDigest {
    /// The digest of `data`.
    func hash(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .md5: Array(Insecure.MD5.hash(data: data))
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }

    /// HMAC of `message` under `key` with this digest.
    func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        return switch self {
        case .md5: Array(HMAC<Insecure.MD5>.authenticationCode(for: message, using: key))
        case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512: Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }
}

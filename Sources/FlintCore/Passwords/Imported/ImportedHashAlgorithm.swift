/// How a password hash imported through `accounts:batchCreate` (the Admin SDK's `importUsers`) was computed: one of
/// the algorithms Firebase accepts, with the project-wide parameters the request carried beside its users.
///
/// Each user brings its own `passwordHash` and `salt`; ``verify(password:hash:salt:)`` checks a password against them,
/// and ``ImportedPasswordHash`` keeps the three together in the password-hash column. Parse a request's parameters
/// with ``init(wire:)``.
package enum ImportedHashAlgorithm: Sendable, Hashable {
    /// Firebase's own modified scrypt (`SCRYPT`): the hash is the signer key encrypted with AES-256-CTR (zero IV)
    /// under the first 32 bytes of `scrypt(password, salt ‖ saltSeparator, N: 2^memoryCost, r: rounds, p: 1,
    /// 64 bytes)`.
    case firebaseScrypt(FirebaseScryptParameters)
    /// Plain scrypt (`STANDARD_SCRYPT`, RFC 7914) with the salt as given.
    case standardScrypt(StandardScryptParameters)
    /// A bcrypt modular-crypt string (`$2a$`, `$2b$` or `$2y$`), which carries its own cost and salt: the user's
    /// `passwordHash` is the string's bytes and the `salt` field is not used.
    case bcrypt
    /// `PBKDF_SHA1`: PBKDF2-HMAC-SHA1 with `rounds` iterations, as long as the stored hash.
    case pbkdfSHA1(rounds: Int)
    /// `PBKDF2_SHA256`: PBKDF2-HMAC-SHA256 with `rounds` iterations, as long as the stored hash.
    case pbkdf2SHA256(rounds: Int)
    /// `HMAC_MD5`, `HMAC_SHA1`, `HMAC_SHA256`, `HMAC_SHA512`: `HMAC(key, password ‖ salt)`, or `salt ‖ password`
    /// when `order` is ``PasswordHashOrder/saltAndPassword``.
    case hmac(ImportedDigest, key: [UInt8], order: PasswordHashOrder)
    /// `MD5`, `SHA1`, `SHA256`, `SHA512` with `rounds`; the first application covers `salt ‖ password` (or
    /// `password ‖ salt`, per `order`).
    ///
    /// - SHA family: the digest runs `rounds` times in all (1 is one digest), each later time over the previous
    ///   digest; the stored hash is the last digest's bytes.
    /// - MD5: after the first digest, `rounds` more times `x = md5(x ‖ password)` (0 is one digest, as in phpass);
    ///   the stored hash is the lower-case hex text of `x` (the raw 16 bytes and upper-case hex are accepted too).
    case salted(ImportedDigest, rounds: Int, order: PasswordHashOrder)

    /// The `hashAlgorithm` value that names this algorithm on Firebase's wire.
    package var wireName: String {
        switch self {
        case .firebaseScrypt: "SCRYPT"
        case .standardScrypt: "STANDARD_SCRYPT"
        case .bcrypt: "BCRYPT"
        case .pbkdfSHA1: "PBKDF_SHA1"
        case .pbkdf2SHA256: "PBKDF2_SHA256"
        case .hmac(let digest, _, _): "HMAC_" + digest.wireName
        case .salted(let digest, _, _): digest.wireName
        }
    }
}

/// The digest under an `HMAC_*`, `MD5` or `SHA*` import.
package enum ImportedDigest: String, Sendable, Hashable, CaseIterable {
    case md5
    case sha1
    case sha256
    case sha512

    /// `MD5`, `SHA1`, `SHA256` or `SHA512`, as Firebase's algorithm names spell it.
    package var wireName: String { rawValue.uppercased() }
}

/// Which of salt and password comes first in what an `MD5`, `SHA*` or `HMAC_*` import hashed (`passwordHashOrder`).
package enum PasswordHashOrder: String, Sendable, Hashable, CaseIterable {
    /// `SALT_AND_PASSWORD`: the default for `MD5` and `SHA*`.
    case saltAndPassword = "SALT_AND_PASSWORD"
    /// `PASSWORD_AND_SALT`: the default for `HMAC_*`.
    case passwordAndSalt = "PASSWORD_AND_SALT"

    /// The two byte strings joined in this order.
    func join(salt: [UInt8], password: [UInt8]) -> [UInt8] {
        switch self {
        case .saltAndPassword: salt + password
        case .passwordAndSalt: password + salt
        }
    }
}

/// The project-wide parameters of Firebase's modified scrypt (`SCRYPT`), as the console's "password hash
/// parameters" dialog shows them.
package struct FirebaseScryptParameters: Sendable, Hashable {
    /// The signer key (`signerKey`, `base64_signer_key`): what the derived key encrypts. Never empty.
    package var signerKey: [UInt8]
    /// Bytes appended to each user's salt (`saltSeparator`, `base64_salt_separator`); may be empty.
    package var saltSeparator: [UInt8]
    /// scrypt's block size r (`rounds`), 1...8.
    package var rounds: Int
    /// log2 of scrypt's cost N (`memoryCost`, `mem_cost`), 1...14.
    package var memoryCost: Int

    /// Creates parameters; ``isValid`` tells whether Firebase would accept them.
    package init(signerKey: [UInt8], saltSeparator: [UInt8] = [], rounds: Int, memoryCost: Int) {
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }

    /// The ranges Firebase validates: rounds 1...8, memory cost 1...14, a signer key.
    package var isValid: Bool { !signerKey.isEmpty && (1...8).contains(rounds) && (1...14).contains(memoryCost) }
}

/// The parameters of a `STANDARD_SCRYPT` import (RFC 7914 scrypt).
package struct StandardScryptParameters: Sendable, Hashable {
    /// The CPU/memory cost N (`cpuMemCost`, not its logarithm): a power of two, at least 2.
    package var cpuMemCost: Int
    /// The block size r (`blockSize`).
    package var blockSize: Int
    /// The parallelization p (`parallelization`).
    package var parallelization: Int
    /// The derived key's length in bytes (`dkLen`).
    package var dkLen: Int

    /// The most memory one derivation may take (128 · r · N): 64 MiB.
    package static let maximumMemoryBytes = 64 << 20
    /// The most work one derivation may take (128 · r · N · p bytes mixed): 256 MiB.
    package static let maximumWorkBytes = 256 << 20

    /// Firebase documents no bounds; Flint requires N a power of two from 2 (below 2^(16 · r)), r 1...16, p 1...16,
    /// dkLen 1...1024, and at most ``maximumMemoryBytes`` and ``maximumWorkBytes``, so one sign-in cannot exhaust the
    /// server.
    package var isValid: Bool {
        guard cpuMemCost >= 2, cpuMemCost.nonzeroBitCount == 1, (1...16).contains(blockSize), (1...16).contains(parallelization),
            (1...1024).contains(dkLen), cpuMemCost <= Self.maximumMemoryBytes,
            // RFC 7914 requires N < 2^(128 · r / 8).
            16 * blockSize > 62 || cpuMemCost < 1 << (16 * blockSize)
        else { return false }
        let memory = 128 * blockSize * cpuMemCost
        return memory <= Self.maximumMemoryBytes && memory * parallelization <= Self.maximumWorkBytes
    }
}

import FlintCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Hashes and checks passwords on a bounded pool of threads, off the request path: at most one hash per core runs
/// at once (scrypt is memory-hard, so this also bounds memory), and at most ``maxWaiting`` more may queue; beyond
/// that the caller is told to try later instead of piling up work.
package final class PasswordHasher: Sendable {
    let parameters: PasswordHashParameters
    let random: any RandomSource
    private let pool: NIOThreadPool
    private let waiting = NIOLockedValueBox(0)
    /// Queued hashes beyond which new requests are refused.
    let maxWaiting: Int
    /// A hash of a random password, checked against when the account does not exist, so the answer takes as long.
    private let decoy: String
    /// Where a stored hash refused for its cost is reported.
    let logger: Logger
    /// Looks new passwords up in the project's breached-password corpus.
    let breaches: BreachedPasswordCheck

    /// - Throws: when the parameters cannot hash (the decoy is made here, so a bad cost fails at start, not later).
    init(parameters: PasswordHashParameters, random: any RandomSource, logger: Logger, breaches: BreachedPasswordCheck) throws {
        self.parameters = parameters
        self.random = random
        self.logger = logger
        self.breaches = breaches
        self.pool = NIOThreadPool.singleton
        self.maxWaiting = 64 * System.coreCount
        self.decoy = try PasswordHash.make(password: Base64URL.encode(random.bytes(12)), salt: random.bytes(16), parameters: parameters)
    }

    /// Firebase's one password rule: at least 6 characters (`WEAK_PASSWORD`). Very long ones are refused too, so
    /// hashing cost stays bounded. With an enforced `policy`, a password missing any of its requirements is refused
    /// with `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`.
    static func checkStrength(_ password: String, policy: PasswordPolicy? = nil) throws(AuthError) {
        guard password.count >= 6 else { throw AuthError.weakPassword }
        guard password.utf8.count <= 4096 else { throw AuthError.invalidArgument("Password must be at most 4096 bytes.") }
        if let error = policy?.violation(password) { throw error }
    }

    /// Checks a new password: the strength check (with `rules`' policy), then `rules`' breached-password corpus.
    /// - Throws: ``AuthError`` as ``checkStrength(_:policy:)`` and ``BreachedPasswordCheck/check(_:against:)`` do.
    func checkNew(_ password: String, rules: NewPasswordRules) async throws(AuthError) {
        try Self.checkStrength(password, policy: rules.policy)
        if let corpus = rules.breaches { try await breaches.check(password, against: corpus) }
    }

    /// The hash of a new password after ``checkNew(_:rules:)``; `nil` when no password is given.
    func strongHash(_ password: String?, rules: NewPasswordRules = NewPasswordRules()) async throws -> String? {
        guard let password else { return nil }
        try await checkNew(password, rules: rules)
        return try await hash(password)
    }

    /// The PHC hash of `password` with a fresh salt.
    package func hash(_ password: String) async throws -> String {
        let salt = random.bytes(16)
        let parameters = parameters
        return try await run { try PasswordHash.make(password: password, salt: salt, parameters: parameters) }
    }

    /// Whether `password` matches `stored`, one of Flint's hashes or an imported one (``ImportedPasswordHash``,
    /// checked on the same pool); with no stored hash, checks a decoy and answers false (same cost). So does an
    /// imported hash whose work is above Flint's bound (a bcrypt cost above 14, stored before imports refused it): it
    /// is never computed, and its kind is logged.
    package func verify(_ password: String, against stored: String?) async throws -> Bool {
        var usable = stored
        if let stored, let imported = ImportedPasswordHash(stored: stored), imported.exceedsWorkBound {
            logger.warning(
                "stored password hash refused without checking: its cost is above Flint's bound",
                metadata: ["hashKind": "\(imported.algorithm.wireName)"])
            usable = nil
        }
        let target = usable ?? decoy
        let matches = try await run { Self.matches(password, target) }
        return usable != nil && matches
    }

    /// Whether `password` matches a stored hash of either kind.
    static func matches(_ password: String, _ stored: String) -> Bool {
        if let imported = ImportedPasswordHash(stored: stored) { return imported.verify(password: password) }
        return PasswordHash.verify(password: password, stored: stored)
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admitted = waiting.withLockedValue { count -> Bool in
            guard count < maxWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else { throw AuthError.tooManyAttempts.with(detail: "The server is busy checking passwords; try again shortly.") }
        defer { waiting.withLockedValue { $0 -= 1 } }
        return try await pool.runIfActive(work)
    }
}

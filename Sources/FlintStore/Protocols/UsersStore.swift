public import FlintCore

/// Accounts: the users table, read and locked for read-modify-write. Queries.
public protocol UsersReads: Sendable {
    /// A user by ID.
    func user(localID: String) async throws -> UserRecord?
    /// A user by E.164 number.
    func user(phoneNumber: String) async throws -> UserRecord?
    /// A user by lower-cased email.
    func user(email: String) async throws -> UserRecord?
    /// Number of users.
    func userCount() async throws -> Int
}

/// Accounts: the users table, read and locked for read-modify-write. Writes, inside a transaction.
public protocol UsersWrites: UsersReads {
    /// A user by ID, locked against concurrent writers until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite
    /// has a single writer). Read-modify-write of a user goes through this, so no update is lost.
    func lockedUser(localID: String) async throws -> UserRecord?
    /// A user by lower-cased email, locked the same way.
    func lockedUser(email: String) async throws -> UserRecord?
    /// A user by E.164 number, locked the same way.
    func lockedUser(phoneNumber: String) async throws -> UserRecord?
    /// Inserts a new user. Throws ``StoreError/conflict`` if the ID, number or email is taken.
    func insertUser(_ user: UserRecord) async throws
    /// Rewrites a user row. Throws ``StoreError/conflict`` on a unique clash, ``StoreError/notFound`` if gone.
    func updateUser(_ user: UserRecord) async throws
    /// Records a sign-in (`lastLoginAt`, ms) without rewriting the rest of the row.
    func recordSignIn(localID: String, at: Instant) async throws
    /// Deletes a user and its refresh tokens. Returns whether it existed.
    func deleteUser(localID: String) async throws -> Bool
    /// Deletes every user and refresh token.
    func deleteAllUsers() async throws
}

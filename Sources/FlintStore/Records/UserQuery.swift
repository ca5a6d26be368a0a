/// One condition of an operator's account query (`accounts:query`'s `SqlExpression`): an exact match on one
/// identifier.
public enum UserFilter: Sendable, Equatable {
    /// The lower-cased email.
    case email(String)
    /// The E.164 phone number.
    case phoneNumber(String)
    /// The local ID.
    case localID(String)
}

/// The column an operator's account query sorts by (`accounts:query`'s `sortBy`). Ties, and accounts without a
/// value, are ordered by local ID, so the order is total and stable across calls.
public struct UserSortField: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Firebase's `SortByField` name.
    public let rawValue: String

    /// A field from its Firebase name; ``column`` is `nil` for a name Flint does not know.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `USER_ID`: the local ID (the default).
    public static let userID = UserSortField(rawValue: "USER_ID")
    /// `NAME`: the display name.
    public static let name = UserSortField(rawValue: "NAME")
    /// `CREATED_AT`: the creation time.
    public static let createdAt = UserSortField(rawValue: "CREATED_AT")
    /// `LAST_LOGIN_AT`: the last sign-in.
    public static let lastLoginAt = UserSortField(rawValue: "LAST_LOGIN_AT")
    /// `USER_EMAIL`: the email.
    public static let email = UserSortField(rawValue: "USER_EMAIL")

    /// Every field Flint sorts by.
    public static let all: [UserSortField] = [.userID, .name, .createdAt, .lastLoginAt, .email]

    /// Whether the store can sort by it.
    public var isKnown: Bool { Self.all.contains(self) }

    public var description: String { rawValue }
}

/// An operator's account query: an optional filter, a sort, and a window of the result.
public struct UserQuery: Sendable, Equatable {
    /// The condition accounts must meet; every account when `nil`.
    public var filter: UserFilter?
    /// The sort column.
    public var sortBy: UserSortField
    /// Descending instead of ascending (accounts without a value come last in ascending order, first in descending).
    public var descending: Bool
    /// How many matching accounts to skip.
    public var offset: Int
    /// How many to return at most.
    public var limit: Int

    /// Creates a query.
    public init(filter: UserFilter? = nil, sortBy: UserSortField = .userID, descending: Bool = false, offset: Int = 0, limit: Int) {
        self.filter = filter
        self.sortBy = sortBy
        self.descending = descending
        self.offset = offset
        self.limit = limit
    }
}

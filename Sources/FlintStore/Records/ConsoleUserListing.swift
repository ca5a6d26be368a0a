public import FlintCore

/// The console's users list: one keyset page in an order, with optional filters. Every order walks an index
/// (migration 20); the created-between filter is a range on that index when the list is in creation order, and every
/// other filter is checked on the rows the walk reads, at most ``scanLimit`` of them per page, so that a rare filter
/// at a million accounts costs a bounded page that says more may match, never a scan of the table.
public struct ConsoleUserListing: Sendable, Equatable {
    /// The orders the list offers.
    public enum Order: String, Sendable, CaseIterable {
        /// The local ID (the primary key).
        case userID = "id"
        /// The creation time (`users_created_at`).
        case created
        /// The last sign-in (`users_last_login_at`); accounts that never signed in come last either way.
        case lastSignIn = "signin"
        /// The email (`users_email_order`); accounts without one come last either way.
        case email

        /// Whether accounts may lack a value (they come after the others, in local-ID order).
        public var isNullable: Bool { self == .lastSignIn || self == .email }
    }

    /// The sort.
    public var order: Order
    /// Newest, last or greatest first.
    public var descending: Bool
    /// Where the previous page ended; from the start when `nil`.
    public var after: ConsoleUserCursor?
    /// Accounts per page.
    public var limit: Int
    /// `password` (an email with a password or an email-link sign-in), `phone`, `anonymous` (no email, phone or
    /// federated identity) or a federated provider ID (`google.com`…).
    public var provider: String?
    /// Only disabled (`true`) or enabled (`false`) accounts.
    public var disabled: Bool?
    /// Only accounts whose email is (`true`) or is not (`false`) verified.
    public var emailVerified: Bool?
    /// Only accounts with (`true`) or without (`false`) a second factor.
    public var hasMFA: Bool?
    /// Only accounts created at or after this instant.
    public var createdFrom: Instant?
    /// Only accounts created before this instant.
    public var createdBefore: Instant?
    /// Rows a filtered page reads at most before it stops and says that more may match.
    public var scanLimit: Int

    /// Rows a filtered page reads by default: a few milliseconds of an index walk on either engine.
    public static let defaultScanLimit = 5_000

    /// Creates a listing of every account in `order`.
    public init(order: Order = .userID, descending: Bool = false, after: ConsoleUserCursor? = nil, limit: Int, scanLimit: Int = defaultScanLimit) {
        self.order = order
        self.descending = descending
        self.after = after
        self.limit = limit
        self.scanLimit = scanLimit
    }

    /// Whether a filter is checked row by row (anything but a created range in creation order).
    public var checksRows: Bool {
        provider != nil || disabled != nil || emailVerified != nil || hasMFA != nil
            || (order != .created && (createdFrom != nil || createdBefore != nil))
    }
}

/// Where a page of ``ConsoleUserListing`` ended: the last row's sort value and local ID.
public struct ConsoleUserCursor: Sendable, Equatable {
    /// The sort column's value: milliseconds for the times, the email for the email order, `nil` when the row had
    /// none (the walk is in the accounts without a value) and for the local-ID order.
    public var value: String?
    /// The row's local ID.
    public var localID: String

    /// Creates a cursor.
    public init(value: String?, localID: String) {
        self.value = value
        self.localID = localID
    }
}

/// One page of ``ConsoleUserListing``.
public struct ConsoleUserPage: Sendable, Equatable {
    /// The accounts, in the listing's order.
    public var users: [UserRecord]
    /// Where the next page starts; `nil` at the end.
    public var next: ConsoleUserCursor?
    /// Whether the page stopped at the scan limit rather than the page size: more accounts may match after `next`.
    public var scanStopped: Bool

    /// Creates a page.
    public init(users: [UserRecord], next: ConsoleUserCursor?, scanStopped: Bool) {
        self.users = users
        self.next = next
        self.scanStopped = scanStopped
    }
}

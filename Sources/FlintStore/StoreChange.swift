/// State that every node caches and re-reads when another node changes it. Open-ended like ``CodePurpose``.
public struct StoreChange: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The text carried by the notification.
    public let rawValue: String

    /// A change from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The project config (sign-in methods, test numbers, templates, limits…).
    public static let config = StoreChange(rawValue: "config")
    /// The signing keys (a rotation).
    public static let keys = StoreChange(rawValue: "keys")
    /// The tenants (one created, changed or deleted).
    public static let tenants = StoreChange(rawValue: "tenants")
    /// The event webhooks: a subscription added, removed, turned on or off, or a delivery replayed.
    public static let webhooks = StoreChange(rawValue: "webhooks")

    public var description: String { rawValue }
}

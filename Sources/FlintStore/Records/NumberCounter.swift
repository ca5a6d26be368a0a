public import FlintCore

/// A counter a phone number has of its own, named before the number is known (a code's number is known once the code
/// is spent): its key is ``CounterKey/number(tenant:_:_:)`` of the number, in one window.
public struct NumberCounter: Sendable, Hashable {
    /// The tenant whose number it counts.
    public var tenant: TenantID
    /// What the number's counter counts (its key's namespace).
    public var count: CounterKey.NumberCount
    /// The start of the window read.
    public var windowStart: Instant

    public init(tenant: TenantID, _ count: CounterKey.NumberCount, windowStart: Instant) {
        self.tenant = tenant
        self.count = count
        self.windowStart = windowStart
    }

    /// The counter's key for `phoneNumber` (E.164).
    public func key(for phoneNumber: String) -> CounterKey { .number(tenant: tenant, phoneNumber, count) }

    /// What the key starts with: the store writes the key in SQL, with the number it finds.
    var prefix: String { CounterKey.prefix(of: tenant) + count.prefix }
}

@testable public import FlintStore

/// The store's tests name counters of no namespace of their own (`ip:a`, `k`): a literal is such a key.
extension CounterKey: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

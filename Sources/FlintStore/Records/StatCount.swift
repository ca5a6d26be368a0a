public import FlintCore

/// Which stats counter: `metric` events with `label` in the bucket starting at `bucket` (an hour as stored; an hour or
/// a day as read).
public struct StatKey: Sendable, Hashable {
    /// The start of the bucket (whole hours or days since the epoch, UTC).
    public var bucket: Instant
    /// What is counted.
    public var metric: StatMetric
    /// The counter's label (empty when the metric has none).
    public var label: String

    /// Creates a key.
    public init(bucket: Instant, metric: StatMetric, label: String) { (self.bucket, self.metric, self.label) = (bucket, metric, label) }
}

/// One stats counter and how many events it holds.
public struct StatCount: Sendable, Hashable {
    /// The counter.
    public var key: StatKey
    /// How many.
    public var count: Int64

    /// Creates a count.
    public init(_ key: StatKey, count: Int64) { (self.key, self.count) = (key, count) }
}

public import FlintCore

/// One stats counter: how many `metric` events with `label` happened in the bucket starting at `bucket` (an hour as
/// stored; an hour or a day as read).
public struct StatCount: Sendable, Hashable {
    /// The start of the bucket (whole hours or days since the epoch, UTC).
    public var bucket: Instant
    /// What is counted.
    public var metric: StatMetric
    /// The counter's label (empty when the metric has none).
    public var label: String
    /// How many.
    public var count: Int64

    /// Creates a count.
    public init(bucket: Instant, metric: StatMetric, label: String, count: Int64) {
        (self.bucket, self.metric, self.label, self.count) = (bucket, metric, label, count)
    }
}

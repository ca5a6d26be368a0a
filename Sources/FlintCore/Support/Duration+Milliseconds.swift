/// Spans are `Duration`s and points in time ``Instant``s; a span becomes whole milliseconds where it moves an instant,
/// and whole seconds where the wire carries seconds (a lifetime in `expiresIn`, a cache's `max-age`).
extension Duration {
    /// The span in whole milliseconds, rounded toward zero (clamped to `Int64`'s range).
    package var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAgain ? (attoseconds < 0 ? .min : .max) : total
    }

    /// The span in whole seconds, rounded toward zero.
    package var inSeconds: Int64 { components.seconds }
}

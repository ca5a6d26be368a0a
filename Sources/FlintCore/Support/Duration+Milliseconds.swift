/// Spans are `Duration`s and points in time ``Instant``s; a span becomes whole milliseconds where it moves an instant,
/// and whole seconds where the wire carries seconds (a lifetime in `expiresIn`, a cache's `max-age`).
extension Duration {
    /// The span in whole milliseconds, rounded toward zero.
    package var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The span in whole seconds, rounded toward zero.
    package var inSeconds: Int64 { components.seconds }
}

/// Spans are `Duration`s; stored instants and counter windows are whole milliseconds (and the wire's `validSince`,
/// `auth_time` and cache ages whole seconds), so a span turns into those units at the edge.
extension Duration {
    /// The span in whole milliseconds, rounded toward zero.
    package var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The span in whole seconds, rounded toward zero.
    package var inSeconds: Int64 { components.seconds }
}

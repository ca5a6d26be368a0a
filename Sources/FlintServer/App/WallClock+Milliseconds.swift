import FlintCore

extension WallClock {
    /// The current time in milliseconds since the epoch, as stored instants are.
    var nowMS: Int64 { now().millisecondsSince1970 }
}

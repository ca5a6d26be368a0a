import FlintCore
import FlintStore
import Logging

/// What every flow of a node runs on: its settings, the project config, the store, time, randomness and the log.
/// Flows hold this and, besides it, only the collaborators they use.
struct Node: Sendable {
    let settings: ServerSettings
    /// The project config, re-read from the store periodically.
    let config: ConfigCache
    let store: any AuthStore
    let clock: any WallClock
    let random: any RandomSource
    let logger: Logger
    /// The node's metrics (`GET /metrics`).
    let metrics: FlintMetrics

    /// The app name SMS and email texts and the pages mention.
    var appName: String { settings.appName ?? settings.projectID }
}

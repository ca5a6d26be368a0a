package import FlintCore
package import FlintStore
import Logging

/// What every flow of a node runs on: its settings, the project config, the store, time, randomness and the log.
/// Flows hold this and, besides it, only the collaborators they use.
package struct Node: Sendable {
    package let settings: ServerSettings
    /// The project config, re-read from the store periodically.
    package let config: ConfigCache
    package let store: any AuthStore
    package let clock: any WallClock
    package let random: any RandomSource
    let logger: Logger
    /// The node's metrics (`GET /metrics`).
    package let metrics: FlintMetrics
    /// The project's blocking functions (`beforeSendEmail` and `beforeSendSms` are called through it; account
    /// creation and sign-in through the store, ``BlockingStore``).
    let blocking: BlockingFunctions

    /// The app name SMS and email texts and the pages mention.
    package var appName: String { settings.appName ?? settings.projectID }
}

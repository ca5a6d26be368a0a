import FlintCore
import FlintStore
import Logging

/// Sessions: signing ID tokens, storing and exchanging refresh tokens, revoking, and checking the ID tokens
/// requests carry. Every flow that signs someone in or acts for a signed-in user holds one.
struct Sessions: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The project the tokens are issued for (`aud`, `iss`).
    let projectID: String
    /// The signing keys.
    let keys: KeyCache
    /// Keys for refresh-token tags.
    let secret: ServerSecret
    /// Last-refresh times, written in batches by ``RefreshActivityService``.
    let activity: RefreshActivity

    /// How recent a sign-in must be for sensitive changes (credentials, second factors).
    static let recentSignIn: Duration = .seconds(300)
}

import FlintCore
import FlintStore
import Logging

/// App verification: the receipts `verifyClient` hands out by silent push, the tokens of the web challenge, and the
/// check of either before a code is texted (``checkAppProof(_:)``).
struct AppVerifier: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The app-verification key seals receipts, puzzles and challenge tokens.
    let secret: ServerSecret
    /// Silent pushes; `nil` when this node cannot push (production without APNs credentials).
    let push: (any PushSender)?
}

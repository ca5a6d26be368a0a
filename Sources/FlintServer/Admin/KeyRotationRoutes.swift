import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST /flint/v1/projects/{project}/keys:rotate` (a Flint extension, operator only): schedules a new signing key,
/// like `flint keys rotate`. It is published at once and starts signing on every node once the verifiers' caches of
/// the key endpoints have expired (the longest max-age served plus five minutes); the key signing until then stays
/// published while the tokens it signed live. While a scheduled key has not started, rotating again answers it.
struct KeyRotationRoutes {
    let node: Node
    let keys: KeyCache

    /// The scheduled key's ID and when it starts signing (RFC 3339).
    struct Rotated: ResponseEncodable {
        var kid: String
        var activateTime: String
    }

    func rotate(_ request: Request, context: FlintRequestContext) async throws -> Rotated {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        let scheduled = try await Self.rotate(node: node, keys: keys)
        return Rotated(kid: scheduled.kid, activateTime: RFC3339.format(scheduled.activatesAt))
    }

    /// Schedules a signing key and reloads this node's ring; answers the key. The web console's rotation runs this too.
    static func rotate(node: Node, keys: KeyCache) async throws -> ScheduledKey {
        let scheduled = try await KeyCache.rotate(
            store: node.store, secrets: keys.sealing, lead: KeyRing.publicationLead(keyCacheMaxAge: node.settings.keyCacheMaxAge),
            clock: node.clock, random: node.random)
        try await keys.reload()
        node.logger.notice(
            "signing key scheduled", metadata: ["kid": "\(scheduled.kid)", "activatesAt": "\(RFC3339.format(scheduled.activatesAt))"])
        return scheduled
    }
}

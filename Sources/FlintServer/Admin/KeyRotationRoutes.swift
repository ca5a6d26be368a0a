import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST /flint/v1/projects/{project}/keys:rotate` (a Flint extension, operator only): adds a signing key and
/// retires the current one, like `flint keys rotate`. This node switches at once; the others within their reload
/// interval. Retired keys stay published until the tokens they signed have expired.
struct KeyRotationRoutes {
    let node: Node
    let keys: KeyCache

    /// The new key's ID.
    struct Rotated: ResponseEncodable {
        var kid: String
    }

    func rotate(_ request: Request, context: FlintRequestContext) async throws -> Rotated {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        return Rotated(kid: try await Self.rotate(node: node, keys: keys))
    }

    /// Adds a signing key, retires the current one and switches this node to the new one; answers its ID. The web
    /// console's rotation runs this too.
    static func rotate(node: Node, keys: KeyCache) async throws -> String {
        let kid = try await KeyCache.rotate(store: node.store, secrets: keys.sealing, clock: node.clock, random: node.random)
        try await keys.reload()
        node.logger.notice("signing key rotated", metadata: ["kid": "\(kid)"])
        return kid
    }
}

import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST /flint/v1/projects/{project}/keys:rotate` (a Flint extension, operator only): schedules a new signing key,
/// like `flint keys rotate`. It is published at once and starts signing on every node once the verifiers' caches of
/// the key endpoints have expired (the longest max-age served plus five minutes); the key signing until then stays
/// published while the tokens it signed live. While a scheduled key has not started, rotating again answers it.
/// `POST …/keys:revoke` is the emergency rotation for a leaked key.
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

    /// `POST /flint/v1/projects/{project}/keys:revoke` `{"kid":"…"}`: the emergency rotation, as `flint keys revoke`.
    struct RevokeRequest: Decodable {
        var kid: String?
    }

    /// The new key's ID, signing at once.
    struct Revoked: ResponseEncodable {
        var kid: String
    }

    /// Revokes a leaked key (unpublished and refused at once on this node, within the reload interval on the others)
    /// and signs with a new key at once; audited with the operator as actor.
    /// - Throws: `INVALID_ARGUMENT` without a `kid`, `NOT_FOUND` when no unrevoked key has it.
    func revoke(_ request: Request, context: FlintRequestContext) async throws -> Revoked {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        let wire = try await request.decode(as: RevokeRequest.self, context: context)
        guard let leaked = wire.kid, !leaked.isEmpty else { throw AuthError.invalidArgument("kid is required") }
        guard
            let kid = try await KeyCache.revoke(leaked, store: node.store, secrets: keys.sealing, clock: node.clock, random: node.random)
        else { throw AuthError.notFound }
        try await keys.reload()
        node.logger.notice("signing key revoked", metadata: ["kid": "\(leaked)", "newKid": "\(kid)"])
        return Revoked(kid: kid)
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

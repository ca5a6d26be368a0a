import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `POST /flint/v1/projects/{project}/keys:rotate` (a Flint extension, operator only): schedules a new signing key,
/// like `flint keys rotate`. It is published at once and starts signing on every node once the verifiers' caches of
/// the key endpoints have expired (the longest max-age served, plus the reload interval and five minutes); the key
/// signing until then stays
/// published while the tokens it signed live. While a scheduled key has not started, rotating again answers it.
/// `POST …/keys:revoke` is the emergency rotation for a leaked key.
package struct KeyRotationRoutes {
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

    /// The key that signs from now on, and whether the revocation made it (the revoked key was signing).
    struct Revoked: ResponseEncodable {
        var kid: String?
        var newKey: Bool
    }

    /// Revokes a leaked key (unpublished and refused at once on this node, within the reload interval on the others);
    /// when it was signing, a new key signs at once. Audited with the operator as actor.
    /// - Throws: `INVALID_ARGUMENT` without a `kid`, `NOT_FOUND` when no unrevoked key has it.
    func revoke(_ request: Request, context: FlintRequestContext) async throws -> Revoked {
        try context.requireAdmin()
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
        let wire = try await request.decode(as: RevokeRequest.self, context: context)
        guard let leaked = wire.kid, !leaked.isEmpty else { throw AuthError.invalidArgument("kid is required") }
        guard
            let revocation = try await KeyCache.revoke(
                leaked, store: node.store, secrets: keys.sealing, clock: node.clock, random: node.random)
        else { throw AuthError.notFound }
        try await keys.reload()
        node.logger.notice("signing key revoked", metadata: ["kid": "\(leaked)", "signingKid": "\(revocation.signingKID ?? "none")"])
        return Revoked(kid: revocation.signingKID, newKey: revocation.newKID != nil)
    }

    /// Schedules a signing key and reloads this node's ring; answers the key. The web console's rotation runs this too.
    package static func rotate(node: Node, keys: KeyCache) async throws -> ScheduledKey {
        let scheduled = try await KeyCache.rotate(
            store: node.store, secrets: keys.sealing,
            lead: KeyRing.publicationLead(
                keyCacheMaxAge: node.settings.keyCacheMaxAge, reloadInterval: node.settings.reloadInterval),
            clock: node.clock, random: node.random)
        try await keys.reload()
        node.logger.notice(
            "signing key scheduled", metadata: ["kid": "\(scheduled.kid)", "activatesAt": "\(RFC3339.format(scheduled.activatesAt))"])
        return scheduled
    }
}

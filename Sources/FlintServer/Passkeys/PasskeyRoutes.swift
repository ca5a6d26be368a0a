import FlintCore
import FlintStore
import Hummingbird

/// The passkey endpoints' handlers: the start endpoints read the caller's `Origin` header, which picks the RP ID.
struct PasskeyRoutes {
    let flow: PasskeyFlow

    func startEnrollment(_ request: Request, context: FlintRequestContext) async throws -> StartPasskeyEnrollmentResponse {
        let wire = try await context.clientBody(request, as: StartPasskeyEnrollmentRequest.self)
        return try await flow.startEnrollment(wire, origin: request.headers[.origin])
    }

    func startSignIn(_ request: Request, context: FlintRequestContext) async throws -> StartPasskeySignInResponse {
        let wire = try await context.clientBody(request, as: StartPasskeySignInRequest.self)
        return try await flow.startSignIn(wire, origin: request.headers[.origin], clientIP: context.clientIP)
    }
}

extension AccountsFlow {
    /// `accounts:update`'s `deletePasskey`: removes the account's passkeys among `credentialIDs` in `tx` (IDs it does
    /// not hold are ignored) and audits it.
    /// - Returns: whether any was removed (a credential change, which ends the account's other sessions).
    func withdrawPasskeys(_ credentialIDs: [String], of localID: String, in tx: any PasskeysWrites & AuditWrites, now: Instant) async throws -> Bool {
        guard !credentialIDs.isEmpty else { return false }
        let removed = try await tx.deletePasskeys(tenant: .scoped, localID: localID, credentialIDs: credentialIDs)
        guard !removed.isEmpty else { return false }
        try await tx.audit(.passkeyWithdrawn, uid: localID, at: now, ["credentialIds": .array(removed.map(JSONValue.string))])
        return true
    }
}

import Crypto
import FlintCore
import FlintStore
import HTTPTypes
import Hummingbird

/// Game Center sign-in: GameKit's identity verification checked (the certificate from Apple's `publicKeyUrl`, the
/// signature over the player, one of the project's iOS bundle IDs, the time and the salt, made within five minutes),
/// then the player's account signed in, linked or created as a provider identity of `gc.apple.com`, through the same
/// account decision and first-factor gate as `signInWithIdp`. Each signature signs in once. In a tenant
/// (``TenantScope``) it is the tenant's `gc.apple.com` (its `defaultSupportedIdpConfigs`) and the tenant's accounts,
/// with the project's iOS apps; a linking ID token must be the tenant's.
struct GameCenterSignIn: Sendable {
    let federated: FederatedSignIn
    let certificates: GameCenterCertificates

    /// The route's handler: the app names itself in `X-Ios-Bundle-Identifier`, as FirebaseAuth sends it.
    func signIn(_ request: Request, context: FlintRequestContext) async throws -> SignInWithGameCenterResponse {
        let wire = try await context.clientBody(request, as: SignInWithGameCenterRequest.self)
        let bundleID = HTTPField.Name("X-Ios-Bundle-Identifier").flatMap { request.headers[$0] }
        return try await signIn(wire, bundleID: bundleID, clientIP: context.clientIP)
    }

    /// Verifies the player's signature and signs in.
    /// - Throws: `OPERATION_NOT_ALLOWED` when the request's tenant (or the project) has `gc.apple.com` off or none;
    ///   `TENANT_ID_MISMATCH` for a linking ID token of another tenant; `INVALID_IDP_RESPONSE` for a missing
    ///   part, a `publicKeyUrl` not on apple.com (never fetched), an unknown app, a stale time, a certificate that
    ///   cannot be had or a signature that does not verify; `MISSING_OR_INVALID_NONCE` for a signature used before;
    ///   linking's and the gate's errors as `signInWithIdp` answers them.
    func signIn(_ wire: SignInWithGameCenterRequest, bundleID header: String?, clientIP: String?) async throws -> SignInWithGameCenterResponse {
        let node = federated.node
        let config = node.config.current
        guard let provider = config.identityProvider(GameCenter.providerID) else {
            throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is not found.")
        }
        guard provider.enabled else { throw AuthError.operationNotAllowed.with(detail: "The identity provider configuration is disabled.") }
        guard let playerID = Self.given(wire.teamPlayerId) ?? Self.given(wire.playerId) else {
            throw AuthError.invalidIdpResponse("Send the player's teamPlayerId (or the legacy playerId).")
        }
        guard let url = wire.publicKeyUrl, GameCenterIdentity.isApplePublicKeyURL(url) else {
            throw AuthError.invalidIdpResponse("The publicKeyUrl must be an https address on apple.com.")
        }
        guard let signature = Self.bytes(wire.signature), let salt = Self.bytes(wire.salt), let timestamp = wire.timestamp else {
            throw AuthError.invalidIdpResponse("Send Game Center's signature, salt and timestamp.")
        }
        let identity = GameCenterIdentity(
            playerID: playerID, timestamp: Instant(millisecondsSince1970: timestamp), salt: salt, signature: signature)
        let now = node.clock.now()
        guard identity.isRecent(now: now) else {
            throw AuthError.invalidIdpResponse("The Game Center signature was not made within 5 minutes of the server's time; get a new one.")
        }
        let apps = config.appleBundleIDs
        let candidates = Self.given(header).map { [$0] } ?? apps
        guard !candidates.isEmpty, candidates.allSatisfy(apps.contains) else {
            throw AuthError.invalidIdpResponse(
                "The app \(header ?? "") is not one of this project's iOS apps (flint.appLinks.apple.bundleIds).")
        }
        _ = try await certificates.verify(at: url, now: now) { der throws(AuthError) in
            try identity.verify(certificate: der, bundleIDs: candidates)
        }
        let linking = try wire.idToken.map { token throws(AuthError) in try federated.sessions.verifyIDToken(token) }
        var claims: [String: JSONValue] = ["sub": .string(playerID)]
        if let name = Self.given(wire.displayName) { claims["name"] = .string(name) }
        let spent = Hex.encode(SHA256.hash(data: signature))
        let outcome = try await federated.decide(
            ProviderProfile(claims: claims), providerID: GameCenter.providerID, linking: linking, nonce: spent, clientIP: clientIP, now: now)
        // A player has no email, so no account needs its confirmation.
        guard case .session(let session) = outcome else { throw AuthError.internalError }
        let (user, isNew, answer) = try federated.gate.answer(session, provider: GameCenter.providerID, linking: linking, now: now)
        let fields = GameCenterSignInFields(
            localId: user.localID, playerId: wire.playerId, teamPlayerId: wire.teamPlayerId, gamePlayerId: wire.gamePlayerId, isNewUser: isNew,
            displayName: user.displayName ?? Self.given(wire.displayName))
        return SignInWithGameCenterResponse(fields: fields, session: answer)
    }

    private static func given(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Base64 in either alphabet, padded or not.
    private static func bytes(_ text: String?) -> [UInt8]? {
        guard let text = given(text) else { return nil }
        let urlSafe = String(text.compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
        return Base64URL.decode(urlSafe).flatMap { $0.isEmpty ? nil : $0 }
    }
}

import FlintCore
import FlintStore

/// Passkeys (WebAuthn credentials), Identity Platform's v2 wire: enrolling one for the signed-in account
/// (`passkeyEnrollment:start` / `:finalize`) and signing in with one (`passkeySignIn:start` / `:finalize`, a first
/// factor through the gate, `sign_in_provider` `passkey`). Withdrawing is `accounts:update`'s `deletePasskey`.
///
/// Challenges are ``PasskeyChallenge``s: sealed, so start stores nothing, and spent once in finalize's transaction
/// through a counter keyed by their hash.
struct PasskeyFlow: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    /// The MFA key seals challenges.
    let secret: ServerSecret
    let sessions: Sessions
    let gate: SignInGate

    /// The store aggregates its transactions touch: the spent challenges' and failures' counters, passkeys, accounts
    /// (with their second factors), refresh tokens, the audit log.
    typealias Writes = CountersWrites & PasskeysWrites & UsersWrites & SecondFactorsReads & TokensWrites & AuditWrites

    /// `firebase.sign_in_provider` of passkey sessions, as Identity Platform writes it.
    static let provider = "passkey"
    /// At most this many passkeys per account (Flint's choice).
    static let maxPasskeys = 10
    /// Longest passkey name kept.
    static let maxNameLength = 256
    /// Longest credential ID (bytes), as WebAuthn bounds it.
    static let maxCredentialIDLength = 1023
    /// How long a client may take, as `timeout` tells the browser (milliseconds).
    static var timeoutMilliseconds: Int { Int(PasskeyChallenge.lifetime.inSeconds) * 1000 }

    /// The project's origins and RP IDs (its authorized domains).
    var relyingParty: RelyingParty { RelyingParty(authorizedDomains: node.config.current.authorizedDomains) }

    /// A new challenge for `purpose`, with the RP ID offered to a client calling from `origin`.
    func issueChallenge(_ purpose: PasskeyChallenge.Purpose, localID: String, origin: String?) throws -> (text: String, rpID: String) {
        guard let rpID = relyingParty.rpID(forOrigin: origin) else {
            throw AuthError.invalidArgument("Passkeys need an authorized domain (config authorizedDomains).")
        }
        let challenge = PasskeyChallenge(
            purpose: purpose, localID: localID, rpID: rpID, issuedAt: node.clock.now(), tenant: TenantScope.tenant.rawValue)
        return (try challenge.seal(key: secret.mfaKey), rpID)
    }

    /// Reads `clientDataJSON`, checks its type, origin and challenge (issued in the request's tenant), and opens the challenge.
    /// - Returns: the client data, the challenge and its canonical text (the key that spends it).
    func openClientData(_ text: String?, type: String, purpose: PasskeyChallenge.Purpose) throws(AuthError) -> (
        ClientData, PasskeyChallenge, String
    ) {
        let bytes = try PasskeyBytes.decode(text, field: "clientDataJSON")
        do {
            let client = try ClientData(bytes)
            guard let sent = Base64URL.decode(client.challenge) else { throw WebAuthnError.invalid("challenge") }
            let canonical = Base64URL.encode(sent)
            guard let challenge = PasskeyChallenge(opening: canonical, key: secret.mfaKey), challenge.purpose == purpose,
                challenge.tenant == TenantScope.tenant.rawValue, !challenge.isExpired(now: node.clock.now())
            else { throw AuthError.invalidPasskeyChallenge }
            try client.check(type: type, challenge: sent)
            try relyingParty.check(origin: client.origin, rpID: challenge.rpID)
            return (client, challenge, canonical)
        } catch let error as WebAuthnError {
            throw error.authError
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError.invalidAuthenticatorResponse
        }
    }

    /// Spends a challenge in `tx`: `false` when it was spent before.
    func spend(_ challenge: PasskeyChallenge, text: String, in tx: any CountersWrites) async throws -> Bool {
        try await tx.incrementCounter(
            key: .passkeyChallenge(text), windowStart: .epoch, expiresAt: challenge.issuedAt + PasskeyChallenge.lifetime) == 1
    }
}

extension Error {
    /// A WebAuthn check's failure as the client sees it.
    var authError: AuthError {
        switch self {
        case let error as WebAuthnError: error.authError
        case let error as AuthError: error
        default: .invalidAuthenticatorResponse
        }
    }
}

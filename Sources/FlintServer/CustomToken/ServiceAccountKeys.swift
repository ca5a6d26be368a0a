import FlintCore
import FlintStore
import Synchronization

/// The service-account keys custom tokens are checked with. The store is asked on every token, so a key revoked
/// with `flint admin service-accounts revoke` (on any node) is refused at once; each key's PEM is parsed once.
final class ServiceAccountKeys: Sendable {
    private let store: any AuthStore
    private let parsed = Mutex<[String: ServiceAccountPublicKey]>([:])

    init(store: any AuthStore) {
        self.store = store
    }

    /// The key that must have signed `token`: the unrevoked key of the service account its `iss` names, and the one
    /// its `kid` names when it names one.
    /// - Throws: `CREDENTIAL_MISMATCH` when no service account of this project has that `client_email` (in Firebase:
    ///   the token belongs to another project), `INVALID_CUSTOM_TOKEN` when the account's key is revoked or another.
    func key(for token: CustomToken, keyID: String?) async throws -> ServiceAccountPublicKey {
        guard let issuer = token.issuer, !issuer.isEmpty else {
            throw AuthError.invalidCustomToken.with(detail: "((iss must be the service account's client_email.))")
        }
        let accounts = try await store.read { try await $0.serviceAccounts(clientEmail: issuer) }
        guard !accounts.isEmpty else { throw AuthError.credentialMismatch }
        guard let account = accounts.first(where: { $0.revokedAt == nil && (keyID == nil || $0.keyID == keyID) }) else {
            throw AuthError.invalidCustomToken.with(detail: "((The key that signed this token is revoked or unknown.))")
        }
        if let known = parsed.withLock({ $0[account.keyID] }) { return known }
        let key: ServiceAccountPublicKey
        do { key = try ServiceAccountPublicKey(pem: account.publicKeyPEM) } catch { throw AuthError.internalError }
        parsed.withLock { $0[account.keyID] = key }
        return key
    }
}

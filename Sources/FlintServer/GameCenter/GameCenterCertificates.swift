import FlintCore
import Synchronization

/// Game Center's public-key certificates by `publicKeyUrl`: fetched through ``ProviderKeys`` (its timeout, its dev-mode
/// stand-in for `gc.apple.com`), and kept for a day once one has verified a signature — so a client can fill the
/// cache only with certificates Apple signed with, and at most ``capacity`` of them.
final class GameCenterCertificates: Sendable {
    /// How long a certificate is used without fetching it again.
    static let lifetime: Duration = .seconds(86_400)
    /// How many are kept; the oldest goes first.
    static let capacity = 16

    private struct Entry: Sendable {
        var der: [UInt8]
        var fetchedAt: Instant
    }

    let keys: ProviderKeys
    private let cache = Mutex<[String: Entry]>([:])

    init(keys: ProviderKeys) {
        self.keys = keys
    }

    /// Runs `verify` with the certificate at `url`: the cached one while it is fresh, else one fetched now, which is
    /// kept when `verify` accepts it.
    /// - Throws: what `verify` throws; `INVALID_IDP_RESPONSE` when the certificate cannot be fetched.
    func verify<T>(at url: String, now: Instant, _ verify: ([UInt8]) throws(AuthError) -> T) async throws(AuthError) -> T {
        if let cached = cache.withLock({ $0[url] }), now - cached.fetchedAt < Self.lifetime { return try verify(cached.der) }
        let address = keys.address(url, provider: GameCenter.providerID)
        guard let answer = await keys.getJSON(address, headers: [("Accept", "application/pkix-cert, */*")]) else {
            throw AuthError.invalidIdpResponse("Game Center's public key could not be fetched from \(url).")
        }
        guard answer.status == 200, !answer.body.isEmpty else {
            throw AuthError.invalidIdpResponse("Game Center's public key URL answered HTTP \(answer.status).")
        }
        let result = try verify(answer.body)
        cache.withLock { cache in
            if cache[url] == nil, cache.count >= Self.capacity, let oldest = cache.min(by: { $0.value.fetchedAt < $1.value.fetchedAt })?.key {
                cache[oldest] = nil
            }
            cache[url] = Entry(der: answer.body, fetchedAt: now)
        }
        return result
    }
}

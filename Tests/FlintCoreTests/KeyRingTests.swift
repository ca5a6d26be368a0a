import FlintCore
import Testing

@Suite("Key ring: which key signs and which are published, from the clock")
struct KeyRingTests {
    static let t0 = Instant(secondsSince1970: 1_800_000_000)
    static let lead = KeyRing.publicationLead(keyCacheMaxAge: .seconds(3600), reloadInterval: .seconds(30))

    /// A key made at `created`, signing from `activates` (its creation by default).
    static func key(_ created: Instant, activates: Instant? = nil, retired: Instant? = nil, revoked: Instant? = nil) throws -> SigningKey {
        let fresh = try SigningKey.generate(now: created, random: SystemRandom())
        return try SigningKey(
            kid: fresh.kid, privateKeyPEM: fresh.privateKeyPEM, certificatePEM: fresh.certificatePEM, createdAt: created, activatesAt: activates,
            retiredAt: retired, revokedAt: revoked)
    }

    @Test("a scheduled key is published at once, signs from its activation, and its predecessor stays published until its grace ends")
    func schedule() throws {
        let activation = Self.t0 + .seconds(60) + Self.lead
        let old = try Self.key(Self.t0, retired: activation)
        let new = try Self.key(Self.t0 + .seconds(60), activates: activation)
        let ring = KeyRing(keys: [old, new])
        let beforeActivation = activation - .seconds(1)
        #expect(Self.lead == .seconds(3930))
        #expect(
            KeyRing.publicationLead(keyCacheMaxAge: .seconds(3600), reloadInterval: .seconds(3600)) == .seconds(7500),
            "a node that re-reads the store hourly publishes the key up to an hour late, and verifiers cache that copy an hour more")
        #expect(ring.signer(at: beforeActivation)?.kid == old.kid)
        #expect(Set(ring.published(at: beforeActivation).map(\.kid)) == [old.kid, new.kid])
        #expect(ring.state(of: new, at: beforeActivation) == .scheduled)
        #expect(ring.state(of: old, at: beforeActivation) == .active)
        #expect(ring.signer(at: activation)?.kid == new.kid)
        #expect(ring.state(of: old, at: activation) == .retired)
        let lastPublished = activation + KeyRing.retiredKeyGrace - .seconds(1)
        #expect(KeyRing.retiredKeyGrace >= .seconds(14 * 86_400), "session cookies, signed with these keys, live 14 days")
        #expect(Set(ring.published(at: lastPublished).map(\.kid)) == [old.kid, new.kid])
        #expect(ring.published(at: activation + KeyRing.retiredKeyGrace).map(\.kid) == [new.kid])
        #expect(ring.state(of: old, at: activation + KeyRing.retiredKeyGrace) == .expired)
    }

    @Test("a revoked key is neither published nor signing, and a token it signed no longer verifies")
    func revoked() throws {
        let leaked = try Self.key(Self.t0)
        let claims = IDTokenClaims(projectID: "demo-flint", userID: "u1", authTime: Self.t0, issuedAt: Self.t0, signInProvider: "phone")
        let token = try TokenSigner.sign(claims, with: KeyRing(keys: [leaked]))
        var revokedCopy = leaked
        (revokedCopy.retiredAt, revokedCopy.revokedAt) = (Self.t0 + .seconds(5), Self.t0 + .seconds(5))
        let replacement = try Self.key(Self.t0 + .seconds(5))
        let ring = KeyRing(keys: [revokedCopy, replacement])
        let now = Self.t0 + .seconds(6)
        #expect(ring.published(at: now).map(\.kid) == [replacement.kid])
        #expect(ring.signer(at: now)?.kid == replacement.kid)
        #expect(ring.state(of: revokedCopy, at: now) == .revoked)
        #expect(throws: AuthError.invalidIDToken) { try TokenVerifier.verify(token, ring: ring, projectID: "demo-flint", now: now) }
    }

    @Test("tokens are signed by the key signing at their iat; a clock behind the first key's creation still gets it")
    func signerByIssuedAt() throws {
        let activation = Self.t0 + Self.lead
        let old = try Self.key(Self.t0, retired: activation)
        let new = try Self.key(Self.t0, activates: activation)
        let ring = KeyRing(keys: [new, old])
        func kid(issuedAt: Instant) throws -> String? {
            let claims = IDTokenClaims(projectID: "demo-flint", userID: "u1", authTime: issuedAt, issuedAt: issuedAt, signInProvider: "phone")
            let token = try TokenSigner.sign(claims, with: ring)
            let header = try JSONValue(parsing: Array(try #require(Base64URL.decode(token.split(separator: ".")[0]))))
            return header["kid"]?.stringValue
        }
        #expect(try kid(issuedAt: activation - .seconds(1)) == old.kid)
        #expect(try kid(issuedAt: activation) == new.kid)
        #expect(KeyRing(keys: [old]).signer(at: Self.t0 - .seconds(2))?.kid == old.kid)
    }
}

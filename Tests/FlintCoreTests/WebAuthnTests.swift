import Crypto
import CryptoExtras
import FlintCore
import FlintTesting
import Testing

@Suite("WebAuthn: COSE keys, authenticator data, attestation and assertions")
struct WebAuthnTests {
    let rpID = "example.com"
    let origin = "https://example.com"
    let challenge = Base64URL.encode((0..<32).map { UInt8($0) })

    @Test("an ES256 COSE key verifies the signatures of its private key, and no others")
    func es256() throws {
        let authenticator = SoftwareAuthenticator()
        let key = try COSEKey(bytes: authenticator.coseKey)
        let message = Array("hello".utf8)
        let signature = Array(try authenticator.key.signature(for: message).derRepresentation)
        #expect(key.verifies(signature, over: message))
        #expect(!key.verifies(signature, over: Array("hellp".utf8)))
        #expect(!key.verifies([0x30, 0x00], over: message))
        #expect(!key.verifies(Array(try P256.Signing.PrivateKey().signature(for: message).derRepresentation), over: message))
    }

    @Test("an RS256 COSE key verifies PKCS #1 v1.5 signatures")
    func rs256() throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let components = try rsa.publicKey.getKeyPrimitives()
        let cose = CBOR.map([
            (.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(Array(components.modulus))),
            (.int(-2), .bytes(Array(components.publicExponent))),
        ])
        let key = try COSEKey(bytes: cose.encoded)
        let message = Array("hello".utf8)
        let signature = Array(try rsa.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        #expect(key.verifies(signature, over: message))
        #expect(!key.verifies(signature, over: Array("other".utf8)))
    }

    @Test(
        "COSE keys of other algorithms or with bad parameters are refused",
        arguments: [
            CBOR.map([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)), (.int(-2), .bytes([UInt8](repeating: 1, count: 32)))]),
            CBOR.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(2)), (.int(-2), .bytes([UInt8](repeating: 1, count: 32))),
                (.int(-3), .bytes([UInt8](repeating: 1, count: 32))),
            ]),
            CBOR.map([(.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes([1])), (.int(-3), .bytes([2]))]),
            CBOR.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes([UInt8](repeating: 1, count: 32))),
                (.int(-3), .bytes([UInt8](repeating: 1, count: 32))),
            ]),
            CBOR.map([(.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes([1, 2, 3])), (.int(-2), .bytes([1, 0, 1]))]),
            CBOR.text("not a map"),
        ])
    func refusesBadKeys(key: CBOR) {
        #expect(throws: WebAuthnError.self) { try COSEKey(bytes: key.encoded) }
    }

    @Test("authenticator data gives its RP ID hash, flags, counter and attested credential")
    func parsesAuthenticatorData() throws {
        var authenticator = SoftwareAuthenticator()
        authenticator.signCount = 7
        let data = try AuthenticatorData(authenticator.authenticatorData(rpID: rpID, flags: 0x45, counter: 7))
        #expect(data.rpIDHash == Array(SHA256.hash(data: Array(rpID.utf8))))
        #expect(data.userPresent && data.userVerified)
        #expect(data.signCount == 7)
        #expect(data.attestedCredential?.credentialID == authenticator.credentialID)
        #expect(data.attestedCredential?.publicKeyBytes == authenticator.coseKey)
        try data.check(rpID: rpID)
        #expect(throws: WebAuthnError.invalid("RP ID hash")) { try data.check(rpID: "evil.com") }
    }

    @Test("truncated authenticator data, or bytes after it, are refused without trapping")
    func refusesTruncatedAuthenticatorData() {
        let full = SoftwareAuthenticator().authenticatorData(rpID: rpID, flags: 0x45, counter: 1)
        for cut in 0..<full.count { #expect(throws: WebAuthnError.self) { try AuthenticatorData(Array(full[..<cut])) } }
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(full + [0]) }
        var flagged = SoftwareAuthenticator().authenticatorData(rpID: rpID, flags: 0x05, counter: 1)
        flagged[32] = 0x85  // extensions flag with no extensions
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(flagged) }
    }

    @Test("user present and user verified are both required")
    func requiresFlags() throws {
        let authenticator = SoftwareAuthenticator()
        #expect(throws: WebAuthnError.invalid("flags: user not verified")) {
            try AuthenticatorData(authenticator.authenticatorData(rpID: rpID, flags: 0x01, counter: 0)).check(rpID: rpID)
        }
        #expect(throws: WebAuthnError.invalid("flags: user not present")) {
            try AuthenticatorData(authenticator.authenticatorData(rpID: rpID, flags: 0x04, counter: 0)).check(rpID: rpID)
        }
    }

    @Test("attestation none, packed self attestation and packed x5c verify", arguments: [SoftwareAuthenticator.Format.none, .packedSelf, .packedX5C])
    func attestationVerifies(format: SoftwareAuthenticator.Format) throws {
        let authenticator = SoftwareAuthenticator()
        let (client, object) = try authenticator.register(rpID: rpID, challenge: challenge, origin: origin, format: format)
        let attestation = try Attestation(object, clientDataHash: Array(SHA256.hash(data: client)))
        #expect(attestation.credential.credentialID == authenticator.credentialID)
        #expect(attestation.format == (format == .none ? "none" : "packed"))
    }

    @Test("a packed signature over other client data is refused", arguments: [SoftwareAuthenticator.Format.packedSelf, .packedX5C])
    func attestationSignatureChecked(format: SoftwareAuthenticator.Format) throws {
        let (_, object) = try SoftwareAuthenticator().register(rpID: rpID, challenge: challenge, origin: origin, format: format)
        #expect(throws: WebAuthnError.invalid("attestation signature")) {
            try Attestation(object, clientDataHash: Array(SHA256.hash(data: Array("other".utf8))))
        }
    }

    @Test("unknown attestation formats and a none statement with content are refused")
    func refusesOtherFormats() throws {
        let authData = SoftwareAuthenticator().authenticatorData(rpID: rpID, flags: 0x45, counter: 0)
        let tpm = CBOR.map([(.text("fmt"), .text("tpm")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))])
        #expect(throws: WebAuthnError.unsupported("attestation format tpm")) { try Attestation(tpm.encoded, clientDataHash: []) }
        let none = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([(.text("x"), .int(1))])), (.text("authData"), .bytes(authData))])
        #expect(throws: WebAuthnError.self) { try Attestation(none.encoded, clientDataHash: []) }
        #expect(throws: WebAuthnError.self) { try Attestation([0xa0], clientDataHash: []) }
    }

    @Test("an assertion verifies and returns its counter; a counter that does not increase is a cloned authenticator")
    func assertions() throws {
        var authenticator = SoftwareAuthenticator()
        let key = try COSEKey(bytes: authenticator.coseKey)
        let first = try authenticator.assert(rpID: rpID, challenge: challenge, origin: origin)
        let hash = Array(SHA256.hash(data: first.clientDataJSON))
        let count = try Assertion.verify(
            authenticatorData: first.authenticatorData, clientDataHash: hash, signature: first.signature, key: key, rpID: rpID, storedSignCount: 0)
        #expect(count == 1)
        #expect(throws: WebAuthnError.counterRegressed) {
            try Assertion.verify(
                authenticatorData: first.authenticatorData, clientDataHash: hash, signature: first.signature, key: key, rpID: rpID,
                storedSignCount: 1)
        }
        #expect(throws: WebAuthnError.invalid("signature")) {
            try Assertion.verify(
                authenticatorData: first.authenticatorData, clientDataHash: Array(hash.reversed()), signature: first.signature, key: key,
                rpID: rpID, storedSignCount: 0)
        }
        // Authenticators without a counter always send 0: accepted while the stored counter is 0 too.
        var counterless = SoftwareAuthenticator()
        let zero = try counterless.assert(rpID: rpID, challenge: challenge, origin: origin, keepCounter: true)
        #expect(
            try Assertion.verify(
                authenticatorData: zero.authenticatorData, clientDataHash: Array(SHA256.hash(data: zero.clientDataJSON)), signature: zero.signature,
                key: try COSEKey(bytes: counterless.coseKey), rpID: rpID, storedSignCount: 0) == 0)
    }

    @Test("an assertion without user verification, or for another RP ID, is refused")
    func assertionChecks() throws {
        var authenticator = SoftwareAuthenticator()
        let key = try COSEKey(bytes: authenticator.coseKey)
        let presentOnly = try authenticator.assert(rpID: rpID, challenge: challenge, origin: origin, flags: 0x01)
        #expect(throws: WebAuthnError.invalid("flags: user not verified")) {
            try Assertion.verify(
                authenticatorData: presentOnly.authenticatorData, clientDataHash: Array(SHA256.hash(data: presentOnly.clientDataJSON)),
                signature: presentOnly.signature, key: key, rpID: rpID, storedSignCount: 0)
        }
        let other = try authenticator.assert(rpID: "other.com", challenge: challenge, origin: origin)
        #expect(throws: WebAuthnError.invalid("RP ID hash")) {
            try Assertion.verify(
                authenticatorData: other.authenticatorData, clientDataHash: Array(SHA256.hash(data: other.clientDataJSON)),
                signature: other.signature, key: key, rpID: rpID, storedSignCount: 0)
        }
    }

    @Test("client data: type and challenge must match")
    func clientData() throws {
        let issued = try #require(Base64URL.decode(challenge))
        let good = try ClientData(SoftwareAuthenticator.clientData(type: "webauthn.get", challenge: challenge, origin: origin))
        try good.check(type: "webauthn.get", challenge: issued)
        #expect(throws: WebAuthnError.invalid("clientDataJSON type")) { try good.check(type: "webauthn.create", challenge: issued) }
        #expect(throws: WebAuthnError.invalid("challenge")) { try good.check(type: "webauthn.get", challenge: issued.reversed()) }
        #expect(throws: WebAuthnError.self) { try ClientData(Array("{}".utf8)) }
        #expect(throws: WebAuthnError.self) { try ClientData(Array("not json".utf8)) }
        let crossOrigin = Array(#"{"type":"webauthn.get","challenge":"AA","origin":"https://example.com","crossOrigin":true}"#.utf8)
        #expect(throws: WebAuthnError.self) { try ClientData(crossOrigin) }
    }

    @Test(
        "origins: https on an authorized domain or its subdomains; plain http only for localhost and 127.0.0.1",
        arguments: [
            ("https://example.com", "example.com", true),
            ("https://login.example.com", "example.com", true),
            ("https://login.example.com:8443", "login.example.com", true),
            ("https://example.com", "login.example.com", false),
            ("http://example.com", "example.com", false),
            ("https://evilexample.com", "example.com", false),
            ("https://example.org", "example.org", false),
            ("http://localhost:5000", "localhost", true),
            ("http://127.0.0.1:5000", "127.0.0.1", true),
            ("https://localhost", "localhost", true),
            ("http://localhost:99999", "localhost", false),
            ("android:apk-key-hash:abc", "example.com", false),
            ("https://exa mple.com", "example.com", false),
            ("https://example.com", "com", false),
        ])
    func origins(origin: String, rpID: String, accepted: Bool) {
        let party = RelyingParty(authorizedDomains: ["example.com", "localhost", "127.0.0.1"])
        #expect(((try? party.check(origin: origin, rpID: rpID)) != nil) == accepted, "\(origin) for \(rpID)")
    }

    @Test("the RP ID offered follows the caller's origin, else the first authorized domain that is not a loopback host")
    func offeredRPID() {
        let party = RelyingParty(authorizedDomains: ["localhost", "example.com", "auth.example.com"])
        #expect(party.rpID(forOrigin: "https://a.auth.example.com") == "auth.example.com")
        #expect(party.rpID(forOrigin: "http://localhost:8080") == "localhost")
        #expect(party.rpID(forOrigin: nil) == "example.com")
        #expect(party.rpID(forOrigin: "https://evil.com") == "example.com")
        #expect(RelyingParty(authorizedDomains: []).rpID(forOrigin: nil) == nil)
    }

    @Test("a challenge opens with its purpose, account and RP ID; tampered or expired ones do not")
    func challenges() throws {
        let key = ServerSecret(master: SystemRandom().bytes(32)).mfaKey
        let issued = Instant(millisecondsSince1970: 1_800_000_000_000)
        let challenge = PasskeyChallenge(purpose: .enrollment, localID: "u1", rpID: rpID, issuedAt: issued)
        let text = try challenge.seal(key: key)
        #expect(PasskeyChallenge(opening: text, key: key) == challenge)
        #expect(try challenge.seal(key: key) != text)
        #expect(PasskeyChallenge(opening: text, key: ServerSecret(master: SystemRandom().bytes(32)).mfaKey) == nil)
        #expect(PasskeyChallenge(opening: String(text.dropLast(2)) + "AA", key: key) == nil)
        #expect(!challenge.isExpired(now: issued + .seconds(299)))
        #expect(challenge.isExpired(now: issued + .seconds(300)))
        let tenants = PasskeyChallenge(purpose: .signIn, localID: "", rpID: rpID, issuedAt: issued, tenant: "acme-x7k2q")
        #expect(PasskeyChallenge(opening: try tenants.seal(key: key), key: key)?.tenant == "acme-x7k2q", "a tenant's challenge names it")
        #expect(PasskeyChallenge(opening: text, key: key)?.tenant == "", "the default tenant's names none")
    }
}

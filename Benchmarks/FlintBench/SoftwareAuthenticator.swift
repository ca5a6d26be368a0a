import Crypto

/// One passkey held by a software authenticator: a P-256 key (ES256), a random credential ID, the RP ID it is scoped
/// to, and its signature counter, which moves on with each assertion. What a browser and a platform authenticator
/// would produce between them: `clientDataJSON`, authenticator data, a `none` attestation, assertion signatures.
struct SoftwarePasskey: Sendable {
    let key: P256.Signing.PrivateKey
    let credentialID: [UInt8]
    let rpID: String
    let origin: String
    /// The account's `localId` (the user handle is its UTF-8 bytes).
    var localID: String = ""
    private(set) var counter: UInt32 = 0

    /// User present, user verified.
    static let flagsUPUV: UInt8 = 0x05
    /// User present, user verified, attested credential data.
    static let flagsUPUVAT: UInt8 = 0x45

    init(rpID: String, origin: String) {
        key = P256.Signing.PrivateKey()
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
        self.rpID = rpID
        self.origin = origin
    }

    var credentialIDText: String { Base64URL.encode(credentialID) }

    /// `clientDataJSON` for a ceremony (`webauthn.create` or `webauthn.get`) answering `challenge` as the start
    /// answer carries it (standard base64, as Identity Platform sends it): written base64url, as browsers write it.
    func clientData(type: String, challenge: String) -> [UInt8] {
        let written = Base64URL.decode(challenge).map(Base64URL.encode) ?? challenge
        return Array(
            ("{\"type\":" + JSONText.quote(type) + ",\"challenge\":" + JSONText.quote(written) + ",\"origin\":" + JSONText.quote(origin)
                + ",\"crossOrigin\":false}").utf8)
    }

    /// The credential public key as COSE: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), x (-2), y (-3).
    var coseKey: [UInt8] {
        let point = Array(key.publicKey.x963Representation)  // 0x04 ‖ x ‖ y
        return CBORItem.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(Array(point[1..<33]))),
            (.int(-3), .bytes(Array(point[33..<65]))),
        ]).encoded
    }

    /// The RP ID hash, flags and counter (WebAuthn §6.1), big-endian.
    private func authenticatorDataHead(flags: UInt8, counter: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + [24, 16, 8, 0].map { UInt8((counter >> UInt32($0)) & 0xFF) }
    }

    /// A registration's `attestationObject`: `none` attestation over authenticator data carrying the new credential
    /// (all-zero AAGUID, as authenticators without attestation write it).
    func attestationObject() -> [UInt8] {
        let length = UInt16(credentialID.count)
        let authData =
            authenticatorDataHead(flags: Self.flagsUPUVAT, counter: counter) + [UInt8](repeating: 0, count: 16)
            + [UInt8(length >> 8), UInt8(length & 0xFF)] + credentialID + coseKey
        return CBORItem.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]).encoded
    }

    /// A sign-in's assertion for `challenge`: the counter moves on by one; the signature (DER ECDSA) covers the
    /// authenticator data ‖ SHA-256(`clientDataJSON`).
    mutating func assertion(challenge: String) throws -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        counter += 1
        let client = clientData(type: "webauthn.get", challenge: challenge)
        let authData = authenticatorDataHead(flags: Self.flagsUPUV, counter: counter)
        let signature = try key.signature(for: SHA256.hash(data: authData + Array(SHA256.hash(data: client))))
        return (client, authData, Array(signature.derRepresentation))
    }
}

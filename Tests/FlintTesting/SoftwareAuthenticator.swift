package import Crypto
package import CryptoExtras
import FlintCore
import Foundation
import SwiftASN1
import X509

/// A WebAuthn authenticator in software, for tests: one P-256 (or, with `rs256()`, RSA) credential, registration (attestation `none`, `packed`
/// self attestation, or `packed` with an `x5c` certificate of its own) and assertions, with flags and counter chosen
/// by the test.
package struct SoftwareAuthenticator: Sendable {
    /// Flags: user present, user verified, attested credential data.
    package static let userPresent: UInt8 = 0x01
    package static let userVerified: UInt8 = 0x04
    package static let attestedCredential: UInt8 = 0x40

    /// How the registration is attested.
    package enum Format: Sendable {
        case none
        case packedSelf
        case packedX5C
    }

    package var key = P256.Signing.PrivateKey()
    /// An RSA key used in place of ``key`` (RS256), when set.
    package var rsaKey: _RSA.Signing.PrivateKey?
    package var credentialID: [UInt8]
    /// The counter the next assertion carries (then increased); registrations carry it as is.
    package var signCount: UInt32 = 0
    /// The user handle assertions return.
    package var userHandle: [UInt8]?

    package init(credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }) {
        self.credentialID = credentialID
    }

    /// The credential ID as the wire carries it.
    package var id: String { Base64URL.encode(credentialID) }

    /// An authenticator whose credential is an RS256 key (2048-bit RSA).
    package static func rs256() throws -> SoftwareAuthenticator {
        var authenticator = SoftwareAuthenticator()
        authenticator.rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        return authenticator
    }

    /// The credential's COSE key: EC2 ES256 (P-256), or RSA RS256.
    package var coseKey: [UInt8] {
        if let rsaKey, let parts = try? rsaKey.publicKey.getKeyPrimitives() {
            return CBOR.map([
                (.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(Array(parts.modulus))), (.int(-2), .bytes(Array(parts.publicExponent))),
            ]).encoded
        }
        let raw = Array(key.publicKey.x963Representation)
        return CBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(Array(raw[1..<33]))),
            (.int(-3), .bytes(Array(raw[33..<65]))),
        ]).encoded
    }

    /// The credential key's signature over `message`: DER ECDSA, or PKCS #1 v1.5.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        if let rsaKey { return Array(try rsaKey.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation) }
        return Array(try key.signature(for: message).derRepresentation)
    }

    /// The COSE algorithm of the credential.
    package var algorithm: Int64 { rsaKey == nil ? -7 : -257 }

    /// `clientDataJSON` for a ceremony.
    package static func clientData(type: String, challenge: String, origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// Authenticator data for `rpID`, with the attested credential when `flags` has ``attestedCredential``.
    package func authenticatorData(rpID: String, flags: UInt8, counter: UInt32) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags]
        data += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) }
        if flags & Self.attestedCredential != 0 {
            data += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)]
            data += credentialID + coseKey
        }
        return data
    }

    /// `navigator.credentials.create()`'s answer: `clientDataJSON` and `attestationObject`.
    package func register(
        rpID: String, challenge: String, origin: String, format: Format = .none,
        flags: UInt8 = userPresent | userVerified | attestedCredential, type: String = "webauthn.create"
    ) throws -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        let client = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, counter: signCount)
        let signed = authData + Array(SHA256.hash(data: client))
        let statement: CBOR
        switch format {
        case .none:
            statement = .map([])
        case .packedSelf:
            statement = .map([(.text("alg"), .int(algorithm)), (.text("sig"), .bytes(try sign(signed)))])
        case .packedX5C:
            let attestationKey = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName("Flint test authenticator") }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(attestationKey.publicKey),
                notValidBefore: Date(timeIntervalSinceNow: -3600), notValidAfter: Date(timeIntervalSinceNow: 3600), issuer: name, subject: name,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions {}, issuerPrivateKey: Certificate.PrivateKey(attestationKey))
            let der = try certificate.serializeAsPEM().derBytes
            let signature = try attestationKey.signature(for: signed).derRepresentation
            statement = .map([(.text("alg"), .int(-7)), (.text("sig"), .bytes(Array(signature))), (.text("x5c"), .array([.bytes(der)]))])
        }
        let fmt = format == .none ? "none" : "packed"
        let object = CBOR.map([(.text("fmt"), .text(fmt)), (.text("attStmt"), statement), (.text("authData"), .bytes(authData))])
        return (client, object.encoded)
    }

    /// `navigator.credentials.get()`'s answer, after increasing the counter (unless it is 0 and stays 0 with
    /// `keepCounter`).
    package mutating func assert(
        rpID: String, challenge: String, origin: String, flags: UInt8 = userPresent | userVerified, type: String = "webauthn.get",
        keepCounter: Bool = false
    ) throws -> (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        if !keepCounter { signCount += 1 }
        let client = Self.clientData(type: type, challenge: challenge, origin: origin)
        let authData = authenticatorData(rpID: rpID, flags: flags, counter: signCount)
        return (client, authData, try sign(authData + Array(SHA256.hash(data: client))))
    }
}

import FlintCore
import FlintStore

/// The binary fields of passkey requests: base64url as the browsers' `toJSON()` writes them (what the Firebase JS
/// SDK sends), or standard base64 as Google's proto3 JSON writes `bytes` fields; padded or not.
enum PasskeyBytes {
    /// Longest field read (attestation objects with an `x5c` chain are a few kilobytes).
    static let maxLength = 65_536

    /// The bytes of `text`; `INVALID_AUTHENTICATOR_RESPONSE` naming `field` when it is missing or not base64(url).
    static func decode(_ text: String?, field: String) throws(AuthError) -> [UInt8] {
        guard let text, !text.isEmpty else { throw AuthError.invalidAuthenticatorResponse.with(detail: "Missing \(field).") }
        guard text.utf8.count <= maxLength else { throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid \(field).") }
        let unpadded = text.hasSuffix("==") ? text.dropLast(2) : text.hasSuffix("=") ? text.dropLast() : Substring(text)
        guard let bytes = Base64URL.decode(String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })), !bytes.isEmpty else {
            throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid \(field).")
        }
        return bytes
    }

    /// A binary field of a start answer (`challenge`, `user.id`, `excludeCredentials[].id`), given base64url: standard
    /// base64, padded, as Google's proto3 JSON writes `bytes` and as the Firebase SDKs read it (`atob`,
    /// `Data(base64Encoded:)`, neither of which takes base64url).
    static func answer(_ base64url: String) -> String {
        ImportBase64.encode(Base64URL.decode(base64url) ?? [])
    }
}

/// `authenticatorRegistrationResponse`: the `PublicKeyCredential` of `navigator.credentials.create()` as its JSON form
/// carries it (`id`, `rawId`, `type`, `authenticatorAttachment`, `response` with `clientDataJSON`,
/// `attestationObject`, `transports`), which the Firebase JS and Apple SDKs send. The REST reference's names
/// (`credentialId`, `authenticatorAttestationResponse` with `clientDataJson`) are read too.
struct RegistrationCredentialJSON: Decodable {
    struct Response: Decodable {
        var clientDataJSON: String?
        var clientDataJson: String?
        var attestationObject: String?
        var transports: [String]?
    }

    var id: String?
    var rawId: String?
    var credentialId: String?
    var type: String?
    var credentialType: String?
    var authenticatorAttachment: String?
    var response: Response?
    var authenticatorAttestationResponse: Response?
}

/// `authenticatorAuthenticationResponse`: the `PublicKeyCredential` of `navigator.credentials.get()` (`response` with
/// `clientDataJSON`, `authenticatorData`, `signature`, `userHandle`), or the REST reference's names.
struct AuthenticationCredentialJSON: Decodable {
    struct Response: Decodable {
        var clientDataJSON: String?
        var clientDataJson: String?
        var authenticatorData: String?
        var signature: String?
        var userHandle: String?
    }

    var id: String?
    var rawId: String?
    var credentialId: String?
    var type: String?
    var credentialType: String?
    var response: Response?
    var authenticatorAssertionResponse: Response?
}

/// A credential's type: `public-key` when sent.
func checkCredentialType(_ values: String?...) throws(AuthError) {
    for case let type? in values where type != "public-key" {
        throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid credential type.")
    }
}

/// The credential ID a request names, from `rawId`, `id` or `credentialId` (all the same bytes when several are sent).
func credentialID(_ candidates: String?...) throws(AuthError) -> [UInt8] {
    var found: [UInt8]?
    for case let text? in candidates where !text.isEmpty {
        let bytes = try PasskeyBytes.decode(text, field: "credential ID")
        if let found, found != bytes { throw AuthError.invalidAuthenticatorResponse.with(detail: "Credential IDs differ.") }
        found = bytes
    }
    guard let found else { throw AuthError.invalidAuthenticatorResponse.with(detail: "Missing credential ID.") }
    return found
}

/// One `passkeyInfo` entry of `accounts:lookup` and the operator's listings: Identity Platform's `name` and
/// `credentialId`. The operator's download (`accounts:batchGet`, what exports read) adds Flint's key material, which
/// an import needs to verify the passkey later: `publicKey` (the COSE key, base64url), `rpId`, `signCount`,
/// `transports` and `createdAt` (milliseconds).
package struct PasskeyInfoJSON: Encodable {
    package var name: String?
    package var credentialId: String
    var publicKey: String?
    var rpId: String?
    var signCount: String?
    var transports: [String]?
    var createdAt: String?

    /// An entry; with `keyMaterial`, the export's members too.
    init(_ passkey: PasskeyRecord, keyMaterial: Bool = false) {
        (name, credentialId) = (passkey.name, passkey.credentialID)
        guard keyMaterial else { return }
        (publicKey, rpId, signCount) = (passkey.publicKey, passkey.rpID, String(passkey.signCount))
        transports = passkey.transports.isEmpty ? nil : passkey.transports
        createdAt = String(passkey.createdAt.millisecondsSince1970)
    }

    /// An account's passkeys, `nil` when it has none (the field is left out, as Firebase leaves empty lists out).
    static func list(_ passkeys: [PasskeyRecord], keyMaterial: Bool = false) -> [PasskeyInfoJSON]? {
        passkeys.isEmpty ? nil : passkeys.map { PasskeyInfoJSON($0, keyMaterial: keyMaterial) }
    }
}

/// A `PublicKeyCredentialDescriptor` (`excludeCredentials`, `allowCredentials`).
struct CredentialDescriptorJSON: Encodable {
    var type = "public-key"
    var id: String
    var transports: [String]?
}

public import Foundation

/// What a platform authenticator needs to create a passkey, from `passkeyEnrollment:start`: the properties of
/// AuthenticationServices' `ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`, for platforms without it
/// (an authenticator the app drives itself, or a test's software authenticator).
public struct PasskeyRegistrationRequest: Sendable, Equatable {
    /// The relying party's ID (a domain of the project), the WebAuthn `rp.id`.
    public var relyingPartyIdentifier: String
    /// The challenge the authenticator signs (bytes; `clientDataJSON` carries it base64url).
    public var challenge: Data
    /// The passkey's name, as the enrolment will store it.
    public var name: String
    /// The user handle: the account's ID as bytes.
    public var userID: Data
}

/// The authenticator's answer to a ``PasskeyRegistrationRequest``: the properties of
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`.
public struct PasskeyRegistration: Sendable, Equatable {
    /// The new credential's ID.
    public var credentialID: Data
    /// The `clientDataJSON` bytes the authenticator hashed.
    public var rawClientDataJSON: Data
    /// The CBOR attestation object (format `none` or `packed`) holding the authenticator data and public key.
    public var rawAttestationObject: Data

    /// A registration as an authenticator returned it.
    public init(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAttestationObject = rawAttestationObject
    }
}

/// What an authenticator needs to sign in with a passkey, from `passkeySignIn:start`: the properties of
/// `ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`.
public struct PasskeyAssertionRequest: Sendable, Equatable {
    /// The relying party's ID.
    public var relyingPartyIdentifier: String
    /// The challenge the authenticator signs.
    public var challenge: Data
}

/// The authenticator's answer to a ``PasskeyAssertionRequest``: the properties of
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion`.
public struct PasskeyAssertion: Sendable, Equatable {
    /// The credential's ID.
    public var credentialID: Data
    /// The `clientDataJSON` bytes the authenticator hashed.
    public var rawClientDataJSON: Data
    /// The authenticator data that was signed (RP ID hash, flags, counter).
    public var rawAuthenticatorData: Data
    /// The signature over the authenticator data and the client data's hash.
    public var signature: Data
    /// The user handle stored with the credential (the account's ID).
    public var userID: Data

    /// An assertion as an authenticator returned it.
    public init(credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data, signature: Data, userID: Data) {
        self.credentialID = credentialID
        self.rawClientDataJSON = rawClientDataJSON
        self.rawAuthenticatorData = rawAuthenticatorData
        self.signature = signature
        self.userID = userID
    }
}

/// The binary fields of the passkey wire.
enum PasskeyBase64 {
    /// The bytes of a server field: standard base64 or base64url, padded or not (`nil` when it is neither).
    static func decode(_ text: String?) -> Data? {
        guard let text, !text.isEmpty else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// A start answer's field that must be there.
    static func required(_ text: String?, _ field: String) throws -> Data {
        guard let data = decode(text) else {
            throw AuthErrorCode.internalError.error(detail: "The server's passkey options had no readable \(field).")
        }
        return data
    }
}

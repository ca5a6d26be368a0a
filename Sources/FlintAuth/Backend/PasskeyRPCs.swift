/// `v2/accounts/passkeyEnrollment:start` (FirebaseAuth's `StartPasskeyEnrollmentRequest`): the signed-in user's
/// `idToken`.
struct StartPasskeyEnrollmentRequest: Encodable {
    var idToken: String
}

/// The answer of `passkeyEnrollment:start`: the `PublicKeyCredentialCreationOptions`, of which the SDK reads the
/// challenge, the RP ID and the user handle, as FirebaseAuth does.
struct StartPasskeyEnrollmentResponse: Decodable {
    struct RelyingParty: Decodable {
        var id: String?
    }
    struct UserEntity: Decodable {
        var id: String?
    }
    struct Options: Decodable {
        var challenge: String?
        var rp: RelyingParty?
        var user: UserEntity?
    }
    var credentialCreationOptions: Options?
}

/// `v2/accounts/passkeyEnrollment:finalize` (`FinalizePasskeyEnrollmentRequest`): the `idToken`, the passkey's
/// `name` and the authenticator's registration (`id`, `response.clientDataJSON`, `response.attestationObject`, in
/// standard base64 as FirebaseAuth encodes them).
struct FinalizePasskeyEnrollmentRequest: Encodable {
    struct AttestationResponse: Encodable {
        var clientDataJSON: String
        var attestationObject: String
    }
    struct Registration: Encodable {
        var id: String
        var response: AttestationResponse
    }
    var idToken: String
    var name: String
    var authenticatorRegistrationResponse: Registration
}

/// `v2/accounts/passkeySignIn:start` (`StartPasskeySignInRequest`): an empty body (the tenant is added when set).
struct StartPasskeySignInRequest: Encodable {}

/// The answer of `passkeySignIn:start`: the `PublicKeyCredentialRequestOptions`' challenge and RP ID.
struct StartPasskeySignInResponse: Decodable {
    struct Options: Decodable {
        var challenge: String?
        var rpId: String?
    }
    var credentialRequestOptions: Options?
}

/// `v2/accounts/passkeySignIn:finalize` (`FinalizePasskeySignInRequest`): the authenticator's assertion (`id`,
/// `response` with `clientDataJSON`, `authenticatorData`, `signature`, `userHandle`), in standard base64. The
/// answer is a sign-in answer.
struct FinalizePasskeySignInRequest: Encodable {
    struct AssertionResponse: Encodable {
        var clientDataJSON: String
        var authenticatorData: String
        var signature: String
        var userHandle: String
    }
    struct Assertion: Encodable {
        var id: String
        var response: AssertionResponse
    }
    var authenticatorAuthenticationResponse: Assertion
}

/// One `passkeyInfo` entry of `accounts:lookup`.
struct PasskeyInfoWire: Decodable {
    var name: String?
    var credentialId: String?
}

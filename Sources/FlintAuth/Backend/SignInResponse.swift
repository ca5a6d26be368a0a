/// The tokens every sign-in endpoint answers with; also the answer of `accounts:update`, which carries new tokens when
/// the change ended the earlier sessions (email or password).
struct SignInResponse: Decodable {
    var localId: String?
    var email: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var isNewUser: Bool?
    /// The provider's profile as a JSON string, for federated sign-ins (`AdditionalUserInfo.profile`).
    var rawUserInfo: String?
    /// The provider's user name (`AdditionalUserInfo.username`).
    var screenName: String?
    /// With `mfaInfo`, instead of tokens: the account needs a second factor.
    var mfaPendingCredential: String?
    var mfaInfo: [MFAEnrollmentWire]?
    /// Flint extension: the project requires a second factor and the account has none yet.
    var mfaEnrollmentRequired: Bool?
}

extension SignInResponse {
    /// A sign-in answer with an endpoint's own members beside the tokens, both read from the same object.
    struct With<Extra: Decodable>: Decodable {
        var tokens: SignInResponse
        var extra: Extra

        init(from decoder: any Decoder) throws {
            tokens = try SignInResponse(from: decoder)
            extra = try Extra(from: decoder)
        }
    }
}

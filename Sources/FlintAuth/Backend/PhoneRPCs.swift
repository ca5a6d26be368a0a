/// A number to text a code to, with the app's proof, if any: the body of `accounts:sendVerificationCode`
/// (FirebaseAuth's `SendVerificationCodeRequest`, with `clientType`) and the `phoneEnrollmentInfo` and
/// `phoneSignInInfo` of the second-factor starts (`AuthProtoStartMFAPhoneRequestInfo`, without it). The proof's
/// fields stand beside `phoneNumber`; absent ones are not encoded.
struct PhoneCodeRequest: Encodable {
    var phoneNumber: String
    var proof: AppVerificationProof?
    var clientType: String?

    private enum CodingKeys: String, CodingKey { case phoneNumber, clientType }

    /// The body of `accounts:sendVerificationCode`.
    static func sendVerificationCode(phoneNumber: String, proof: AppVerificationProof?) -> Self {
        Self(phoneNumber: phoneNumber, proof: proof, clientType: "CLIENT_TYPE_IOS")
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(phoneNumber, forKey: .phoneNumber)
        try container.encodeIfPresent(clientType, forKey: .clientType)
        try proof?.encode(to: encoder)
    }
}

/// The answer to a `PhoneCodeRequest` (the API's `StartMfaPhoneResponseInfo`): the session the texted code belongs
/// to, whose ID is the verification ID. It is the whole answer of `accounts:sendVerificationCode`, and the
/// `phoneSessionInfo` of `mfaEnrollment:start` and the `phoneResponseInfo` of `mfaSignIn:start`.
struct PhoneCodeSession: Decodable {
    var sessionInfo: String?

    /// The verification ID of `session`; `internalError` with `detail` when the answer has none.
    static func verificationID(of session: PhoneCodeSession?, orFailWith detail: String) throws -> String {
        guard let sessionInfo = session?.sessionInfo, !sessionInfo.isEmpty else { throw AuthErrorCode.internalError.error(detail: detail) }
        return sessionInfo
    }
}

/// `accounts:signInWithPhoneNumber` (`VerifyPhoneNumberRequest`): a code for a session, or a temporary proof for
/// a number; with `idToken`, for that account.
struct VerifyPhoneNumberRequest: Encodable {
    enum Operation: String, Encodable {
        case signUpOrIn = "SIGN_UP_OR_IN"
        case reauth = "REAUTH"
        case update = "UPDATE"
        case link = "LINK"
    }

    var sessionInfo: String?
    var code: String?
    var idToken: String?
    var temporaryProof: String?
    var phoneNumber: String?
    var operation: Operation
}

/// The proof that a number was verified which `accounts:signInWithPhoneNumber` answers beside its tokens when the
/// number belongs to another account.
struct TemporaryProof: Decodable {
    var phoneNumber: String?
    var temporaryProof: String?
}

/// The answer of `accounts:signInWithPhoneNumber`: tokens, or (the number belongs to another account) a temporary
/// proof that the number was verified.
typealias VerifyPhoneNumberResponse = SignInResponse.With<TemporaryProof>

extension SignInResponse.With where Extra == TemporaryProof {
    /// The tokens as a sign-in answer; throws `credentialAlreadyInUse` carrying a credential built from the
    /// temporary proof when the server answered with one.
    func signInResponse() throws -> SignInResponse {
        if let phoneNumber = extra.phoneNumber, !phoneNumber.isEmpty, let proof = extra.temporaryProof, !proof.isEmpty {
            let credential = PhoneAuthCredential(.temporaryProof(phoneNumber: phoneNumber, proof: proof))
            throw AuthErrorCode.credentialAlreadyInUse.error(userInfo: [AuthErrors.userInfoUpdatedCredentialKey: credential])
        }
        return tokens
    }
}

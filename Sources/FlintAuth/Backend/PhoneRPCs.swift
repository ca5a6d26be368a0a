/// `accounts:sendVerificationCode` (FirebaseAuth's `SendVerificationCodeRequest`) with the app proof, if any.
struct SendVerificationCodeRequest: Encodable {
    var phoneNumber: String
    var iosReceipt: String?
    var iosSecret: String?
    var recaptchaToken: String?
    var clientType = "CLIENT_TYPE_IOS"

    init(phoneNumber: String, proof: AppVerificationProof?) {
        self.phoneNumber = phoneNumber
        iosReceipt = proof?.iosReceipt
        iosSecret = proof?.iosSecret
        recaptchaToken = proof?.recaptchaToken
    }
}

/// The answer of `accounts:sendVerificationCode`: the session the code belongs to (the verification ID).
struct SendVerificationCodeResponse: Decodable {
    var sessionInfo: String?
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

/// The answer of `accounts:signInWithPhoneNumber`: tokens, or (the number belongs to another account) a temporary
/// proof that the number was verified.
struct VerifyPhoneNumberResponse: Decodable {
    var localId: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var isNewUser: Bool?
    var phoneNumber: String?
    var temporaryProof: String?

    /// The tokens as a sign-in answer; throws `credentialAlreadyInUse` carrying a credential built from the
    /// temporary proof when the server answered with one.
    func signInResponse() throws -> SignInResponse {
        if let phoneNumber, !phoneNumber.isEmpty, let temporaryProof, !temporaryProof.isEmpty {
            let credential = PhoneAuthCredential(.temporaryProof(phoneNumber: phoneNumber, proof: temporaryProof))
            throw AuthErrorCode.credentialAlreadyInUse.error(userInfo: [AuthErrors.userInfoUpdatedCredentialKey: credential])
        }
        return SignInResponse(
            localId: localId, idToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn, isNewUser: isNewUser)
    }
}

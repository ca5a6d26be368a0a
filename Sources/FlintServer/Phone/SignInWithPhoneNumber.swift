import FlintCore
import FlintStore
import Hummingbird

/// `accounts:signInWithPhoneNumber` (v1) and `relyingparty/verifyPhoneNumber` (v3).
struct SignInWithPhoneNumberRequest: Decodable {
    /// What the verified number is for: the enum's name or number; absent, `VERIFY_OP_UNSPECIFIED`, 0 and 1 are
    /// `SIGN_UP_OR_IN`.
    enum Operation: String, Decodable {
        case signUpOrIn = "SIGN_UP_OR_IN"
        case reauth = "REAUTH"
        case update = "UPDATE"
        case link = "LINK"

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .signUpOrIn
                return
            }
            switch try value.decode(String.self) {
            case "VERIFY_OP_UNSPECIFIED", "0", "1": self = .signUpOrIn
            case "2": self = .reauth
            case "3": self = .update
            case "4": self = .link
            case let text:
                guard let op = Operation(rawValue: text) else {
                    throw AuthError.invalidJSON(
                        "Invalid value at 'operation' (type.googleapis.com/google.cloud.identitytoolkit.v1.SignInWithPhoneNumberRequest.VerifyOp), \"\(text.prefix(40))\""
                    )
                }
                self = op
            }
        }
    }

    var sessionInfo: String?
    var code: String?
    var idToken: String?
    var temporaryProof: String?
    var phoneNumber: String?
    var operation: Operation
}

/// Tokens for the signed-in user (or the second-factor challenge), or — the number is owned by another account
/// while linking — a temporary proof and no session.
typealias SignInWithPhoneNumberResponse = SignInReply<PhoneSignInFields>

/// `signInWithPhoneNumber`'s own fields.
struct PhoneSignInFields: Encodable, Sendable {
    var localId: String?
    var isNewUser: Bool?
    var phoneNumber: String
    var temporaryProof: String?
    var temporaryProofExpiresIn: String?
}

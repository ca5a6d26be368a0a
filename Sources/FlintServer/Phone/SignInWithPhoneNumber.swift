import FlintCore
import FlintStore
import Hummingbird

/// `accounts:signInWithPhoneNumber` (v1) and `relyingparty/verifyPhoneNumber` (v3).
struct SignInWithPhoneNumberRequest {
    /// What the verified number is for.
    enum Operation: String {
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

    init(_ body: WireBody) throws(AuthError) {
        sessionInfo = try body.string("sessionInfo")
        code = try body.string("code")
        idToken = try body.string("idToken")
        temporaryProof = try body.string("temporaryProof")
        phoneNumber = try body.string("phoneNumber")
        switch try body.string("operation") {
        case nil, "VERIFY_OP_UNSPECIFIED", "0", "1": operation = .signUpOrIn
        case "2": operation = .reauth
        case "3": operation = .update
        case "4": operation = .link
        case let text?:
            guard let op = Operation(rawValue: text) else {
                throw AuthError.invalidJSON(
                    "Invalid value at 'operation' (type.googleapis.com/google.cloud.identitytoolkit.v1.SignInWithPhoneNumberRequest.VerifyOp), \"\(text.prefix(40))\""
                )
            }
            operation = op
        }
    }
}

/// Tokens for the signed-in user, or (number owned by another account while linking) a temporary proof.
struct SignInWithPhoneNumberResponse: Encodable {
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    var localId: String?
    var isNewUser: Bool?
    var phoneNumber: String
    var temporaryProof: String?
    var temporaryProofExpiresIn: String?
    /// Linking a number in a MANDATORY project, for an account without second factors: no tokens, a pending
    /// credential to enrol one with (as the other first factors answer).
    var mfaPendingCredential: String?
    var mfaInfo: [MFAInfoJSON]?
    var mfaEnrollmentRequired: Bool?
}

extension PhoneRoutes {
    func signInWithPhoneNumber(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try SignInWithPhoneNumberRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.signInWithPhoneNumber(wire))
    }
}

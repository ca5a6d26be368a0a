import FlintCore
import FlintTexts
import Hummingbird

/// Multi-factor authentication, Firebase's v2 API (`/identitytoolkit.googleapis.com/v2/accounts/mfa...`), plus
/// Flint's recovery codes.
struct MFARoutes {
    let flow: MFAFlow

    func startEnrollment(_ request: Request, context: FlintRequestContext) async throws -> StartEnrollmentResponse {
        let wire = try await context.clientBody(request, as: StartEnrollmentRequest.self)
        return try await flow.startEnrollment(wire, locales: request.answerLocales, clientIP: context.clientIP)
    }

    func finalizeEnrollment(_ request: Request, context: FlintRequestContext) async throws -> FinalizeEnrollmentResponse {
        return try await flow.finalizeEnrollment(try await context.clientBody(request, as: FinalizeEnrollmentRequest.self))
    }

    func withdraw(_ request: Request, context: FlintRequestContext) async throws -> WithdrawResponse {
        return try await flow.withdraw(try await context.clientBody(request, as: WithdrawRequest.self))
    }

    func startSignIn(_ request: Request, context: FlintRequestContext) async throws -> StartMFASignInResponse {
        let wire = try await context.clientBody(request, as: StartMFASignInRequest.self)
        return try await flow.startMFASignIn(wire, locales: request.answerLocales, clientIP: context.clientIP)
    }

    func finalizeSignIn(_ request: Request, context: FlintRequestContext) async throws -> FinalizeMFASignInResponse {
        return try await flow.finalizeMFASignIn(try await context.clientBody(request, as: FinalizeMFASignInRequest.self))
    }

    func regenerateRecoveryCodes(_ request: Request, context: FlintRequestContext) async throws -> RecoveryCodesResponse {
        let wire = try await context.clientBody(request, as: RegenerateRecoveryCodesRequest.self)
        return try await flow.regenerateRecoveryCodes(idToken: wire.idToken)
    }
}

/// Firebase's `FinalizeMfaPhoneRequestInfo`: the code sent by SMS and the session it was sent for.
struct PhoneVerificationInfo: Decodable {
    var sessionInfo: String?
    var code: String?
}

/// Firebase's `FinalizeMfaTotpEnrollmentRequestInfo` / `MfaTotpSignInRequestInfo`: the one-time password, with the
/// enrolment session (enrolling) or the factor it belongs to (signing in).
struct TOTPVerificationInfo: Decodable {
    var sessionInfo: String?
    var verificationCode: String?
    var mfaEnrollmentId: String?
}

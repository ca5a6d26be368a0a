import FlintCore
import FlintTexts
import Hummingbird

/// Multi-factor authentication, Firebase's v2 API (`/identitytoolkit.googleapis.com/v2/accounts/mfa...`), plus
/// Flint's recovery codes.
struct MFARoutes {
    let services: AuthServices

    func startEnrollment(_ request: Request, context: FlintRequestContext) async throws -> StartEnrollmentResponse {
        try context.requireClient()
        let wire = try await request.decode(as: StartEnrollmentRequest.self, context: context)
        return try await services.startEnrollment(wire, locales: locales(request))
    }

    func finalizeEnrollment(_ request: Request, context: FlintRequestContext) async throws -> FinalizeEnrollmentResponse {
        try context.requireClient()
        return try await services.finalizeEnrollment(try await request.decode(as: FinalizeEnrollmentRequest.self, context: context))
    }

    func withdraw(_ request: Request, context: FlintRequestContext) async throws -> WithdrawResponse {
        try context.requireClient()
        return try await services.withdraw(try await request.decode(as: WithdrawRequest.self, context: context))
    }

    func startSignIn(_ request: Request, context: FlintRequestContext) async throws -> StartMFASignInResponse {
        try context.requireClient()
        let wire = try await request.decode(as: StartMFASignInRequest.self, context: context)
        return try await services.startMFASignIn(wire, locales: locales(request))
    }

    func finalizeSignIn(_ request: Request, context: FlintRequestContext) async throws -> FinalizeMFASignInResponse {
        try context.requireClient()
        return try await services.finalizeMFASignIn(try await request.decode(as: FinalizeMFASignInRequest.self, context: context))
    }

    func regenerateRecoveryCodes(_ request: Request, context: FlintRequestContext) async throws -> RecoveryCodesResponse {
        try context.requireClient()
        let wire = try await request.decode(as: RegenerateRecoveryCodesRequest.self, context: context)
        return try await services.regenerateRecoveryCodes(idToken: wire.idToken)
    }

    private func locales(_ request: Request) -> [String] {
        LocaleNegotiation.candidates(firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage])
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

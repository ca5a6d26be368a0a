import FlintCore
import Hummingbird

/// Multi-factor authentication, Firebase's v2 API (`/identitytoolkit.googleapis.com/v2/accounts/mfa...`), plus
/// Flint's recovery codes.
struct MFARoutes {
    let services: AuthServices

    func startEnrollment(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try StartEnrollmentRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.startEnrollment(wire, locales: locales(request)))
    }

    func finalizeEnrollment(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try FinalizeEnrollmentRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.finalizeEnrollment(wire))
    }

    func withdraw(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try WithdrawRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.withdraw(wire))
    }

    func startSignIn(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try StartMFASignInRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.startMFASignIn(wire, locales: locales(request)))
    }

    func finalizeSignIn(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let wire = try FinalizeMFASignInRequest(try await WireBody.read(request))
        return try JSONReply.make(try await services.finalizeMFASignIn(wire))
    }

    func regenerateRecoveryCodes(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireClient()
        let body = try await WireBody.read(request)
        return try JSONReply.make(try await services.regenerateRecoveryCodes(idToken: try body.string("idToken")))
    }

    private func locales(_ request: Request) -> [String] {
        LocaleNegotiation.candidates(firebaseLocale: request.headers[.firebaseLocale], acceptLanguage: request.headers[.acceptLanguage])
    }
}

extension WireBody {
    /// A nested object read with the same lenient rules as the top level.
    func nested(_ name: String) throws(AuthError) -> WireBody? {
        try object(name).map(WireBody.init(fields:))
    }
}

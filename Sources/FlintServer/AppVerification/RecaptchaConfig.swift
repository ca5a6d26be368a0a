import FlintCore
import Hummingbird

/// `GET v2/recaptchaConfig?clientType=…&version=RECAPTCHA_ENTERPRISE`: the reCAPTCHA Enterprise enforcement of each
/// provider. Flint has no reCAPTCHA Enterprise, so every provider is `OFF` and no `recaptchaKey` is sent; SDKs then
/// take the classic flow (silent push, else the web challenge), whose proofs Flint checks itself. With `tenantId`,
/// the tenant's answer: the same, for a tenant that exists (`TENANT_NOT_FOUND` otherwise).
struct RecaptchaConfigResponse: ResponseEncodable {
    struct EnforcementState: Encodable {
        var provider: String
        var enforcementState: String
    }
    var recaptchaEnforcementState: [EnforcementState]
}

extension AppVerificationRoutes {
    /// The client types Identity Platform defines.
    static let clientTypes: Set<String> = ["CLIENT_TYPE_IOS", "CLIENT_TYPE_ANDROID", "CLIENT_TYPE_WEB"]

    func recaptchaConfig(_ request: Request, context: FlintRequestContext) async throws -> RecaptchaConfigResponse {
        try context.requireClient()
        let query = request.uri.queryParameters
        guard let clientType = query["clientType"].map(String.init), !clientType.isEmpty else { throw AuthError.missingClientType }
        guard Self.clientTypes.contains(clientType) else {
            throw AuthError.invalidArgument("clientType must be one of \(Self.clientTypes.sorted().joined(separator: ", ")).")
        }
        guard let version = query["version"].map(String.init), !version.isEmpty else { throw AuthError.missingRecaptchaVersion }
        guard version == "RECAPTCHA_ENTERPRISE" else {
            throw AuthError(code: "INVALID_RECAPTCHA_VERSION", detail: "The only reCAPTCHA version is RECAPTCHA_ENTERPRISE.")
        }
        if let tenant = query["tenantId"], !tenant.isEmpty { _ = try await tenants.resolve(String(tenant)) }
        return RecaptchaConfigResponse(recaptchaEnforcementState: [
            .init(provider: "EMAIL_PASSWORD_PROVIDER", enforcementState: "OFF"),
            .init(provider: "PHONE_PROVIDER", enforcementState: "OFF"),
        ])
    }
}

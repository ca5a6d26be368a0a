import Foundation

/// The app proof a code request carries, FirebaseAuth's `CodeIdentity`: a receipt with the secret its silent push
/// delivered, or a token from the web challenge. Its fields have the wire names of `sendVerificationCode`,
/// `phoneEnrollmentInfo` and `phoneSignInInfo`, where `PhoneCodeRequest` encodes them beside the number; absent ones
/// are not encoded.
struct AppVerificationProof: Codable, Sendable, Equatable {
    var iosReceipt: String?
    var iosSecret: String?
    var recaptchaToken: String?

    /// A receipt and its secret.
    static func credential(_ credential: AppCredential) -> AppVerificationProof {
        AppVerificationProof(iosReceipt: credential.receipt, iosSecret: credential.secret)
    }

    /// A web-challenge token.
    static func token(_ token: String) -> AppVerificationProof {
        AppVerificationProof(recaptchaToken: token)
    }
}

/// `accounts:verifyClient` (FirebaseAuth's `VerifyClientRequest`): the APNs token as upper-case hex, and
/// `isSandbox` only when true.
struct VerifyClientRequest: Encodable {
    var appToken: String
    var isSandbox: Bool?
}

/// The answer of `accounts:verifyClient`: the receipt, and how long (seconds, as a string) to wait for the push.
struct VerifyClientResponse: Decodable {
    var receipt: String?
    var suggestedTimeout: String?
}

/// The answer of `GET v2/recaptchaConfig`: the reCAPTCHA Enterprise enforcement per provider, and the site key
/// (`projects/<project>/keys/<site key>`).
struct RecaptchaConfigResponse: Decodable {
    struct EnforcementState: Decodable {
        var provider: String?
        var enforcementState: String?
    }
    var recaptchaEnforcementState: [EnforcementState]?
    var recaptchaKey: String?

    /// The enforcement of phone sign-in (`OFF` when not listed, as FirebaseAuth reads it).
    var phoneEnforcement: String {
        recaptchaEnforcementState?.first { $0.provider == "PHONE_PROVIDER" }?.enforcementState ?? "OFF"
    }

    /// Whether a provider FirebaseAuth knows (email and password, phone) is in `ENFORCE` or `AUDIT` mode.
    var enforcesAnyProvider: Bool {
        (recaptchaEnforcementState ?? []).contains { state in
            ["EMAIL_PASSWORD_PROVIDER", "PHONE_PROVIDER"].contains(state.provider)
                && ["ENFORCE", "AUDIT"].contains(state.enforcementState)
        }
    }
}

extension Backend {
    /// `GET v2/recaptchaConfig`, as FirebaseAuth's `GetRecaptchaConfigRequest` asks it: `clientType=CLIENT_TYPE_IOS`,
    /// `version=RECAPTCHA_ENTERPRISE` and the tenant (`tenantId`) after the API key.
    func recaptchaConfig() async throws -> RecaptchaConfigResponse {
        var query = [URLQueryItem(name: "clientType", value: "CLIENT_TYPE_IOS"), URLQueryItem(name: "version", value: "RECAPTCHA_ENTERPRISE")]
        if let tenantID = configuration.current.tenantID { query.append(URLQueryItem(name: "tenantId", value: tenantID)) }
        return try await get("/v2/recaptchaConfig", query: query)
    }
}

/// The answer of `GET v1/projects` (`getProjectConfig`): the authorized domains, a list or a JSON string of one.
struct ProjectConfigResponse: Decodable {
    var projectId: String?
    var authorizedDomains: [String]

    enum CodingKeys: String, CodingKey { case projectId, authorizedDomains }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projectId = try container.decodeIfPresent(String.self, forKey: .projectId)
        if let list = try? container.decodeIfPresent([String].self, forKey: .authorizedDomains) {
            authorizedDomains = list
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .authorizedDomains),
            let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        {
            authorizedDomains = list
        } else {
            authorizedDomains = []
        }
    }
}

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

/// The answer of `GET v2/recaptchaConfig`: the reCAPTCHA Enterprise enforcement per provider.
struct RecaptchaConfigResponse: Decodable {
    struct EnforcementState: Decodable {
        var provider: String?
        var enforcementState: String?
    }
    var recaptchaEnforcementState: [EnforcementState]?

    /// The enforcement of phone sign-in (`OFF` when not listed, as FirebaseAuth reads it).
    var phoneEnforcement: String {
        recaptchaEnforcementState?.first { $0.provider == "PHONE_PROVIDER" }?.enforcementState ?? "OFF"
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

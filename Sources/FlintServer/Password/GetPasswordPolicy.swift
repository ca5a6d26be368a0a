import FlintCore
import Hummingbird

/// `GET v2/passwordPolicy` (the SDKs' `getPasswordPolicy`, for `validatePassword` on the client): the project's
/// password policy, or Firebase's default (6 characters, not enforced) when none is set.
struct PasswordPolicyResponse: ResponseEncodable {
    /// The lengths and the character classes the policy asks for (a class it does not require is left out).
    struct Options: Encodable {
        var policy: PasswordPolicy

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(policy.minLength, forKey: Key(stringValue: "minPasswordLength"))
            try container.encode(policy.maxLength, forKey: Key(stringValue: "maxPasswordLength"))
            for (name, flag) in PasswordPolicy.characterClassOptions where policy[keyPath: flag] {
                try container.encode(true, forKey: Key(stringValue: name))
            }
        }
    }

    var customStrengthOptions: Options
    var allowedNonAlphanumericCharacters = PasswordPolicy.nonAlphanumericCharacters.map(String.init)
    var enforcementState: String
    var forceUpgradeOnSignin: Bool
    var schemaVersion = 1

    init(_ policy: PasswordPolicy?) {
        let p = policy ?? PasswordPolicy(enforced: false)
        customStrengthOptions = Options(policy: p)
        enforcementState = p.enforced ? "ENFORCE" : "OFF"
        forceUpgradeOnSignin = p.forceUpgradeOnSignin
    }
}

/// Serves the password policy to clients (API key callers): the project's, or with `tenantId` the tenant's
/// (`passwordPolicyConfig` of its resource; `TENANT_NOT_FOUND` for an unknown one).
struct PasswordPolicyRoutes {
    let config: ConfigCache
    let tenants: TenantCache

    func passwordPolicy(_ request: Request, context: FlintRequestContext) async throws -> PasswordPolicyResponse {
        try context.requireClient()
        if let id = request.uri.queryParameters["tenantId"], !id.isEmpty {
            return PasswordPolicyResponse(try await tenants.resolve(String(id)).settings.passwordPolicy)
        }
        return PasswordPolicyResponse(config.current.passwordPolicy)
    }
}

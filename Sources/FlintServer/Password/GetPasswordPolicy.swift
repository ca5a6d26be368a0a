import FlintCore
import Hummingbird

/// `GET v2/passwordPolicy` (the SDKs' `getPasswordPolicy`, for `validatePassword` on the client): the project's
/// password policy, or Firebase's default (6 characters, not enforced) when none is set.
struct PasswordPolicyResponse: ResponseEncodable {
    /// The lengths and character classes the policy asks for.
    struct Options: Encodable {
        var minPasswordLength: Int
        var maxPasswordLength: Int
        var containsLowercaseCharacter: Bool?
        var containsUppercaseCharacter: Bool?
        var containsNumericCharacter: Bool?
        var containsNonAlphanumericCharacter: Bool?
    }

    var customStrengthOptions: Options
    var allowedNonAlphanumericCharacters = PasswordPolicy.nonAlphanumericCharacters.map(String.init)
    var enforcementState: String
    var forceUpgradeOnSignin: Bool
    var schemaVersion = 1

    init(_ policy: PasswordPolicy?) {
        let p = policy ?? PasswordPolicy(enforced: false)
        customStrengthOptions = Options(
            minPasswordLength: p.minLength, maxPasswordLength: p.maxLength, containsLowercaseCharacter: p.requiresLowercase ? true : nil,
            containsUppercaseCharacter: p.requiresUppercase ? true : nil, containsNumericCharacter: p.requiresNumeric ? true : nil,
            containsNonAlphanumericCharacter: p.requiresNonAlphanumeric ? true : nil)
        enforcementState = p.enforced ? "ENFORCE" : "OFF"
        forceUpgradeOnSignin = p.forceUpgradeOnSignin
    }
}

/// Serves the password policy to clients (API key callers).
struct PasswordPolicyRoutes {
    let config: ConfigCache

    func passwordPolicy(_ request: Request, context: FlintRequestContext) async throws -> PasswordPolicyResponse {
        try context.requireClient()
        return PasswordPolicyResponse(config.current.passwordPolicy)
    }
}

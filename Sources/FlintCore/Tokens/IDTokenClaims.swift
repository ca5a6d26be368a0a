/// The claims of a Firebase ID token, before signing.
package struct IDTokenClaims: Sendable, Equatable {
    /// Project ID (`aud`, and the tail of `iss`).
    package var projectID: String
    /// The user's `localId` (`sub` and `user_id`).
    package var userID: String
    /// The sign-in that started this session (`auth_time`, its whole second).
    package var authTime: Instant
    /// Issue (`iat`, its whole second).
    package var issuedAt: Instant
    /// Lifetime, whole seconds (`exp - iat`).
    package var lifetime: Duration = .seconds(3600)
    /// `phone_number`.
    package var phoneNumber: String?
    /// `email`.
    package var email: String?
    /// `email_verified`.
    package var emailVerified: Bool?
    /// `name` (display name).
    package var name: String?
    /// `picture` (photo URL).
    package var picture: String?
    /// `firebase.sign_in_provider`: `phone`, `password`, `custom`, ...
    package var signInProvider: String
    /// `firebase.identities`.
    package var identities: [String: [String]] = [:]
    /// `firebase.sign_in_second_factor`.
    package var secondFactor: String?
    /// `firebase.second_factor_identifier`.
    package var secondFactorIdentifier: String?
    /// `firebase.revocation_generation` (Flint's): the account's ``revocationGeneration`` when the token was minted;
    /// left out while it is 0, so an account that was never revoked gets exactly Firebase's claims.
    package var revocationGeneration: Int64 = 0
    /// `firebase.session_id` (Flint's): the session the token was minted for (its refresh token's ID), so ending that
    /// session refuses the token where Flint checks revocation, and the session's owner can tell which one is theirs.
    package var sessionID: String?
    /// `firebase.tenant`: the tenant of the account, absent for the default tenant's.
    package var tenant: String?
    /// `firebase.sign_in_attributes`: a SAML sign-in's assertion attributes (a name's one value as a string, several
    /// as a list).
    package var signInAttributes: [String: JSONValue]?
    /// Developer claims (`customAttributes`), merged below the reserved ones.
    package var customClaims: [String: JSONValue] = [:]

    /// Creates claims.
    package init(projectID: String, userID: String, authTime: Instant, issuedAt: Instant, signInProvider: String) {
        self.projectID = projectID
        self.userID = userID
        self.authTime = authTime
        self.issuedAt = issuedAt
        self.signInProvider = signInProvider
    }

    /// The issuer every Firebase verifier expects.
    package static func issuer(projectID: String) -> String { "https://securetoken.google.com/\(projectID)" }

    /// The key, inside the `firebase` claim, of ``revocationGeneration``.
    package static let revocationGenerationClaim = "revocation_generation"
    /// The key, inside the `firebase` claim, of ``sessionID``.
    package static let sessionIDClaim = "session_id"

    /// Claim names a developer may not set (`FORBIDDEN_CLAIM`): Firebase's list, the same in its backend, the
    /// emulator and the Admin SDKs.
    package static let reservedClaims: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase",
        "at_hash", "c_hash",
    ]

    /// Claims that only ever come from the account, never from developer claims: Firebase accepts developer claims
    /// with these names, but a token never carries them from there (a phone user's token must not show a developer's
    /// `email`, which backends read as the user's address).
    package static let accountClaims: Set<String> = ["user_id", "phone_number", "email", "email_verified", "provider_id"]

    /// The JSON payload. Custom claims first (without ``accountClaims``), then the reserved ones, which cannot be
    /// overridden.
    package var payload: [String: JSONValue] {
        var out = customClaims.filter { !Self.accountClaims.contains($0.key) }
        if let name { out["name"] = .string(name) }
        if let picture { out["picture"] = .string(picture) }
        out["iss"] = .string(Self.issuer(projectID: projectID))
        out["aud"] = .string(projectID)
        out["auth_time"] = .number(Double(authTime.secondsSince1970))
        out["user_id"] = .string(userID)
        out["sub"] = .string(userID)
        out["iat"] = .number(Double(issuedAt.secondsSince1970))
        out["exp"] = .number(Double(issuedAt.secondsSince1970 + lifetime.inSeconds))
        if let phoneNumber { out["phone_number"] = .string(phoneNumber) }
        if let email { out["email"] = .string(email) }
        if let emailVerified { out["email_verified"] = .bool(emailVerified) }
        // Firebase marks anonymous users' tokens with a top-level `provider_id` too.
        if signInProvider == "anonymous" { out["provider_id"] = .string("anonymous") }
        var firebase: [String: JSONValue] = [
            "identities": .object(identities.mapValues { .array($0.map(JSONValue.string)) }),
            "sign_in_provider": .string(signInProvider),
        ]
        if let secondFactor { firebase["sign_in_second_factor"] = .string(secondFactor) }
        if let secondFactorIdentifier { firebase["second_factor_identifier"] = .string(secondFactorIdentifier) }
        if revocationGeneration > 0 { firebase[Self.revocationGenerationClaim] = .number(Double(revocationGeneration)) }
        if let sessionID { firebase[Self.sessionIDClaim] = .string(sessionID) }
        if let tenant, !tenant.isEmpty { firebase["tenant"] = .string(tenant) }
        if let signInAttributes { firebase["sign_in_attributes"] = .object(signInAttributes) }
        out["firebase"] = .object(firebase)
        return out
    }
}

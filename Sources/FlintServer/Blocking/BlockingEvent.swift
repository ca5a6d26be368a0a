import FlintCore
import FlintStore

/// What a blocking function is told about one operation: the account as it would be saved, how the user signed in,
/// and what the provider gave. ``payload(projectID:functionURI:eventID:request:now:)`` makes the claims of the JWT
/// Identity Platform sends (`user_record` in snake case, times as firebase-functions reads them).
struct BlockingEvent: Sendable {
    var trigger: ProjectConfig.BlockingTrigger
    /// The account (none for an email or SMS to someone without one).
    var user: UserRecord?
    var identities: [FederatedIdentityRecord] = []
    var enrollments: [MFAEnrollmentRecord] = []
    /// `password`, `emailLink`, `phone`, `google.com`…
    var signInMethod: String?
    /// The provider's profile as JSON text (`rawUserInfo`).
    var rawUserInfo: String? = nil
    /// The provider's credentials, given to the function as far as `forwardInboundCredentials` allows.
    var oauthIDToken: String? = nil
    var oauthAccessToken: String? = nil
    var oauthRefreshToken: String? = nil
    var oauthTokenSecret: String? = nil
    /// A SAML sign-in's assertion attributes, as Identity Platform sends them (`sign_in_attributes`).
    var signInAttributes: [String: JSONValue]? = nil
    /// `beforeSendEmail`: `EMAIL_SIGN_IN`, `PASSWORD_RESET`, `VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL`…
    var emailType: String? = nil
    /// `beforeSendSms`: `SIGN_IN_OR_SIGN_UP`, `MULTI_FACTOR_SIGN_IN`, `MULTI_FACTOR_ENROLLMENT`.
    var smsType: String? = nil
    /// The address or number an email or SMS goes to when there is no account.
    var recipientEmail: String? = nil
    var recipientPhone: String? = nil

    /// How long the JWT is valid: longer than the call may take.
    static let tokenLifetime: Duration = .seconds(300)

    /// The JWT's claims.
    func payload(
        projectID: String, functionURI: String, eventID: String, request: RequestFacts, forwarded: ProjectConfig.ForwardedCredentials,
        now: Instant
    ) -> [String: JSONValue] {
        let iat = now.secondsSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(IDTokenClaims.issuer(projectID: projectID)), "aud": .string(functionURI), "iat": .number(Double(iat)),
            "exp": .number(Double(iat + Self.tokenLifetime.components.seconds)), "event_id": .string(eventID),
            "event_type": .string(trigger.rawValue), "ip_address": .string(request.ip ?? ""), "user_agent": .string(request.userAgent ?? ""),
        ]
        // firebase-admin's verifiers want a subject: the account's ID, else the event's.
        claims["sub"] = .string(user?.localID ?? eventID)
        if let locale = request.locale { claims["locale"] = .string(locale) }
        // Identity Platform names the tenant of an event in a tenant.
        let tenant = user?.tenant ?? .scoped
        if !tenant.isDefault { claims["tenant_id"] = .string(tenant.rawValue) }
        if let signInMethod { claims["sign_in_method"] = .string(signInMethod) }
        if let user { claims["user_record"] = .object(Self.userRecord(user, identities: identities, enrollments: enrollments)) }
        if let rawUserInfo { claims["raw_user_info"] = .string(rawUserInfo) }
        if let signInAttributes { claims["sign_in_attributes"] = .object(signInAttributes) }
        if forwarded.idToken, let oauthIDToken { claims["oauth_id_token"] = .string(oauthIDToken) }
        if forwarded.accessToken, let oauthAccessToken {
            claims["oauth_access_token"] = .string(oauthAccessToken)
            if let oauthTokenSecret { claims["oauth_token_secret"] = .string(oauthTokenSecret) }
        }
        if forwarded.refreshToken, let oauthRefreshToken { claims["oauth_refresh_token"] = .string(oauthRefreshToken) }
        if let emailType { claims["email_type"] = .string(emailType) }
        if let smsType { claims["sms_type"] = .string(smsType) }
        if let recipientEmail { claims["email"] = .string(recipientEmail) }
        if let recipientPhone { claims["phone_number"] = .string(recipientPhone) }
        return claims
    }

    /// `user_record`: what firebase-functions reads into its `AuthUserRecord` (no password hash is ever sent).
    static func userRecord(_ user: UserRecord, identities: [FederatedIdentityRecord], enrollments: [MFAEnrollmentRecord]) -> [String: JSONValue] {
        var record: [String: JSONValue] = [
            "uid": .string(user.localID), "email_verified": .bool(user.emailVerified), "disabled": .bool(user.disabled),
            "tokens_valid_after_time": .number(Double(user.validSince.secondsSince1970)),
        ]
        if !user.tenant.isDefault { record["tenant_id"] = .string(user.tenant.rawValue) }
        if let email = user.email { record["email"] = .string(email) }
        if let name = user.displayName { record["display_name"] = .string(name) }
        if let photo = user.photoURL { record["photo_url"] = .string(photo) }
        if let phone = user.phoneNumber { record["phone_number"] = .string(phone) }
        var metadata: [String: JSONValue] = ["creation_time": .number(Double(user.createdAt.millisecondsSince1970))]
        if let last = user.lastLoginAt { metadata["last_sign_in_time"] = .number(Double(last.millisecondsSince1970)) }
        record["metadata"] = .object(metadata)
        var providers: [JSONValue] = []
        if let email = user.email, user.passwordHash != nil {
            providers.append(["uid": .string(email), "provider_id": "password", "email": .string(email)])
        }
        if let phone = user.phoneNumber { providers.append(["uid": .string(phone), "provider_id": "phone", "phone_number": .string(phone)]) }
        for identity in identities {
            var info: [String: JSONValue] = ["uid": .string(identity.rawID), "provider_id": .string(identity.providerID)]
            if let email = identity.email { info["email"] = .string(email) }
            if let name = identity.displayName { info["display_name"] = .string(name) }
            if let photo = identity.photoURL { info["photo_url"] = .string(photo) }
            if let phone = identity.phoneNumber { info["phone_number"] = .string(phone) }
            providers.append(.object(info))
        }
        record["provider_data"] = .array(providers)
        if let text = user.customAttributes, let claims = try? JSONValue(parsing: Array(text.utf8)), claims.objectValue != nil {
            record["custom_claims"] = claims
        }
        if !enrollments.isEmpty {
            let factors: [JSONValue] = enrollments.map { enrollment in
                var factor: [String: JSONValue] = [
                    "uid": .string(enrollment.enrollmentID), "factor_id": .string(enrollment.factor == .totp ? "totp" : "phone"),
                    // `+00:00` rather than `Z`: Python before 3.11 reads only that in `fromisoformat`.
                    "enrollment_time": .string(Self.isoTime(enrollment.enrolledAt)),
                ]
                if let name = enrollment.displayName { factor["display_name"] = .string(name) }
                if let phone = enrollment.phoneNumber { factor["phone_number"] = .string(phone) }
                return .object(factor)
            }
            record["multi_factor"] = ["enrolled_factors": .array(factors)]
        }
        return record
    }
}

extension BlockingEvent {
    static func isoTime(_ instant: Instant) -> String {
        let text = RFC3339.format(instant)
        return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
    }
}

/// What a request tells a blocking function about its client: read from the request's ``AuditOrigin``, which the
/// audit middleware binds for every request with the client's address, user agent and locale.
struct RequestFacts: Sendable {
    var ip: String?
    var userAgent: String?
    /// `X-Firebase-Locale`.
    var locale: String?

    /// The request in progress (empty outside one).
    static var current: RequestFacts {
        let origin = AuditOrigin.current
        return RequestFacts(ip: origin.ip, userAgent: origin.userAgent, locale: origin.locale)
    }
}

import HTTPTypes

/// Firebase's error strings, exactly as the emulator and production answer them: every kind Flint answers, by topic.
extension AuthError {
    // MARK: Phone sign-in
    package static let invalidPhoneNumber = AuthError(code: "INVALID_PHONE_NUMBER", detail: "Invalid format.")
    package static let missingPhoneNumber = AuthError(code: "MISSING_PHONE_NUMBER")
    package static let missingSessionInfo = AuthError(code: "MISSING_SESSION_INFO")
    package static let missingCode = AuthError(code: "MISSING_CODE")
    package static let invalidSessionInfo = AuthError(code: "INVALID_SESSION_INFO")
    package static let invalidCode = AuthError(code: "INVALID_CODE")
    package static let sessionExpired = AuthError(code: "SESSION_EXPIRED")
    package static let invalidTemporaryProof = AuthError(code: "INVALID_TEMPORARY_PROOF")
    package static let phoneNumberExists = AuthError(code: "PHONE_NUMBER_EXISTS")
    package static let tooManyAttempts = AuthError(code: "TOO_MANY_ATTEMPTS_TRY_LATER")
    /// An email address locked after failed password sign-ins in a row (`flint.accountLockout`), in Firebase's words;
    /// the same for an address without an account.
    package static let accountLocked = AuthError(
        code: "TOO_MANY_ATTEMPTS_TRY_LATER",
        detail: "Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by "
            + "resetting your password or you can try again later.")
    /// The project's texts of the day are used up (`flint.smsLimits.dailyBudget`), in Firebase's words.
    package static let smsQuotaExceeded = AuthError(code: "QUOTA_EXCEEDED", detail: "Exceeded quota for sending verification codes.")
    package static let operationNotAllowed = AuthError(code: "OPERATION_NOT_ALLOWED")
    /// A code for a number whose region the project's `smsRegionConfig` does not allow (Firebase's wording).
    package static let smsRegionNotAllowed = AuthError(
        code: "OPERATION_NOT_ALLOWED", detail: "SMS unable to be sent until this region enabled by the app developer.")
    package static let unsupportedFirstFactor = AuthError(
        code: "UNSUPPORTED_FIRST_FACTOR",
        detail: "A phone number cannot be set as a first factor on an SMS based MFA user."
    )

    // MARK: Tokens and accounts
    package static let missingIDToken = AuthError(code: "MISSING_ID_TOKEN")
    package static let invalidIDToken = AuthError(code: "INVALID_ID_TOKEN")
    package static let tokenExpired = AuthError(code: "TOKEN_EXPIRED")
    package static let userNotFound = AuthError(code: "USER_NOT_FOUND")
    /// The account has no session by the ID given (Flint's sessions endpoints).
    package static let sessionNotFound = AuthError(code: "SESSION_NOT_FOUND")
    package static let userDisabled = AuthError(code: "USER_DISABLED")
    package static let missingLocalID = AuthError(code: "MISSING_LOCAL_ID")
    package static let missingGrantType = AuthError(code: "MISSING_GRANT_TYPE")
    package static let invalidGrantType = AuthError(code: "INVALID_GRANT_TYPE")
    package static let missingRefreshToken = AuthError(code: "MISSING_REFRESH_TOKEN")
    package static let invalidRefreshToken = AuthError(code: "INVALID_REFRESH_TOKEN")

    // MARK: Request shape, credentials, project
    package static let missingAPIKey = AuthError(
        status: .forbidden,
        code: "The request is missing a valid API key.",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    package static let invalidAPIKey = AuthError(
        status: .badRequest,
        code: "API key not valid. Please pass a valid API key.",
        reason: "keyInvalid",
        rpcStatus: "INVALID_ARGUMENT"
    )
    package static let unauthenticated = AuthError(
        status: .unauthorized,
        code:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "authError",
        rpcStatus: "UNAUTHENTICATED"
    )
    package static let insufficientPermission = AuthError(
        status: .forbidden,
        code: "INSUFFICIENT_PERMISSION",
        reason: "forbidden",
        rpcStatus: "PERMISSION_DENIED"
    )
    package static let notFound = AuthError(status: .notFound, code: "Not Found", reason: "notFound", rpcStatus: "NOT_FOUND")
    package static let payloadTooLarge = AuthError(
        status: .contentTooLarge,
        code: "Request payload size exceeds the limit: 1048576 bytes.",
        reason: "badRequest",
        rpcStatus: "INVALID_ARGUMENT"
    )
    package static let internalError = AuthError(status: .internalServerError, code: "INTERNAL_ERROR", reason: "backendError", rpcStatus: "INTERNAL")
    package static let projectNotFound = AuthError(status: .notFound, code: "PROJECT_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")

    /// Firebase's answer to unparsable JSON or a field of the wrong type.
    package static func invalidJSON(_ detail: String) -> AuthError {
        AuthError(code: "Invalid JSON payload received. \(detail)", reason: "invalid", rpcStatus: "INVALID_ARGUMENT")
    }

    /// Firebase's `INVALID_ARGUMENT` with a detail, used for config validation.
    package static func invalidArgument(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_ARGUMENT", detail: detail, rpcStatus: "INVALID_ARGUMENT")
    }

    // MARK: Email link, password and out-of-band codes
    package static let missingEmail = AuthError(code: "MISSING_EMAIL")
    package static let invalidEmail = AuthError(code: "INVALID_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` without `newEmail`.
    package static let missingNewEmail = AuthError(code: "MISSING_NEW_EMAIL")
    /// `VERIFY_AND_CHANGE_EMAIL` with a `newEmail` that is not an email address.
    package static let invalidNewEmail = AuthError(code: "INVALID_NEW_EMAIL")
    package static let emailMismatch = AuthError(code: "INVALID_EMAIL", detail: "The email provided does not match the sign-in email address.")
    package static let emailExists = AuthError(code: "EMAIL_EXISTS")
    package static let emailNotFound = AuthError(code: "EMAIL_NOT_FOUND")
    package static let missingPassword = AuthError(code: "MISSING_PASSWORD")
    package static let invalidLoginCredentials = AuthError(code: "INVALID_LOGIN_CREDENTIALS")
    package static let passwordLoginDisabled = AuthError(code: "PASSWORD_LOGIN_DISABLED")
    package static let weakPassword = AuthError(code: "WEAK_PASSWORD", detail: "Password should be at least 6 characters")
    package static let missingOobCode = AuthError(code: "MISSING_OOB_CODE")
    package static let invalidOobCode = AuthError(code: "INVALID_OOB_CODE")
    package static let expiredOobCode = AuthError(code: "EXPIRED_OOB_CODE")
    package static let missingRequestType = AuthError(code: "MISSING_REQ_TYPE")
    package static let invalidRequestType = AuthError(code: "INVALID_REQ_TYPE", detail: "Unsupported request parameters.")
    package static let invalidContinueURI = AuthError(
        code: "INVALID_CONTINUE_URI", detail: "((expected an absolute URI with valid scheme and host))")
    package static let missingContinueURI = AuthError(code: "MISSING_CONTINUE_URI")
    package static let unauthorizedDomain = AuthError(code: "UNAUTHORIZED_DOMAIN", detail: "Domain not allowlisted by project")
    package static let missingIdentifier = AuthError(code: "MISSING_IDENTIFIER")
    package static let invalidIdentifier = AuthError(code: "INVALID_IDENTIFIER")
    /// `createAuthUri` with a `providerId` the server does not serve.
    package static let invalidProviderID = AuthError(code: "INVALID_PROVIDER_ID", detail: "Provider Id is not supported.")
    package static let invalidDynamicLinkDomain = AuthError(code: "INVALID_DYNAMIC_LINK_DOMAIN")
    /// Identity Platform's detail word for word (firebase-admin's integration tests compare the whole text); in Flint
    /// the hosting domains are the project's `flint.linkDomains`.
    package static let invalidHostingLinkDomain = AuthError(
        code: "INVALID_HOSTING_LINK_DOMAIN",
        detail: "The provided hosting link domain is not configured in Firebase Hosting or is not owned by the current project. "
            + "This cannot be a default hosting domain (web.app or firebaseapp.com).")
    package static let missingAndroidPackageName = AuthError(code: "MISSING_ANDROID_PACKAGE_NAME")
    package static let missingIOSBundleID = AuthError(code: "MISSING_IOS_BUNDLE_ID")
    package static let credentialTooOld = AuthError(code: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    /// A federated identity (provider and raw ID) that another account holds.
    package static let federatedUserIDAlreadyLinked = AuthError(code: "FEDERATED_USER_ID_ALREADY_LINKED")

    // MARK: Custom tokens, developer claims and session cookies
    package static let missingCustomToken = AuthError(code: "MISSING_CUSTOM_TOKEN")
    /// A malformed, unsigned (outside dev mode), badly signed, expired or otherwise refused custom token.
    package static let invalidCustomToken = AuthError(code: "INVALID_CUSTOM_TOKEN")
    /// A custom token signed by a service account this project does not know (Firebase: another project's).
    package static let credentialMismatch = AuthError(code: "CREDENTIAL_MISMATCH")
    package static let tenantIDMismatch = AuthError(code: "TENANT_ID_MISMATCH")
    package static let invalidClaims = AuthError(code: "INVALID_CLAIMS")
    /// A reserved claim name; the detail names it.
    package static let forbiddenClaim = AuthError(code: "FORBIDDEN_CLAIM")
    package static let claimsTooLarge = AuthError(code: "CLAIMS_TOO_LARGE")
    /// A session cookie's `validDuration` outside 5 minutes – 14 days.
    package static let invalidDuration = AuthError(code: "INVALID_DURATION")

    // MARK: Multi-factor authentication (v2 `mfaEnrollment:*` and `mfaSignIn:*`)
    package static let missingMFAPendingCredential = AuthError(
        code: "MISSING_MFA_PENDING_CREDENTIAL", detail: "Request does not have MFA pending credential.")
    package static let missingMFAEnrollmentID = AuthError(code: "MISSING_MFA_ENROLLMENT_ID", detail: "No second factor identifier is provided.")
    package static let invalidMFAPendingCredential = AuthError(code: "INVALID_MFA_PENDING_CREDENTIAL")
    package static let mfaEnrollmentNotFound = AuthError(code: "MFA_ENROLLMENT_NOT_FOUND")
    package static let secondFactorExists = AuthError(
        code: "SECOND_FACTOR_EXISTS", detail: "Phone number already enrolled as second factor for this account.")
    package static let secondFactorLimitExceeded = AuthError(code: "SECOND_FACTOR_LIMIT_EXCEEDED")
    package static let unverifiedEmail = AuthError(code: "UNVERIFIED_EMAIL", detail: "Need to verify email first before enrolling second factors.")
    /// MFA sign-in after a first factor that cannot be followed by one (the existing ``unsupportedFirstFactor`` is
    /// the other direction: a phone first factor on an SMS MFA user).
    package static let mfaUnsupportedFirstFactor = AuthError(
        code: "UNSUPPORTED_FIRST_FACTOR", detail: "MFA is not available for the given first factor.")
    package static let smsMFANotEnabled = AuthError(code: "OPERATION_NOT_ALLOWED", detail: "SMS based MFA not enabled.")
    package static let totpMFANotEnabled = AuthError(code: "OPERATION_NOT_ALLOWED", detail: "TOTP based MFA not enabled.")
    /// A finalize call without `mfaPendingCredential` (the one Firebase answers with `MISSING_CREDENTIAL`).
    package static let missingMFACredential = AuthError(code: "MISSING_CREDENTIAL", detail: "Please set MFA Pending Credential.")
    package static let mfaProviderNotSupported = AuthError(code: "INVALID_ARGUMENT", detail: "MFA provider not supported!")
    package static let missingPhoneEnrollmentInfo = AuthError(code: "INVALID_ARGUMENT", detail: "((Missing phoneEnrollmentInfo.))")
    package static let missingPhoneVerificationInfo = AuthError(code: "INVALID_ARGUMENT", detail: "((Missing phoneVerificationInfo.))")

    // MARK: Federated sign-in and the identity-provider resources
    /// A provider's credential that does not verify, with what was wrong.
    package static func invalidIdpResponse(_ detail: String) -> AuthError {
        AuthError(code: "INVALID_IDP_RESPONSE", detail: detail)
    }
    /// `signInWithIdp` without `requestUri`.
    package static let missingRequestURI = AuthError(code: "MISSING_REQUEST_URI")
    /// `signInWithIdp` with neither `postBody` nor `pendingToken`… or a `postBody` without a credential.
    package static let invalidCredentialOrProviderID = AuthError(code: "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    /// A `pendingToken` that is not one of ours, has expired, or names another provider.
    package static let invalidPendingToken = AuthError(code: "INVALID_PENDING_TOKEN")
    /// A provider resource that does not exist.
    package static let idpConfigNotFound = AuthError(status: .notFound, code: "CONFIGURATION_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")
    /// Creating a provider resource that exists already.
    package static let idpConfigExists = AuthError(status: .conflict, code: "CONFIGURATION_EXISTS", reason: "conflict", rpcStatus: "ALREADY_EXISTS")
    /// A SAML provider resource without its relying party (`spConfig.spEntityId`).
    package static let missingSAMLRelyingPartyConfig = AuthError(code: "MISSING_SAML_RELYING_PARTY_CONFIG", rpcStatus: "INVALID_ARGUMENT")
    /// The provider's keys could not be fetched.
    package static let idpKeysUnavailable = AuthError(
        code: "INVALID_IDP_RESPONSE", detail: "The identity provider's public keys could not be fetched.")

    // MARK: App verification
    // The codes FirebaseAuth maps (`missingAppCredential`, `invalidAppCredential`, `missingAppToken`, `captchaCheckFailed`).
    /// No proof came with a code request for a real number while the project enforces app verification.
    package static let missingAppCredential = AuthError(
        code: "MISSING_APP_CREDENTIAL",
        detail: "App verification is required: send iosReceipt and iosSecret (from verifyClient and its push) or a recaptchaToken.")
    /// A receipt and secret that do not match, are expired, used up, or for another project.
    package static let invalidAppCredential = AuthError(code: "INVALID_APP_CREDENTIAL")
    /// `verifyClient` without `appToken`.
    package static let missingAppToken = AuthError(code: "MISSING_IOS_APP_TOKEN")
    /// A `recaptchaToken` that is not one of Flint's, expired, already used, or for another project. FirebaseAuth
    /// maps this code (not `INVALID_RECAPTCHA_TOKEN`, which it reports as an internal error).
    package static let captchaCheckFailed = AuthError(code: "CAPTCHA_CHECK_FAILED")
    /// `recaptchaConfig` without `clientType`.
    package static let missingClientType = AuthError(code: "MISSING_CLIENT_TYPE")
    /// `recaptchaConfig` without `version`.
    package static let missingRecaptchaVersion = AuthError(code: "MISSING_RECAPTCHA_VERSION")

    // MARK: Passkeys
    /// A passkey response (`authenticatorRegistrationResponse` / `authenticatorAuthenticationResponse`) that fails
    /// verification. Identity Platform does not document its passkey error strings; Flint uses this one code with a
    /// detail naming the failed check.
    package static let invalidAuthenticatorResponse = AuthError(code: "INVALID_AUTHENTICATOR_RESPONSE")
    /// `passkeySignIn:finalize` with a credential no account holds.
    package static let passkeyNotFound = AuthError(code: "PASSKEY_ENROLLMENT_NOT_FOUND")
    /// `passkeyEnrollment:finalize` with a credential already enrolled (on this or another account).
    package static let passkeyExists = AuthError(code: "PASSKEY_ENROLLMENT_EXISTS")
    /// The challenge is not one Flint issued, was used already, or expired.
    package static let invalidPasskeyChallenge = AuthError(code: "INVALID_AUTHENTICATOR_RESPONSE", detail: "Invalid or expired challenge.")
    /// A missing `authenticatorRegistrationResponse` / `authenticatorAuthenticationResponse`.
    package static let missingAuthenticatorResponse = AuthError(code: "MISSING_AUTHENTICATOR_RESPONSE")

    // MARK: Password import
    // What `accounts:batchCreate` answers for hash parameters it refuses (HTTP 400). `INVALID_HASH_ROUNDS` (rounds out
    // of range) and `INVALID_HASH_PARAMETER` (a `STANDARD_SCRYPT` parameter missing or wrong) are the strings Firebase
    // has been seen to answer. The others follow the names of the Admin SDKs' error codes (`auth/invalid-hash-algorithm`,
    // ...) and a third-party recording of production (`EMPTY_HASH_KEY`); Firebase does not document them.
    /// No `hashAlgorithm` while users carry a `passwordHash`.
    package static let missingHashAlgorithm = AuthError(code: "MISSING_HASH_ALGORITHM")
    /// A `hashAlgorithm` that is not one of Firebase's.
    package static let invalidHashAlgorithm = AuthError(code: "INVALID_HASH_ALGORITHM")
    /// `rounds` outside the algorithm's range.
    package static let invalidHashRounds = AuthError(code: "INVALID_HASH_ROUNDS")
    /// A `SCRYPT` `memoryCost` outside 1...14.
    package static let invalidHashMemoryCost = AuthError(code: "INVALID_HASH_MEMORY_COST")
    /// No `signerKey` (or an empty one) for `SCRYPT` or an `HMAC_*` algorithm.
    package static let emptyHashKey = AuthError(code: "EMPTY_HASH_KEY")
    /// A `STANDARD_SCRYPT` parameter missing or out of range.
    package static let invalidHashParameter = AuthError(code: "INVALID_HASH_PARAMETER")

    // MARK: `flint admin-bridge` (its own answers; every other answer is the upstream Flint's, passed on unchanged)
    /// A dev-mode-only `/emulator/...` route: a production Flint has none, so the bridge does not forward it.
    package static let emulatorOnlyRoute = AuthError(
        status: .notFound, code: "EMULATOR_ONLY_ROUTE",
        detail: "flint admin-bridge forwards the API's paths only; /emulator/ routes exist in a dev-mode Flint alone and production has none",
        reason: "notFound", rpcStatus: "NOT_FOUND")
    /// The upstream Flint could not be reached, its TLS certificate did not verify, or the exchange broke off.
    package static let upstreamUnavailable = AuthError(
        status: .badGateway, code: "UPSTREAM_UNAVAILABLE", reason: "backendError", rpcStatus: "UNAVAILABLE")
    /// The upstream Flint did not answer within the bridge's `--timeout`.
    package static let upstreamTimeout = AuthError(
        status: .gatewayTimeout, code: "UPSTREAM_TIMEOUT", reason: "backendError", rpcStatus: "DEADLINE_EXCEEDED")

    // MARK: Password policy
    /// A password that falls short of an enforced policy; the detail lists the unmet requirements as Firebase does.
    package static func passwordDoesNotMeetRequirements(_ missing: [PasswordPolicy.Requirement]) -> AuthError {
        unmetPasswordRequirements(missing.map(\.message))
    }

    /// A new password found in the project's breached-password corpus (`flint.breachedPasswords`): the policy's
    /// error, its detail naming that requirement in the same form.
    package static let breachedPassword = unmetPasswordRequirements(["Password must not appear in a known data breach"])

    /// A new password that could not be looked up in the breached-password corpus while the project refuses a
    /// password it cannot check (`whenUnavailable: REFUSE`).
    package static let breachCheckUnavailable = AuthError(
        status: .serviceUnavailable, code: "UNAVAILABLE",
        detail: "The password could not be checked against known data breaches; try again shortly.", reason: "backendError",
        rpcStatus: "UNAVAILABLE")

    /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` listing these sentences, as Firebase lists a policy's unmet requirements.
    private static func unmetPasswordRequirements(_ sentences: [String]) -> AuthError {
        AuthError(code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS", detail: "Missing password requirements: [\(sentences.joined(separator: ", "))]")
    }

    // MARK: Federated sign-in: linking, revocation and redirects
    /// The account has no identity of the provider.
    package static let noSuchProvider = AuthError(code: "NO_SUCH_PROVIDER")
    /// A `requestUri` carrying a hosted-handler sign-in that is not this node's handler.
    package static let invalidRequestURI = AuthError(code: "INVALID_REQUEST_URI")
    /// Linking a second identity of one provider to an account.
    package static let providerAlreadyLinked = AuthError(code: "PROVIDER_ALREADY_LINKED")
    /// A nonce-bound credential presented again.
    package static let duplicateCredential = AuthError(
        code: "MISSING_OR_INVALID_NONCE", detail: "Duplicate credential received. Please try again with a new credential.")

    // MARK: Blocking functions
    /// A `blockingFunctions` config Identity Platform refuses (its reason in double parentheses).
    package static let invalidBlockingFunction = AuthError(code: "INVALID_BLOCKING_FUNCTION")
    /// A blocking function refused the operation: its answer follows in the detail, whose embedded JSON's
    /// `error.message` the SDKs show.
    package static let blockingFunctionRefused = AuthError(code: "BLOCKING_FUNCTION_ERROR_RESPONSE")
    /// A blocking function could not be reached in time or answered something unusable: the operation does not
    /// happen.
    package static let blockingFunctionFailed = AuthError(
        status: .internalServerError, code: "BLOCKING_FUNCTION_ERROR_RESPONSE", reason: "backendError", rpcStatus: "INTERNAL")

    // MARK: Tenants (`v2/projects/{p}/tenants` and the `tenantId` a request names)
    /// No tenant has the ID a request names.
    package static let tenantNotFound = AuthError(code: "TENANT_NOT_FOUND")
    /// A tenant ID that cannot name a tenant (not 1 to 64 letters, digits and hyphens).
    package static let invalidTenantID = AuthError(code: "INVALID_TENANT_ID")
    /// A tenant path under another project than the node's.
    package static let invalidProjectID = AuthError(code: "INVALID_PROJECT_ID")
    /// Creating a tenant without `displayName`.
    package static let missingDisplayName = AuthError(code: "MISSING_DISPLAY_NAME")
    /// A tenant `displayName` that is not 4 to 20 letters, digits and hyphens starting with a letter.
    package static let invalidDisplayName = AuthError(
        code: "INVALID_DISPLAY_NAME", detail: "((Display name must start with a letter and have 4-20 letters, digits and hyphens.))")
    /// A `pageToken` no listing gave.
    package static let invalidPageSelection = AuthError(code: "INVALID_PAGE_SELECTION")
    /// A call a tenant cannot make (Firebase: phone sign-in, `getProjectConfig`), and every call this server does not
    /// serve in a tenant yet: none is ever answered from another tenant's users.
    package static let unsupportedTenantOperation = AuthError(code: "UNSUPPORTED_TENANT_OPERATION")
    /// A call in a tenant whose `disableAuth` is on.
    package static let projectDisabled = AuthError(code: "PROJECT_DISABLED")
}

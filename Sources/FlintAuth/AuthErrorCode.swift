import Foundation

/// FirebaseAuth's error codes, with the same raw values. Errors thrown by the SDK are `NSError`s in
/// `AuthErrors.domain` whose `code` is one of these raw values.
public enum AuthErrorCode: Int, Error, Sendable, CaseIterable {
    case invalidCustomToken = 17000
    case customTokenMismatch = 17002
    case invalidCredential = 17004
    case userDisabled = 17005
    case operationNotAllowed = 17006
    case emailAlreadyInUse = 17007
    case invalidEmail = 17008
    case wrongPassword = 17009
    case tooManyRequests = 17010
    case userNotFound = 17011
    case accountExistsWithDifferentCredential = 17012
    case requiresRecentLogin = 17014
    case providerAlreadyLinked = 17015
    case noSuchProvider = 17016
    case invalidUserToken = 17017
    case networkError = 17020
    case userTokenExpired = 17021
    case invalidAPIKey = 17023
    case userMismatch = 17024
    case credentialAlreadyInUse = 17025
    case weakPassword = 17026
    case appNotAuthorized = 17028
    case expiredActionCode = 17029
    case invalidActionCode = 17030
    case invalidMessagePayload = 17031
    case invalidSender = 17032
    case invalidRecipientEmail = 17033
    case missingEmail = 17034
    case missingIosBundleID = 17036
    case missingAndroidPackageName = 17037
    case unauthorizedDomain = 17038
    case invalidContinueURI = 17039
    case missingContinueURI = 17040
    case missingPhoneNumber = 17041
    case invalidPhoneNumber = 17042
    case missingVerificationCode = 17043
    case invalidVerificationCode = 17044
    case missingVerificationID = 17045
    case invalidVerificationID = 17046
    case missingAppCredential = 17047
    case invalidAppCredential = 17048
    case sessionExpired = 17051
    case quotaExceeded = 17052
    case missingAppToken = 17053
    case appNotVerified = 17055
    case notificationNotForwarded = 17054
    case captchaCheckFailed = 17056
    case webContextAlreadyPresented = 17057
    case webContextCancelled = 17058
    case appVerificationUserInteractionFailure = 17059
    case invalidClientID = 17060
    case webNetworkRequestFailed = 17061
    case webInternalError = 17062
    case webSignInUserInteractionFailure = 17063
    case localPlayerNotAuthenticated = 17066
    case nullUser = 17067
    case invalidProviderID = 17071
    case tenantIDMismatch = 17072
    case unsupportedTenantOperation = 17073
    case rejectedCredential = 17075
    case gameKitNotLinked = 17076
    case secondFactorRequired = 17078
    case missingMultiFactorSession = 17081
    case missingMultiFactorInfo = 17082
    case invalidMultiFactorSession = 17083
    case multiFactorInfoNotFound = 17084
    case adminRestrictedOperation = 17085
    case unverifiedEmail = 17086
    case secondFactorAlreadyEnrolled = 17087
    case maximumSecondFactorCountExceeded = 17088
    case unsupportedFirstFactor = 17089
    case emailChangeNeedsVerification = 17090
    case missingClientIdentifier = 17093
    case missingOrInvalidNonce = 17094
    case blockingCloudFunctionError = 17105
    case recaptchaNotEnabled = 17200
    case missingRecaptchaToken = 17201
    case invalidRecaptchaToken = 17202
    case invalidRecaptchaAction = 17203
    case missingClientType = 17204
    case missingRecaptchaVersion = 17205
    case invalidRecaptchaVersion = 17206
    case invalidReqType = 17207
    case recaptchaSDKNotLinked = 17208
    case recaptchaSiteKeyMissing = 17209
    case recaptchaActionCreationFailed = 17210
    case passwordDoesNotMeetRequirements = 17211
    /// No passkey of the account has this credential ID (`PASSKEY_ENROLLMENT_NOT_FOUND`), as FirebaseAuth's passkey
    /// API numbers it.
    case missingPasskeyEnrollment = 17212
    /// The authenticator's answer to a passkey enrolment or sign-in is malformed or fails verification
    /// (`INVALID_AUTHENTICATOR_RESPONSE`). FirebaseAuth's passkey API gives it 17211, which its released SDK uses for
    /// `passwordDoesNotMeetRequirements`; Flint takes the free 17213.
    case invalidAuthenticatorResponse = 17213
    case invalidHostingLinkDomain = 17214
    case keychainError = 17995
    case internalError = 17999
    case malformedJWT = 18000

    /// The code itself, as FirebaseAuth's `AuthErrorCode.code`.
    public var code: Self { self }
}

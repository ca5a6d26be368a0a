/// `accounts:sendOobCode` (`GetOOBConfirmationCodeRequest`): `email` for `EMAIL_SIGNIN` and `PASSWORD_RESET`,
/// `idToken` for `VERIFY_EMAIL`, `idToken` and `newEmail` for `VERIFY_AND_CHANGE_EMAIL`.
struct SendOobCodeRequest: Encodable {
    var requestType: String
    var email: String?
    var newEmail: String?
    var idToken: String?
    var continueUrl: String?
    var iOSBundleId: String?
    var androidPackageName: String?
    var androidMinimumVersion: String?
    var androidInstallApp: Bool?
    var canHandleCodeInApp: Bool?
    var linkDomain: String?
    var dynamicLinkDomain: String?
    var clientType = "CLIENT_TYPE_IOS"
}

/// The answer of `accounts:sendOobCode`.
struct SendOobCodeResponse: Decodable {
    var email: String?
}

/// `accounts:createAuthUri`, which lists an email's sign-in methods.
struct CreateAuthURIRequest: Encodable {
    var identifier: String
    /// FirebaseAuth always sends this placeholder.
    var continueUri = "http://www.google.com/"
}

/// The answer of `accounts:createAuthUri`.
struct CreateAuthURIResponse: Decodable {
    var signinMethods: [String]?
}

/// `accounts:update` (FirebaseAuth's `SetAccountInfoRequest`): with `idToken`, changes the signed-in account (profile,
/// email, password, unlinking); with only `oobCode`, applies an emailed action code.
struct SetAccountInfoRequest: Encodable {
    var idToken: String?
    var oobCode: String?
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var deleteAttribute: [String]?
    var deleteProvider: [String]?
    /// Credential IDs of passkeys to withdraw (FirebaseAuth's `deletePasskeys`, sent as `deletePasskey`).
    var deletePasskey: [String]?
    var returnSecureToken = true
}

/// `accounts:resetPassword` (`ResetPasswordRequest`): with only `oobCode`, tells what a code is for without using
/// it; with `newPassword`, uses a password-reset code.
struct ResetPasswordRequest: Encodable {
    var oobCode: String
    var newPassword: String?
}

/// The answer of `accounts:resetPassword`.
struct ResetPasswordResponse: Decodable {
    var email: String?
    var newEmail: String?
    var requestType: String?
}

/// `accounts:signUp` (FirebaseAuth's `SignUpNewUserRequest`): a new email and password account, or a password
/// linked to the account of `idToken`.
struct SignUpRequest: Encodable {
    var email: String?
    var password: String?
    var idToken: String?
    var returnSecureToken = true
}

/// `accounts:signInWithPassword` (`VerifyPasswordRequest`).
struct SignInWithPasswordRequest: Encodable {
    var email: String
    var password: String
    var returnSecureToken = true
}

/// `accounts:signInWithEmailLink` (`EmailLinkSignInRequest`): with `idToken`, links the email to that account or
/// re-authenticates it.
struct SignInWithEmailLinkRequest: Encodable {
    var email: String
    var oobCode: String
    var idToken: String?
}

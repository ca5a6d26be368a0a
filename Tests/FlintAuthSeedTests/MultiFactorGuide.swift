import FlintAuth
import Foundation

/// The Swift of the SMS multi-factor guide (seed 002), with `import FirebaseAuth` replaced by `import FlintAuth` and
/// the view controller replaced by a ``GuideViewController``. The variables the guide leaves to the app
/// (`phoneNumber`, the codes the person types, `selectedIndex`) are properties. Other adaptations are marked
/// `Adapted:`.
@MainActor
final class MultiFactorGuide: GuideViewController {
    let app: AppStandIn
    let email: String
    let password: String
    /// The number to enrol; the test uses a fictional number, whose code is fixed.
    let phoneNumber: String
    let phoneSecondFactorVerificationCode: String
    let displayName = "Work phone"
    var verificationCodeFromUser: String { phoneSecondFactorVerificationCode }
    let selectedIndex = 0

    init(app: AppStandIn, email: String, password: String, phoneNumber: String, code: String) {
        self.app = app
        self.email = email
        self.password = password
        self.phoneNumber = phoneNumber
        self.phoneSecondFactorVerificationCode = code
    }

    /// "Enrolling a second factor", steps 3 to 7, one by one.
    func enrollStepByStep(authResult: AuthDataResult) {
        authResult.user.multiFactor.getSessionWithCompletion() { (session, error) in
            // ...
            // Adapted: the next step, run here so the test can follow it.
            self.sendCode(session: session, user: authResult.user)
        }
    }

    private func sendCode(session: MultiFactorSession?, user: User) {
        // Send SMS verification code.
        PhoneAuthProvider.provider().verifyPhoneNumber(
            phoneNumber,
            uiDelegate: nil,
            multiFactorSession: session
        ) { (verificationId, error) in
            // verificationId will be needed for enrollment completion.
            // Adapted: the next steps, with the guide's `verificationId!` unwrapped once here.
            guard let verificationId else { return self.app.record("error: \(error?.localizedDescription ?? "")") }
            self.completeEnrollment(verificationId: verificationId, verificationCode: self.phoneSecondFactorVerificationCode, user: user)
        }
    }

    private func completeEnrollment(verificationId: String, verificationCode: String, user: User) {
        // Ask user for the verification code. Then:
        let credential = PhoneAuthProvider.provider().credential(
            withVerificationID: verificationId,
            verificationCode: verificationCode)
        let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
        // Complete enrollment. This will update the underlying tokens
        // and trigger ID token change listener.
        user.multiFactor.enroll(with: assertion, displayName: displayName) { (error) in
            // ...
            // Adapted: tell the test.
            self.app.record(error == nil ? "enrolled" : "error: \(error!.localizedDescription)")
        }
    }

    /// "The code below shows a complete example of enrolling a second factor."
    func enrollCompleteExample() {
        let user = Auth.auth().currentUser
        user?.multiFactor.getSessionWithCompletion({ (session, error) in
            // Send SMS verification code.
            PhoneAuthProvider.provider().verifyPhoneNumber(
                self.phoneNumber,
                uiDelegate: nil,
                multiFactorSession: session
            ) { (verificationId, error) in
                // verificationId will be needed for enrollment completion.
                // Ask user for the verification code.
                let credential = PhoneAuthProvider.provider().credential(
                    withVerificationID: verificationId!,
                    verificationCode: self.phoneSecondFactorVerificationCode)
                let assertion = PhoneMultiFactorGenerator.assertion(with: credential)
                // Complete enrollment. This will update the underlying tokens
                // and trigger ID token change listener.
                user?.multiFactor.enroll(with: assertion, displayName: self.displayName) { (error) in
                    // ...
                    // Adapted: tell the test.
                    self.app.record(error == nil ? "enrolled" : "error: \(error!.localizedDescription)")
                }
            }
        })
    }

    /// "Signing users in with a second factor", steps 1 and 2: the first factor, then the choice of factor.
    func signInFirstFactor() {
        Auth.auth().signIn(
            withEmail: email,
            password: password
        ) { (result, error) in
            // Adapted: the guide writes `error as NSError`, which does not compile for an optional error.
            let authError = error as NSError?
            if authError?.code == AuthErrorCode.secondFactorRequired.rawValue {
                // The user is a multi-factor user. Second factor challenge is required.
                let resolver =
                    authError!.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as! MultiFactorResolver
                // ...
                // Ask user which second factor to use. Then:
                if resolver.hints[self.selectedIndex].factorID == PhoneMultiFactorID {
                    // User selected a phone second factor.
                    // ...
                    self.app.record("phone factor selected")
                } else if resolver.hints[self.selectedIndex].factorID == TotpMultiFactorID {
                    // User selected a TOTP second factor.
                    // ...
                    self.app.record("totp factor selected")
                } else {
                    // Unsupported second factor.
                }
            } else {
                // Handle other errors such as wrong password.
                self.app.record(error == nil ? "signed in without a second factor" : "error: \(error!.localizedDescription)")
            }
        }
    }

    /// "The code below shows a complete example of signing in a multi-factor user."
    func signInCompleteExample() {
        Auth.auth().signIn(
            withEmail: email,
            password: password
        ) { (result, error) in
            let authError = error as NSError?
            if authError?.code == AuthErrorCode.secondFactorRequired.rawValue {
                let resolver =
                    authError!.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as! MultiFactorResolver

                // Ask user which second factor to use.
                // ...

                // Then:
                let hint = resolver.hints[self.selectedIndex] as! PhoneMultiFactorInfo

                // Send SMS verification code
                PhoneAuthProvider.provider().verifyPhoneNumber(
                    with: hint,
                    uiDelegate: nil,
                    multiFactorSession: resolver.session
                ) { (verificationId, error) in
                    if error != nil {
                        // Failed to verify phone number.
                    }
                    // Ask user for the SMS verification code.
                    // ...

                    // Then:
                    let credential = PhoneAuthProvider.provider().credential(
                        withVerificationID: verificationId!,
                        verificationCode: self.verificationCodeFromUser)
                    let assertion = PhoneMultiFactorGenerator.assertion(with: credential)

                    // Complete sign-in.
                    resolver.resolveSignIn(with: assertion) { (authResult, error) in
                        if error != nil {
                            // User successfully signed in with the second factor phone number.
                        }
                        // Adapted: tell the test (the guide's comment above sits in the error branch).
                        self.app.record(error == nil ? "signed in \(authResult?.user.uid ?? "")" : "error: \(error!.localizedDescription)")
                    }
                }
            }
        }
    }
}

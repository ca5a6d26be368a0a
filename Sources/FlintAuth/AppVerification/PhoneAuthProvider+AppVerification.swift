import Foundation

/// App verification before a code is sent (FirebaseAuth's order: test mode, `recaptchaConfig`, silent push, web
/// challenge).
extension PhoneAuthProvider {
    /// The proof to send with a code request (`sendVerificationCode`, `mfaEnrollment:start`, `mfaSignIn:start`), or
    /// `nil` when `auth.settings.isAppVerificationDisabledForTesting` (the server then accepts fictional numbers only).
    ///
    /// Reads `GET v2/recaptchaConfig`; with phone reCAPTCHA Enterprise off (always on Flint), uses the stored
    /// receipt and secret, else asks `verifyClient` for a receipt and waits for its silent push
    /// (`Auth.canHandleNotification(_:)`), else opens the web challenge through `uiDelegate` and waits for its
    /// callback (`Auth.canHandle(_:)`). Where nothing can show the challenge (no `uiDelegate` outside UIKit: a
    /// command-line tool, a server) the answer is `nil` too: the request goes without proof, which a server that does
    /// not enforce app verification accepts and one that does refuses with `missingAppCredential`.
    /// - Throws: `recaptchaSDKNotLinked` when the server enforces reCAPTCHA Enterprise (FlintAuth has no
    ///   reCAPTCHA SDK), `appVerificationUserInteractionFailure` when the challenge brought no token, `webContextCancelled`, the callback's `firebaseError`, or the RPCs' errors.
    func appVerificationProof(uiDelegate: (any AuthUIDelegate)?) async throws -> AppVerificationProof? {
        if auth.settings?.isAppVerificationDisabledForTesting == true { return nil }
        let config = try await auth.backend.recaptchaConfig()
        guard config.phoneEnforcement == "OFF" else {
            throw AuthErrorCode.recaptchaSDKNotLinked.error(
                detail: "The server enforces reCAPTCHA Enterprise for phone sign-in (\(config.phoneEnforcement)); FlintAuth has no reCAPTCHA SDK.")
        }
        if let credential = try await auth.appVerifier.pushCredential(backend: auth.backend) { return .credential(credential) }
        guard AppVerificationPresenter(delegate: uiDelegate).canPresent else { return nil }
        return .token(try await webChallengeToken(uiDelegate: uiDelegate))
    }

    /// Runs `send` with a proof. When the server refuses a stored receipt (`invalidAppCredential`), the credential
    /// is forgotten and `send` runs once more with a fresh proof, as FirebaseAuth does.
    func withAppVerification<T>(uiDelegate: (any AuthUIDelegate)?, _ send: (AppVerificationProof?) async throws -> T) async throws -> T {
        let proof = try await appVerificationProof(uiDelegate: uiDelegate)
        do {
            return try await send(proof)
        } catch let error as NSError where error.domain == AuthErrors.domain && error.code == AuthErrorCode.invalidAppCredential.rawValue {
            guard proof?.iosReceipt != nil else { throw error }
            auth.appVerifier.clearCredential()
            return try await send(try await appVerificationProof(uiDelegate: uiDelegate))
        }
    }

    /// Opens the web challenge and returns the token its callback brought.
    func webChallengeToken(uiDelegate: (any AuthUIDelegate)?) async throws -> String {
        let presenter = AppVerificationPresenter(delegate: uiDelegate)
        let options = auth.flintApp.options
        let client = try AppVerifier.callbackClient(options: options)
        let eventID = AppVerifier.newEventID()
        guard
            let url = AppVerifier.challengeURL(
                root: try await auth.authDomainRoot(), apiKey: options.apiKey, bundleID: options.bundleID ?? Bundle.main.bundleIdentifier ?? "",
                eventID: eventID, client: client.item, language: auth.languageCode)
        else { throw AuthErrorCode.internalError.error(detail: "The app verification URL could not be built.") }
        let verifier = auth.appVerifier
        let callback: URL
        do {
            callback = try await verifier.awaitCallback(eventID: eventID, scheme: client.scheme) { id in
                await presenter.present(url, onClose: { verifier.cancelPresentation(id: id) })
            }
        } catch {
            await presenter.dismiss()  // replaced by a newer challenge, or cancelled: nothing stays on screen
            throw error
        }
        await presenter.dismiss()
        return try AppVerifier.callbackResult(callback).get()
    }
}

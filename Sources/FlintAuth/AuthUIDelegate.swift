public import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
    public import UIKit

    /// What presents app verification's web challenge and a provider's web sign-in (`OAuthProvider.getCredentialWith`),
    /// as FirebaseAuth's `AuthUIDelegate`: FlintAuth opens the page in an `SFSafariViewController` and hands it to
    /// `present(_:animated:completion:)`, and calls
    /// `dismiss(animated:completion:)` once the app's URL scheme brought the answer back (`Auth.canHandle(_:)`).
    /// A `UIViewController` conforms as is (`extension MyViewController: AuthUIDelegate {}`). Passing `nil` presents
    /// from the key window's top-most view controller.
    @MainActor
    public protocol AuthUIDelegate: AnyObject, Sendable {
        /// Presents the challenge's view controller.
        func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)?)
        /// Dismisses what `present` showed.
        func dismiss(animated flag: Bool, completion: (() -> Void)?)
    }
#else
    /// What presents app verification's web challenge, and a provider's web sign-in (`OAuthProvider.getCredentialWith`),
    /// where there is no UIKit (macOS, Linux): FlintAuth hands the page's URL to ``presentAppVerification(_:)``; the
    /// conforming type opens it (a browser, a web view, or a test's HTTP client). The page ends by opening the app's
    /// URL scheme, which the app passes to
    /// `Auth.canHandle(_:)`; FlintAuth then calls ``dismissAppVerification()``. Passing `nil` to
    /// `verifyPhoneNumber` is fine whenever no challenge is needed (test mode, or a silent push arrived). Its
    /// methods run on the main actor, so an `NSViewController` (or any main-actor type) conforms as is.
    @MainActor
    public protocol AuthUIDelegate: AnyObject, Sendable {
        /// Opens `url`: the web challenge (`https://<auth domain>/__/auth/handler?authType=verifyApp…`) or a
        /// provider's sign-in (`…/__/auth/handler?authType=signInWithRedirect…`).
        func presentAppVerification(_ url: URL)
        /// Closes what ``presentAppVerification(_:)`` opened.
        func dismissAppVerification()
    }
#endif

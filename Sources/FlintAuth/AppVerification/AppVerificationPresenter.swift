import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
    import UIKit
#endif
#if canImport(SafariServices) && (os(iOS) || os(visionOS))
    import SafariServices
#endif

/// Shows and hides the web challenge through the app's `AuthUIDelegate`.
struct AppVerificationPresenter: Sendable {
    let delegate: (any AuthUIDelegate)?

    #if canImport(SafariServices) && (os(iOS) || os(visionOS))
        /// Whether the challenge can be shown: always on UIKit (without a delegate the key window presents it).
        var canPresent: Bool { true }

        /// Opens `url` in an `SFSafariViewController`; `onClose` runs if the user closes it.
        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {
            await MainActor.run {
                let safari = SFSafariViewController(url: url)
                let observer = SafariCloseObserver(onClose: onClose)
                observer.safari = safari
                safari.delegate = observer
                SafariCloseObserver.current = observer
                if let delegate {
                    delegate.present(safari, animated: true, completion: nil)
                } else {
                    Self.topViewController()?.present(safari, animated: true, completion: nil)
                }
            }
        }

        /// Hides what `present` showed, if it is still on screen (the user may have closed it, and nothing else may
        /// be dismissed in its place).
        func dismiss() async {
            await MainActor.run {
                let safari = SafariCloseObserver.current?.safari
                SafariCloseObserver.current = nil
                guard let safari, let presenting = safari.presentingViewController else { return }
                if let delegate {
                    delegate.dismiss(animated: true, completion: nil)
                } else {
                    presenting.dismiss(animated: true, completion: nil)
                }
            }
        }

        /// Hands the notification-forwarding probe to the app delegate, as a silent push would arrive.
        @MainActor static func deliverProbeToAppDelegate() {
            guard let application = sharedApplication() else { return }
            application.delegate?.application?(
                application, didReceiveRemoteNotification: AppVerifier.probeNotification(), fetchCompletionHandler: { _ in })
        }

        @MainActor private static func topViewController() -> UIViewController? {
            let scenes = sharedApplication()?.connectedScenes.compactMap { $0 as? UIWindowScene } ?? []
            let windows = scenes.flatMap { $0.windows }
            var top = (windows.first { $0.isKeyWindow } ?? windows.first)?.rootViewController
            while let presented = top?.presentedViewController { top = presented }
            return top
        }
    #elseif os(iOS) || os(tvOS) || os(visionOS)
        /// Whether the challenge can be shown: never on this UIKit platform (no Safari view).
        var canPresent: Bool { false }

        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {}

        func dismiss() async {}
    #else
        /// Whether the challenge can be shown: only through a delegate, which opens the page.
        var canPresent: Bool { delegate != nil }

        /// Hands `url` to the delegate to open (on the main actor).
        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {
            guard let delegate else { return }
            await MainActor.run { delegate.presentAppVerification(url) }
        }

        /// Tells the delegate to close the challenge (on the main actor).
        func dismiss() async {
            guard let delegate else { return }
            await MainActor.run { delegate.dismissAppVerification() }
        }
    #endif
}

#if os(iOS) || os(tvOS) || os(visionOS)
    extension AppVerificationPresenter {
        /// The app's `UIApplication`, found at run time: `UIApplication.shared` may not be named in code that app
        /// extensions link (FirebaseAuth looks it up the same way); `nil` inside an extension.
        @MainActor static func sharedApplication() -> UIApplication? {
            guard !Bundle.main.bundlePath.hasSuffix(".appex") else { return nil }
            let selector = NSSelectorFromString("sharedApplication")
            guard UIApplication.responds(to: selector), let application = UIApplication.perform(selector) else { return nil }
            return application.takeUnretainedValue() as? UIApplication
        }
    }
#endif

#if canImport(SafariServices) && (os(iOS) || os(visionOS))
    /// Turns the user closing Safari into `webContextCancelled`; kept alive while the challenge is shown.
    @MainActor
    final class SafariCloseObserver: NSObject, SFSafariViewControllerDelegate {
        static var current: SafariCloseObserver?
        let onClose: @Sendable () -> Void
        /// The Safari view showing the challenge, while it exists.
        weak var safari: SFSafariViewController?

        init(onClose: @escaping @Sendable () -> Void) {
            self.onClose = onClose
        }

        nonisolated func safariViewControllerDidFinish(_ controller: SFSafariViewController) {
            onClose()
        }
    }
#endif

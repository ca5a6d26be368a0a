import Foundation

#if canImport(UIKit)
    import UIKit
#endif
#if canImport(SafariServices) && canImport(UIKit)
    import SafariServices
#endif

/// Shows and hides the web challenge through the app's `AuthUIDelegate`.
struct AppVerificationPresenter: Sendable {
    let delegate: (any AuthUIDelegate)?

    #if canImport(SafariServices) && canImport(UIKit) && !os(tvOS) && !os(watchOS)
        /// Whether the challenge can be shown: always on UIKit (without a delegate the key window presents it).
        var canPresent: Bool { true }

        /// Opens `url` in an `SFSafariViewController`; `onClose` runs if the user closes it.
        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {
            await MainActor.run {
                let safari = SFSafariViewController(url: url)
                let observer = SafariCloseObserver(onClose: onClose)
                safari.delegate = observer
                SafariCloseObserver.current = observer
                if let delegate {
                    delegate.present(safari, animated: true, completion: nil)
                } else {
                    Self.topViewController()?.present(safari, animated: true, completion: nil)
                }
            }
        }

        /// Hides what `present` showed.
        func dismiss() async {
            await MainActor.run {
                SafariCloseObserver.current = nil
                if let delegate {
                    delegate.dismiss(animated: true, completion: nil)
                } else {
                    Self.topViewController()?.presentingViewController?.dismiss(animated: true, completion: nil)
                }
            }
        }

        /// Hands the notification-forwarding probe to the app delegate, as a silent push would arrive.
        @MainActor static func deliverProbeToAppDelegate() {
            let application = UIApplication.shared
            application.delegate?.application?(
                application, didReceiveRemoteNotification: AppVerifier.probeNotification(), fetchCompletionHandler: { _ in })
        }

        @MainActor private static func topViewController() -> UIViewController? {
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            let windows = scenes.flatMap(\.windows)
            var top = (windows.first { $0.isKeyWindow } ?? windows.first)?.rootViewController
            while let presented = top?.presentedViewController { top = presented }
            return top
        }
    #elseif canImport(UIKit)
        /// Whether the challenge can be shown: never on this UIKit platform (no Safari view).
        var canPresent: Bool { false }

        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {}

        func dismiss() async {}
    #else
        /// Whether the challenge can be shown: only through a delegate, which opens the page.
        var canPresent: Bool { delegate != nil }

        /// Hands `url` to the delegate to open.
        func present(_ url: URL, onClose: @escaping @Sendable () -> Void) async {
            delegate?.presentAppVerification(url)
        }

        /// Tells the delegate to close the challenge.
        func dismiss() async {
            delegate?.dismissAppVerification()
        }
    #endif
}

#if canImport(SafariServices) && canImport(UIKit) && !os(tvOS) && !os(watchOS)
    /// Turns the user closing Safari into `webContextCancelled`; kept alive while the challenge is shown.
    @MainActor
    final class SafariCloseObserver: NSObject, SFSafariViewControllerDelegate {
        static var current: SafariCloseObserver?
        let onClose: @Sendable () -> Void

        init(onClose: @escaping @Sendable () -> Void) {
            self.onClose = onClose
        }

        nonisolated func safariViewControllerDidFinish(_ controller: SFSafariViewController) {
            onClose()
        }
    }
#endif

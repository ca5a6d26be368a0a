public import Foundation

/// App verification's entry points, as FirebaseAuth's: the APNs token, the silent push, the challenge's callback.
extension Auth {
    /// The APNs device token given to ``setAPNSToken(_:type:)``.
    public var apnsToken: Data? { appVerifier.state.current.apnsToken }

    /// Gives the SDK the device's APNs token (from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`),
    /// so phone sign-in can verify the app by silent push instead of the web challenge.
    /// - Parameters:
    ///   - token: the token bytes.
    ///   - type: its environment; `.unknown` detects it from the app's provisioning profile.
    public func setAPNSToken(_ token: Data, type: AuthAPNSTokenType) {
        appVerifier.setAPNSToken(token, type: type)
    }

    /// Offers a remote notification to the SDK (from `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
    /// - Returns: `true` when it was app verification's silent push for a waiting receipt (or the SDK's own
    ///   forwarding probe), which the app should then ignore; `false` for anything else.
    public func canHandleNotification(_ userInfo: [AnyHashable: Any]) -> Bool {
        appVerifier.canHandleNotification(userInfo)
    }

    /// Offers a URL the app was opened with (`application(_:open:options:)`, `scene(_:openURLContexts:)`).
    /// - Returns: `true` when it was the callback of the page on screen (the web challenge, or a provider's web
    ///   sign-in), which the SDK then closes.
    public func canHandle(_ url: URL) -> Bool {
        appVerifier.canHandle(url)
    }
}

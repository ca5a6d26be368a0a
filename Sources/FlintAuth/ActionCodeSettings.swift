public import Foundation

/// How an emailed action link is built: where it continues, and which apps may open it (as FirebaseAuth's).
public final class ActionCodeSettings {
    /// The continue URL (`continueUrl`).
    public var url: URL?
    /// Whether the app completes the action itself; sign-in links need `true`.
    public var handleCodeInApp = false
    /// The iOS app that may open the link; defaults to the main bundle's identifier.
    public var iOSBundleID: String? = Bundle.main.bundleIdentifier
    /// The Android app that may open the link.
    public var androidPackageName: String?
    /// The minimum Android app version that may open the link.
    public var androidMinimumVersion: String?
    /// Whether Android installs the app when missing.
    public var androidInstallIfNotAvailable = false
    /// The domain of the link when it opens in an app (Firebase Hosting or Flint's public URL).
    public var linkDomain: String?
    /// The legacy Dynamic Links domain.
    public var dynamicLinkDomain: String?

    /// Empty settings.
    public init() {}

    /// Sets the iOS bundle identifier.
    public func setIOSBundleID(_ bundleID: String) { iOSBundleID = bundleID }

    /// Sets the Android app, whether to install it, and its minimum version.
    public func setAndroidPackageName(_ packageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        androidPackageName = packageName
        androidInstallIfNotAvailable = installIfNotAvailable
        androidMinimumVersion = minimumVersion
    }

    /// The request for `email` (or the account of `idToken`, moving to `newEmail`), with the wire keys FirebaseAuth
    /// sends.
    func request(type: String, email: String?, newEmail: String? = nil, idToken: String? = nil) -> SendOobCodeRequest {
        SendOobCodeRequest(
            requestType: type, email: email, newEmail: newEmail, idToken: idToken, continueUrl: url?.absoluteString, iOSBundleId: iOSBundleID,
            androidPackageName: androidPackageName, androidMinimumVersion: androidMinimumVersion,
            androidInstallApp: androidInstallIfNotAvailable ? true : nil, canHandleCodeInApp: handleCodeInApp ? true : nil,
            linkDomain: linkDomain, dynamicLinkDomain: dynamicLinkDomain)
    }
}

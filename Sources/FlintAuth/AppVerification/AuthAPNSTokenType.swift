import Foundation

/// The APNs environment of a device token, as FirebaseAuth's `AuthAPNSTokenType` (same raw values).
public enum AuthAPNSTokenType: Int, Sendable {
    /// Detect the environment: `sandbox` when the app's `embedded.mobileprovision` has
    /// `aps-environment` = `development`, otherwise `prod` (App Store and TestFlight builds carry no such profile).
    case unknown = 0
    /// A development (sandbox) APNs token.
    case sandbox = 1
    /// A production APNs token.
    case prod = 2

    /// `sandbox` or `prod`: `unknown` resolved from the app's provisioning profile.
    var resolved: AuthAPNSTokenType {
        guard self == .unknown else { return self }
        guard let path = Bundle.main.path(forResource: "embedded", ofType: "mobileprovision"),
            let data = FileManager.default.contents(atPath: path)
        else { return .prod }
        // The profile is a signed plist; its XML sits in the clear between the signature's bytes.
        let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        return text.contains("<key>aps-environment</key><string>development</string>") ? .sandbox : .prod
    }
}

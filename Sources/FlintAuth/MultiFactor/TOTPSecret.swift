import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

/// A TOTP shared secret being enrolled: show it to the user (as a QR code or the key), then enrol it with
/// `TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:)`.
public final class TOTPSecret: Sendable {
    private let secretKey: String
    /// `SHA1` (RFC 6238's default; authenticator apps expect it).
    let hashingAlgorithm: String
    /// Digits per one-time password.
    let codeLength: Int
    /// Seconds per one-time password.
    let period: Int
    /// The server's handle on this enrolment.
    let sessionInfo: String
    /// The time by which the enrolment must be finalized.
    let enrollmentCompletionDeadline: Date?

    init(
        secretKey: String, hashingAlgorithm: String, codeLength: Int, period: Int, sessionInfo: String,
        enrollmentCompletionDeadline: Date?
    ) {
        self.secretKey = secretKey
        self.hashingAlgorithm = hashingAlgorithm
        self.codeLength = codeLength
        self.period = period
        self.sessionInfo = sessionInfo
        self.enrollmentCompletionDeadline = enrollmentCompletionDeadline
    }

    /// The shared secret, base32, for a person to type into an authenticator app.
    public func sharedSecretKey() -> String { secretKey }

    /// The `otpauth://totp/…` URL authenticator apps read from a QR code: label `issuer:accountName`, then the
    /// secret, issuer, algorithm, digits and (when not 30 s) period.
    public func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        let label = Self.encode(issuer) + ":" + Self.encode(accountName)
        var url = "otpauth://totp/\(label)?secret=\(secretKey)&issuer=\(Self.encode(issuer))&algorithm=\(hashingAlgorithm)&digits=\(codeLength)"
        if period != 30 { url += "&period=\(period)" }
        return url
    }

    /// A label or issuer as authenticator apps read it: UTF-8, every byte outside ASCII's unreserved characters and
    /// `@` percent-encoded.
    private static func encode(_ text: String) -> String {
        FormEncoding.escape(text, keeping: "@")
    }

    #if os(iOS) || os(tvOS) || os(visionOS)
        /// Opens the QR-code URL in the authenticator app registered for `otpauth:` (on the main actor; callable
        /// from anywhere).
        public func openInOTPApp(withQRCodeURL qrCodeURL: String) {
            Task { @MainActor in
                guard let url = URL(string: qrCodeURL), let application = AppVerificationPresenter.sharedApplication(),
                    application.canOpenURL(url)
                else { return }
                application.open(url, options: [:], completionHandler: nil)
            }
        }
    #elseif canImport(AppKit)
        /// Opens the QR-code URL in the authenticator app registered for `otpauth:` (on the main actor; callable
        /// from anywhere).
        public func openInOTPApp(withQRCodeURL qrCodeURL: String) {
            Task { @MainActor in
                guard let url = URL(string: qrCodeURL) else { return }
                _ = NSWorkspace.shared.open(url)
            }
        }
    #elseif os(Linux)
        /// Opens the QR-code URL in the desktop's handler for `otpauth:` through freedesktop.org's `xdg-open`, the
        /// Linux counterpart of the `UIApplication` and `NSWorkspace` FirebaseAuth uses (FirebaseAuth itself has no
        /// Linux build to follow). Where no `xdg-open` is on the `PATH` (a server without a desktop), or it fails,
        /// nothing opens, as FirebaseAuth does when no app handles the URL.
        public func openInOTPApp(withQRCodeURL qrCodeURL: String) {
            let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
            Task { await Self.open(qrCodeURL, searchPath: searchPath) }
        }

        /// Runs `xdg-open qrCodeURL` from the first directory of `searchPath` (`:`-separated) that holds it, and
        /// returns once it has exited: whether it exited with 0; `false` for a string that is no URL or when no
        /// directory holds an `xdg-open`.
        @discardableResult
        static func open(_ qrCodeURL: String, searchPath: String) async -> Bool {
            guard URL(string: qrCodeURL)?.scheme != nil,
                let opener = searchPath.split(separator: ":").map({ "\($0)/xdg-open" })
                    .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            else { return false }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [qrCodeURL]
            return await withCheckedContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus == 0) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(returning: false)
                }
            }
        }
    #endif
}

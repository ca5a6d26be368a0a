import Foundation

/// The silent-push flow (FirebaseAuth's `verifyClient(withUIDelegate:)` before its web fallback).
extension AppVerifier {
    /// A receipt and secret: the stored one, else a fresh one from `verifyClient` and the silent push it triggers.
    /// `nil` sends the caller to the web challenge: no APNs token, notifications not forwarded (UIKit), the server
    /// refusing the token (`invalidAppCredential`, `missingAppToken`), or no push within `suggestedTimeout`.
    /// - Throws: other errors of `verifyClient` (network, quota…), or `internalError` for an answer without
    ///   `receipt` or a numeric `suggestedTimeout`.
    func pushCredential(backend: Backend) async throws -> AppCredential? {
        if let credential { return credential }
        guard let token = state.current.apnsToken else { return nil }
        #if canImport(SafariServices) && (os(iOS) || os(visionOS))
            guard await checkNotificationForwarding(deliver: { await AppVerificationPresenter.deliverProbeToAppDelegate() }) else {
                return nil
            }
        #endif
        let sandbox = state.current.tokenType.resolved == .sandbox
        let request = VerifyClientRequest(appToken: token.map { String(format: "%02X", $0) }.joined(), isSandbox: sandbox ? true : nil)
        let response: VerifyClientResponse
        do {
            response = try await backend.call("accounts:verifyClient", request, as: VerifyClientResponse.self)
        } catch let error as NSError
            where error.domain == AuthErrors.domain
            && (error.code == AuthErrorCode.invalidAppCredential.rawValue || error.code == AuthErrorCode.missingAppToken.rawValue)
        {
            return nil
        }
        guard let receipt = response.receipt, !receipt.isEmpty, let timeout = response.suggestedTimeout.flatMap(TimeInterval.init) else {
            throw AuthErrorCode.internalError.error(detail: "accounts:verifyClient answered without receipt or suggestedTimeout.")
        }
        didStartVerification(receipt: receipt)
        guard let secret = await waitForSecret(receipt: receipt, timeout: timeout) else { return nil }
        return AppCredential(receipt: receipt, secret: secret)
    }
}

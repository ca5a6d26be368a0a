import Foundation

/// Sends verification codes by SMS and builds phone credentials, as FirebaseAuth's `PhoneAuthProvider`.
public final class PhoneAuthProvider: Sendable {
    /// The provider ID, `phone`.
    public static let id = "phone"

    let auth: Auth

    private init(auth: Auth) { self.auth = auth }

    /// The provider of the default app's `Auth`.
    public static func provider() -> PhoneAuthProvider { PhoneAuthProvider(auth: Auth.auth()) }

    /// The provider of `auth`.
    public static func provider(auth: Auth) -> PhoneAuthProvider { PhoneAuthProvider(auth: auth) }

    /// Texts a verification code to `phoneNumber` (`accounts:sendVerificationCode`) in `Auth.languageCode`, after
    /// verifying the app (unless `auth.settings.isAppVerificationDisabledForTesting`): by silent push when
    /// `Auth.setAPNSToken(_:type:)` was called and pushes reach `Auth.canHandleNotification(_:)`, else by the web
    /// challenge shown through `uiDelegate`, whose callback URL must reach `Auth.canHandle(_:)`.
    /// - Parameters:
    ///   - phoneNumber: the number in E.164 form, such as `+16505550101`.
    ///   - uiDelegate: presents the web challenge; may be `nil` in test mode, when a push arrives, or on UIKit. Elsewhere
    ///     `nil` sends the code request without proof (fine for a server that does not enforce app verification).
    /// - Returns: the verification ID to build a credential with, together with the code.
    /// - Throws: `missingPhoneNumber`, `invalidPhoneNumber`, `tooManyRequests`, `quotaExceeded`,
    ///   `missingAppCredential` (no proof: test mode and a real number), `invalidAppCredential`,
    ///   `captchaCheckFailed`, `webContextCancelled`, `appVerificationUserInteractionFailure`, `networkError`.
    public func verifyPhoneNumber(_ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil) async throws -> String {
        guard !phoneNumber.isEmpty else { throw AuthErrorCode.missingPhoneNumber.error() }
        let response = try await withAppVerification(uiDelegate: uiDelegate) { proof in
            try await auth.backend.call(
                "accounts:sendVerificationCode", PhoneCodeRequest.sendVerificationCode(phoneNumber: phoneNumber, proof: proof),
                as: PhoneCodeSession.self)
        }
        return try PhoneCodeSession.verificationID(of: response, orFailWith: "accounts:sendVerificationCode answered without sessionInfo.")
    }

    /// Texts a verification code to `phoneNumber`; `completion` receives the verification ID or the error.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)?, completion: ((String?, (any Error)?) -> Void)?
    ) {
        deliver(completion) { try await self.verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate) }
    }

    /// A credential for the verification ID `verifyPhoneNumber` returned and the code the user received.
    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(.verification(id: verificationID, code: verificationCode))
    }
}

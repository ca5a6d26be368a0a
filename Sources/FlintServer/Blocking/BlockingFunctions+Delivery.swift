import FlintCore
import FlintStore
import FlintTexts

/// `beforeSendEmail` and `beforeSendSms`: called before anything of the send is stored, so a refusal leaves no code,
/// session or outbox record behind.
extension BlockingFunctions {
    /// The `email_type` Identity Platform tells `beforeSendEmail` of; the emails it names no type for call no function.
    static func emailType(_ action: EmailAction) -> String? {
        switch action {
        case .signIn: "EMAIL_SIGN_IN"
        case .passwordReset: "PASSWORD_RESET"
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail: nil
        }
    }

    /// The `sms_type` of each text.
    static func smsType(_ purpose: SMSPurpose) -> String {
        switch purpose {
        case .signIn: "SIGN_IN_OR_SIGN_UP"
        case .mfaSignIn: "MULTI_FACTOR_SIGN_IN"
        case .mfaEnrollment: "MULTI_FACTOR_ENROLLMENT"
        }
    }

    /// Calls `beforeSendEmail`, when configured, for an email about to be made for `address` (with its account, if
    /// any). A change in its answer has nothing to apply to; only a refusal counts.
    /// - Throws: the function's refusal or failure.
    func beforeSendEmail(_ action: EmailAction, to address: String, store: any AuthStore) async throws {
        guard let type = Self.emailType(action), isConfigured(.beforeSendEmail) else { return }
        let user = try await store.read { try await $0.user(tenant: .scoped, email: address) }
        var event = BlockingEvent(trigger: .beforeSendEmail, user: user, signInMethod: action == .signIn ? "emailLink" : "password")
        (event.emailType, event.recipientEmail) = (type, address)
        _ = try await call(event)
    }

    /// Calls `beforeSendSms`, when configured, for a text about to be sent to `phone` (E.164), with the number's account
    /// for a sign-in, or the account `localID` a second factor belongs to.
    /// - Throws: the function's refusal or failure.
    func beforeSendSms(_ purpose: SMSPurpose, to phone: String, localID: String?, store: any AuthStore) async throws {
        guard isConfigured(.beforeSendSms) else { return }
        let user = try await store.read { reader in
            if let localID { return try await reader.user(tenant: .scoped, localID: localID) }
            return try await reader.user(tenant: .scoped, phoneNumber: phone)
        }
        var event = BlockingEvent(trigger: .beforeSendSms, user: user, signInMethod: "phone")
        (event.smsType, event.recipientPhone) = (Self.smsType(purpose), phone)
        _ = try await call(event)
    }
}

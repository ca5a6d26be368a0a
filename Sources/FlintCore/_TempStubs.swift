// TEMPORARY: replaced by the real Phone/ and SMS/ files; deleted before commit.
public struct PhoneNumber: Hashable, Sendable {
    public let e164: String
    public init(parsing input: String) throws(PhoneNumberError) {
        let digits = input.filter { $0.isNumber }
        guard input.hasPrefix("+"), digits.count >= 8 else { throw .tooShort }
        e164 = "+" + digits
    }
}
public enum PhoneNumberError: Error, Sendable, Equatable {
    case tooShort
    public var detail: String { "TOO_SHORT" }
}
public enum SMSPurpose: String, Sendable { case signIn, mfaEnrollment, mfaSignIn }
public struct SMSTemplates: Sendable {
    public static let builtIn = SMSTemplates()
    public func render(purpose: SMSPurpose, locale: [String], app: String, code: String) -> (text: String, locale: String) {
        ("\(code) is your verification code for \(app).", "en")
    }
}
public enum LocaleNegotiation {
    public static func candidates(firebaseLocale: String?, acceptLanguage: String?) -> [String] { [] }
}

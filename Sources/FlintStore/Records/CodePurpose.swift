package import FlintTexts

/// What an SMS code session is for. Stored as its raw text in `code_sessions.purpose`; a code sent for one purpose
/// never serves another. Open-ended like jwt-kit's error kinds: a new purpose is a new `static let`, not a breaking
/// change.
public struct CodePurpose: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A purpose from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The purpose of the SMS text that carries the code.
    package init(_ purpose: SMSPurpose) { self.init(rawValue: purpose.rawValue) }

    /// Phone sign-in or phone linking (`sendVerificationCode`).
    public static let signIn = CodePurpose(.signIn)
    /// Enrolling the phone as a second factor (`mfaEnrollment:start`).
    public static let mfaEnrollment = CodePurpose(.mfaEnrollment)
    /// Signing in with an enrolled phone second factor (`mfaSignIn:start`).
    public static let mfaSignIn = CodePurpose(.mfaSignIn)

    public var description: String { rawValue }
}

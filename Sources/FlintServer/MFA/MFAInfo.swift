import FlintCore
import FlintStore

/// One `mfaInfo` entry: a hint in a first-factor answer (phone masked), or the owner's full view in `accounts:lookup`.
package struct MFAInfoJSON: Encodable, Sendable {
    package struct TOTPInfo: Encodable, Sendable {}

    package var mfaEnrollmentId: String
    package var displayName: String?
    package var enrolledAt: String
    package var phoneInfo: String?
    package var unobfuscatedPhoneInfo: String?
    package var totpInfo: TOTPInfo?

    /// A hint for someone who has proven only the first factor: the number masked like Firebase (`+*******1234`).
    static func hint(_ e: MFAEnrollmentRecord) -> MFAInfoJSON {
        MFAInfoJSON(
            mfaEnrollmentId: e.enrollmentID, displayName: e.displayName, enrolledAt: RFC3339.format(e.enrolledAt),
            phoneInfo: e.phoneNumber.map(PhoneMasking.mask), totpInfo: e.factor == .totp ? TOTPInfo() : nil)
    }

    /// The owner's view: the number in full.
    static func full(_ e: MFAEnrollmentRecord) -> MFAInfoJSON {
        MFAInfoJSON(
            mfaEnrollmentId: e.enrollmentID, displayName: e.displayName, enrolledAt: RFC3339.format(e.enrolledAt),
            phoneInfo: e.phoneNumber, unobfuscatedPhoneInfo: e.phoneNumber, totpInfo: e.factor == .totp ? TOTPInfo() : nil)
    }
}

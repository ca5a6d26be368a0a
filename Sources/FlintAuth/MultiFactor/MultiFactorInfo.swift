public import Foundation

/// The factor ID of SMS second factors, `phone`.
public let PhoneMultiFactorID = "phone"
/// The factor ID of TOTP second factors, `totp`.
public let TOTPMultiFactorID = "totp"
/// The factor ID of TOTP second factors under the spelling FirebaseAuth's guides use.
public let TotpMultiFactorID = TOTPMultiFactorID

/// A second factor enrolled on an account: in `MultiFactor.enrolledFactors` and in `MultiFactorResolver.hints`.
/// SMS factors are ``PhoneMultiFactorInfo``, TOTP factors ``TOTPMultiFactorInfo``.
public class MultiFactorInfo: @unchecked Sendable {
    // Immutable after init; subclasses add only constants.

    /// The enrolment's ID (`mfaEnrollmentId`).
    public let uid: String
    /// The name the user gave the factor.
    public let displayName: String?
    /// When the factor was enrolled (now, when the server's date cannot be read, as FirebaseAuth).
    public let enrollmentDate: Date
    /// ``PhoneMultiFactorID`` or ``TOTPMultiFactorID``.
    public let factorID: String

    init(uid: String, displayName: String?, enrollmentDate: Date, factorID: String) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentDate = enrollmentDate
        self.factorID = factorID
    }

    /// The info of a stored enrolment, as the subclass its factor calls for.
    static func make(_ stored: StoredMultiFactorInfo) -> MultiFactorInfo {
        if stored.factorID == PhoneMultiFactorID {
            return PhoneMultiFactorInfo(
                uid: stored.uid, displayName: stored.displayName, enrollmentDate: stored.enrollmentDate,
                phoneNumber: stored.phoneNumber ?? "")
        }
        return TOTPMultiFactorInfo(uid: stored.uid, displayName: stored.displayName, enrollmentDate: stored.enrollmentDate)
    }
}

/// An SMS second factor.
public final class PhoneMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    /// The factor ID of SMS second factors, `phone`.
    public static let PhoneMultiFactorID = FlintAuth.PhoneMultiFactorID
    /// The factor ID of TOTP second factors, `totp`.
    public static let TOTPMultiFactorID = FlintAuth.TOTPMultiFactorID

    /// The number: in full in `enrolledFactors`, masked (`+*******1234`) in a resolver's hints.
    public let phoneNumber: String

    init(uid: String, displayName: String?, enrollmentDate: Date, phoneNumber: String) {
        self.phoneNumber = phoneNumber
        super.init(uid: uid, displayName: displayName, enrollmentDate: enrollmentDate, factorID: FlintAuth.PhoneMultiFactorID)
    }
}

/// A TOTP (authenticator app) second factor.
public final class TOTPMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    init(uid: String, displayName: String?, enrollmentDate: Date) {
        super.init(uid: uid, displayName: displayName, enrollmentDate: enrollmentDate, factorID: TOTPMultiFactorID)
    }
}

/// An enrolment as the profile keeps (and persists) it.
struct StoredMultiFactorInfo: Sendable, Codable, Equatable {
    var uid: String
    var displayName: String?
    var enrollmentDate: Date
    var factorID: String
    var phoneNumber: String?

    /// An `mfaInfo` entry of the server; `nil` (dropped, as FirebaseAuth drops it) when it has no enrolment ID or
    /// is neither a phone nor a TOTP factor.
    init?(_ wire: MFAEnrollmentWire) {
        guard let id = wire.mfaEnrollmentId, !id.isEmpty else { return nil }
        if wire.totpInfo != nil {
            factorID = TOTPMultiFactorID
        } else if let phone = wire.phoneInfo {
            factorID = PhoneMultiFactorID
            phoneNumber = phone
        } else {
            return nil
        }
        uid = id
        displayName = wire.displayName
        enrollmentDate = wire.enrolledAt.flatMap(Self.date(rfc3339:)) ?? Date()
    }

    /// An RFC 3339 time with or without fractional seconds.
    static func date(rfc3339 text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

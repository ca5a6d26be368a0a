import FlintCore
import FlintStore

/// A second factor as the Admin SDKs send it: an entry of `mfa.enrollments` (`accounts:update`) or of `mfaInfo` (the
/// operator's `signUp`).
struct MFAEnrollmentRequest: Decodable {
    var mfaEnrollmentId: String?
    var displayName: String?
    /// The phone number of an SMS factor.
    var phoneInfo: String?
    /// A TOTP factor: it can only be kept (named by its `mfaEnrollmentId`), since its secret is never sent.
    var totpInfo: JSONValue?
    /// RFC 3339; now when absent (or, for a factor the account keeps, when it was enrolled).
    var enrolledAt: String?
}

/// `mfa` of the operator's `accounts:update`: the account's second factors from now on; none when `enrollments` is
/// empty or absent (the Admin SDKs send `mfa: {}` to remove every factor).
struct MFAUpdateRequest: Decodable {
    var enrollments: [MFAEnrollmentRequest]
}

/// Second factors an operator sets on an account, checked as Firebase checks them: phone numbers valid
/// (`INVALID_MFA_PHONE_NUMBER`), one factor per number (later duplicates dropped, as Firebase does), enrolment IDs
/// unique (`DUPLICATE_MFA_ENROLLMENT_ID`), at most ``MFAFlow/maxSecondFactors``.
struct OperatorEnrollments: Sendable {
    /// One factor as asked for, before it meets the account's current ones.
    struct Entry: Sendable, Equatable {
        var enrollmentID: String
        var phoneNumber: String?
        var displayName: String?
        var enrolledAt: Instant?
        var isTOTP: Bool
    }

    var entries: [Entry]

    /// Checks the request; entries without an ID get a new one. `newIDs` gives every SMS factor a new ID whatever the
    /// caller sent, as Firebase's `signUp` does for a new account (an `accounts:update` keeps the IDs it names).
    init(_ wire: [MFAEnrollmentRequest], random: any RandomSource, newIDs: Bool = false) throws(AuthError) {
        var entries: [Entry] = []
        for item in wire {
            let named = item.mfaEnrollmentId.flatMap { $0.isEmpty ? nil : $0 }
            let id = newIDs && item.phoneInfo != nil ? nil : named
            var enrolledAt: Instant?
            if let text = item.enrolledAt, !text.isEmpty {
                guard let parsed = RFC3339.parse(text) else {
                    throw AuthError.invalidJSON("Invalid value at 'enrolled_at' (type.googleapis.com/google.protobuf.Timestamp), \"\(text)\"")
                }
                enrolledAt = parsed
            }
            if item.phoneInfo == nil, item.totpInfo != nil {
                guard let id else { throw AuthError(code: "INVALID_MFA_ENROLLMENT_ID", detail: "A TOTP factor can only be kept, by its ID.") }
                entries.append(Entry(enrollmentID: id, displayName: item.displayName, enrolledAt: enrolledAt, isTOTP: true))
                continue
            }
            guard let text = item.phoneInfo, let phone = try? PhoneNumber(wire: text).e164 else {
                throw AuthError(code: "INVALID_MFA_PHONE_NUMBER", detail: "Invalid format.")
            }
            if entries.contains(where: { $0.phoneNumber == phone }) { continue }
            entries.append(
                Entry(
                    enrollmentID: id ?? random.alphanumericID(), phoneNumber: phone, displayName: item.displayName, enrolledAt: enrolledAt,
                    isTOTP: false))
        }
        guard Set(entries.map(\.enrollmentID)).count == entries.count else { throw AuthError(code: "DUPLICATE_MFA_ENROLLMENT_ID") }
        guard entries.count <= MFAFlow.maxSecondFactors else { throw AuthError.secondFactorLimitExceeded }
        self.entries = entries
    }

    /// The account's factors from now on, given the ones it has: a TOTP entry keeps the TOTP factor of that ID (or
    /// fails with `MFA_ENROLLMENT_NOT_FOUND`); a factor kept without an `enrolledAt` keeps its enrolment time.
    func records(localID: String, existing: [MFAEnrollmentRecord], now: Instant) -> Result<[MFAEnrollmentRecord], AuthError> {
        var records: [MFAEnrollmentRecord] = []
        for entry in entries {
            let current = existing.first { $0.enrollmentID == entry.enrollmentID }
            if entry.isTOTP {
                guard var kept = current, kept.factor == .totp else { return .failure(.mfaEnrollmentNotFound) }
                if let name = entry.displayName { kept.displayName = name }
                if let at = entry.enrolledAt { kept.enrolledAt = at }
                records.append(kept)
                continue
            }
            records.append(
                MFAEnrollmentRecord(
                    tenant: .scoped, enrollmentID: entry.enrollmentID, localID: localID, factor: .phone, displayName: entry.displayName,
                    phoneNumber: entry.phoneNumber,
                    enrolledAt: entry.enrolledAt ?? (current?.factor == .phone ? current?.enrolledAt : nil) ?? now))
        }
        return .success(records)
    }

    /// Whether going from `old` to `new` adds or removes a factor (which ends the account's sessions, as a user's own
    /// enrolment or withdrawal does); renaming one does not.
    static func changesFactors(from old: [MFAEnrollmentRecord], to new: [MFAEnrollmentRecord]) -> Bool {
        func key(_ e: MFAEnrollmentRecord) -> String { "\(e.enrollmentID)|\(e.factor)|\(e.phoneNumber ?? "")" }
        return Set(old.map(key)) != Set(new.map(key))
    }
}

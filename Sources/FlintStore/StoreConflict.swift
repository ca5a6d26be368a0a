/// What a write collided on: the unique thing another row holds already (``StoreError/conflict(_:)``).
///
/// Flows answer each case in their own terms (a Firebase error, a CLI message) by switching over it, never by a name.
public enum StoreConflict: Sendable, Equatable, CaseIterable {
    /// A user's local ID.
    case localID
    /// A user's email address.
    case email
    /// A user's phone number.
    case phoneNumber
    /// A provider's raw user ID, held by another account.
    case federatedIdentity
    /// A second factor: its enrolment ID is taken, or the account has its phone number enrolled already.
    case secondFactor
    /// A passkey's credential ID, enrolled already (on any account).
    case passkey
    /// The name of an unrevoked admin credential or service account.
    case credentialName
    /// A service account's key ID.
    case keyID
    /// A console operator's email address.
    case operatorEmail
}

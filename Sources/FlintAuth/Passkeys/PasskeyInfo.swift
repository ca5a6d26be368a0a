/// A passkey enrolled on the account, as `accounts:lookup`'s `passkeyInfo` lists it (`User.enrolledPasskeys`).
public final class PasskeyInfo: Sendable, Codable {
    /// The name given at enrolment (`startPasskeyEnrollment(withName:)`).
    public let name: String?
    /// The credential ID (base64url), which `unenrollPasskey(withCredentialID:)` takes.
    public let credentialID: String?

    init(name: String?, credentialID: String?) {
        self.name = name
        self.credentialID = credentialID
    }
}

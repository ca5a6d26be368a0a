/// What ties a second-factor step to its first factor: for enrolment the signed-in user's ID token (from
/// `MultiFactor.session()`), for sign-in the pending credential of a `secondFactorRequired` error (from
/// `MultiFactorResolver.session`). Opaque, as in FirebaseAuth.
public final class MultiFactorSession: Sendable {
    /// The session's proof of its first factor: exactly one of the two.
    enum FirstFactor: Sendable {
        /// A signed-in user's ID token, as it was when the session was made.
        case idToken(String)
        /// The pending credential of a first-factor sign-in.
        case pendingCredential(String)
    }

    let firstFactor: FirstFactor
    let backend: Backend

    init(_ firstFactor: FirstFactor, backend: Backend) {
        self.firstFactor = firstFactor
        self.backend = backend
    }

    /// The ID token of an enrolment session.
    var idToken: String? {
        if case .idToken(let token) = firstFactor { return token }
        return nil
    }

    /// The pending credential of a sign-in session.
    var pendingCredential: String? {
        if case .pendingCredential(let credential) = firstFactor { return credential }
        return nil
    }
}

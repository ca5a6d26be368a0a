import FlintCore
import FlintStore

/// Session cookies (`projects/{p}:createSessionCookie`): an operator exchanges a user's ID token for a longer-lived
/// JWT with the same claims, issued by `https://session.firebase.google.com/{projectId}` and signed with the keys
/// ID tokens are signed with, which are published at the session-cookie key URLs too.
struct SessionCookies: Sendable {
    /// What it runs on: settings, project config, store, clock, randomness, logger.
    let node: Node
    let sessions: Sessions

    /// The shortest and longest a cookie may live (5 minutes, 14 days), as Firebase.
    static let validDurations: ClosedRange<Duration> = .seconds(300) ... .seconds(1_209_600)

    /// The issuer of a project's session cookies.
    static func issuer(projectID: String) -> String { "https://session.firebase.google.com/\(projectID)" }
}

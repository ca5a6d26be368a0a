/// `flint.sessions`: how long a session (a refresh token) lives. Without it sessions last until they are revoked or
/// ended, as Firebase's do.
///
/// ```yaml
/// flint:
///   sessions:
///     idleTimeout: 1209600s       # refused at refresh when unused this long (14 days)
///     absoluteLifetime: 7776000s  # refused at refresh this long after its sign-in (90 days)
/// ```
///
/// Each is a protobuf JSON duration, whole seconds from an hour (an ID token's life: shorter would end sessions in
/// use) to ten years.
extension ProjectConfig {
    /// The session lifetimes in force; `nil` where none is set.
    package struct SessionLifetimes: Sendable, Equatable {
        /// A session unused this long is refused at its next refresh.
        package var idleTimeout: Duration?
        /// A session this long after its sign-in (`auth_time`: a re-issued session keeps it) is refused at its next refresh.
        package var absoluteLifetime: Duration?

        package init(idleTimeout: Duration? = nil, absoluteLifetime: Duration? = nil) {
            (self.idleTimeout, self.absoluteLifetime) = (idleTimeout, absoluteLifetime)
        }

        /// Whether a session whose sign-in was at `signedIn` and whose last use was at `lastUsed` still lives at `now`.
        package func allow(signedIn: Instant, lastUsed: Instant, now: Instant) -> Bool {
            if let idleTimeout, now - lastUsed > idleTimeout { return false }
            if let absoluteLifetime, now - signedIn > absoluteLifetime { return false }
            return true
        }
    }

    /// The fields `flint.sessions` holds.
    static let sessionsFields: Set<String> = ["idleTimeout", "absoluteLifetime"]
    /// The shortest and longest lifetime allowed.
    static let sessionLifetimeRange: ClosedRange<Int64> = 3600...315_360_000

    /// The session lifetimes (none by default).
    package var sessionLifetimes: SessionLifetimes {
        guard let section = document["flint"]?["sessions"]?.objectValue else { return SessionLifetimes() }
        return SessionLifetimes(
            idleTimeout: section["idleTimeout"]?.stringValue.flatMap(Self.durationSeconds).map { .seconds($0) },
            absoluteLifetime: section["absoluteLifetime"]?.stringValue.flatMap(Self.durationSeconds).map { .seconds($0) })
    }

    /// Whole seconds of a protobuf JSON duration (`"3600s"`), or `nil`.
    static func durationSeconds(_ text: String) -> Int64? {
        guard text.hasSuffix("s"), text.count > 1, text.dropLast().allSatisfy(\.isASCII), text.dropLast().allSatisfy(\.isNumber) else { return nil }
        return Int64(text.dropLast())
    }

    /// Checks `flint.sessions`: known fields, each a duration of whole seconds from an hour to ten years.
    static func validateSessions(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let section = doc["flint"]?["sessions"] else { return }
        guard let object = section.objectValue else { throw invalid("flint.sessions must be an object") }
        if let unknown = object.keys.sorted().first(where: { !sessionsFields.contains($0) }) {
            throw invalid("flint.sessions has an unknown field: \(unknown)")
        }
        for name in sessionsFields.sorted() {
            guard let value = object[name] else { continue }
            guard let seconds = value.stringValue.flatMap(durationSeconds), sessionLifetimeRange.contains(seconds) else {
                throw invalid("flint.sessions.\(name) must be a duration in whole seconds from 3600s to 315360000s")
            }
        }
    }
}

/// `flint.breachedPasswords`: where a user's new password is looked up in a corpus of breached passwords, in the
/// k-anonymity range format (``BreachRange``). Without the section nothing is looked up.
///
/// ```yaml
/// flint:
///   breachedPasswords:
///     rangeDirectory: /var/lib/flint/pwned-passwords   # or rangeUrl: https://api.pwnedpasswords.com/range/
///     minimumCount: 1          # refused when seen at least this often (default 1)
///     timeoutMillis: 2000      # rangeUrl only (default 2000)
///     whenUnavailable: ALLOW   # or REFUSE, when the range cannot be read (default ALLOW)
/// ```
extension ProjectConfig {
    /// The breached-password check in force.
    package struct BreachedPasswords: Sendable, Equatable {
        /// Where a SHA-1 prefix's range is read.
        package enum Source: Sendable, Equatable {
            /// A directory of range files, one per prefix, named `ABCDE.txt` (or `ABCDE`), as the operator
            /// downloaded them: nothing leaves the node at sign-up.
            case directory(String)
            /// A range endpoint: the prefix is appended to this URL (`…/range/` + `ABCDE`).
            case endpoint(String)
        }

        package var source: Source
        /// A password seen in the corpus at least this many times is refused.
        package var minimumCount: Int = 1
        /// How long a range endpoint is waited for.
        package var timeout: Duration = .seconds(2)
        /// Whether a password is refused when its range cannot be read (a missing file, an endpoint down); by
        /// default it is let through, with a warning and a metric.
        package var refuseWhenUnavailable = false

        package init(source: Source) { self.source = source }
    }

    /// What a user's own new password must meet (at sign-up, on a change, at a reset): the enforced policy and the
    /// breached-password check. An operator's (the admin API's) is held to neither, as Firebase holds it only to the
    /// length rule.
    package var newPasswordRules: NewPasswordRules { NewPasswordRules(policy: enforcedPasswordPolicy, breaches: breachedPasswords) }

    /// The fields `flint.breachedPasswords` holds.
    static let breachedPasswordsFields: Set<String> = ["rangeDirectory", "rangeUrl", "minimumCount", "timeoutMillis", "whenUnavailable"]

    /// The breached-password check, when the section is set.
    package var breachedPasswords: BreachedPasswords? {
        guard let section = document["flint"]?["breachedPasswords"]?.objectValue else { return nil }
        let source: BreachedPasswords.Source
        if let directory = section["rangeDirectory"]?.stringValue {
            source = .directory(directory)
        } else if let url = section["rangeUrl"]?.stringValue {
            source = .endpoint(url)
        } else {
            return nil
        }
        var check = BreachedPasswords(source: source)
        if case .number(let n)? = section["minimumCount"] { check.minimumCount = Int(n) }
        if case .number(let n)? = section["timeoutMillis"] { check.timeout = .milliseconds(Int64(n)) }
        check.refuseWhenUnavailable = section["whenUnavailable"]?.stringValue == "REFUSE"
        return check
    }

    /// Checks `flint.breachedPasswords`: exactly one of an absolute `rangeDirectory` and an http(s) `rangeUrl`, a
    /// `minimumCount` from 1, a `timeoutMillis` from 100 to 30,000, and `whenUnavailable` `ALLOW` or `REFUSE`.
    static func validateBreachedPasswords(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let section = doc["flint"]?["breachedPasswords"] else { return }
        guard let object = section.objectValue else { throw invalid("flint.breachedPasswords must be an object") }
        if let unknown = object.keys.sorted().first(where: { !breachedPasswordsFields.contains($0) }) {
            throw invalid("flint.breachedPasswords has an unknown field: \(unknown)")
        }
        let directory = object["rangeDirectory"]
        let url = object["rangeUrl"]
        guard (directory == nil) != (url == nil) else {
            throw invalid("flint.breachedPasswords needs exactly one of rangeDirectory and rangeUrl")
        }
        if let directory, directory.stringValue?.hasPrefix("/") != true {
            throw invalid("flint.breachedPasswords.rangeDirectory must be an absolute path")
        }
        if let url {
            let text = url.stringValue ?? ""
            guard text.hasPrefix("https://") || text.hasPrefix("http://"), !text.contains(where: \.isWhitespace) else {
                throw invalid("flint.breachedPasswords.rangeUrl must be an http(s) URL")
            }
        }
        if let count = object["minimumCount"] {
            guard case .number(let n) = count, n.rounded() == n, n >= 1, n <= 1_000_000_000 else {
                throw invalid("flint.breachedPasswords.minimumCount must be a whole number from 1")
            }
        }
        if let timeout = object["timeoutMillis"] {
            guard case .number(let n) = timeout, n.rounded() == n, n >= 100, n <= 30_000 else {
                throw invalid("flint.breachedPasswords.timeoutMillis must be a whole number from 100 to 30000")
            }
        }
        if let mode = object["whenUnavailable"], !["ALLOW", "REFUSE"].contains(mode.stringValue ?? "") {
            throw invalid("flint.breachedPasswords.whenUnavailable must be ALLOW or REFUSE")
        }
    }
}

/// What a new password must meet beyond Firebase's length rule: a project's enforced password policy, and its
/// breached-password check (``ProjectConfig/newPasswordRules``). The empty value is what an operator's password meets.
package struct NewPasswordRules: Sendable, Equatable {
    package var policy: PasswordPolicy?
    package var breaches: ProjectConfig.BreachedPasswords?

    package init(policy: PasswordPolicy? = nil, breaches: ProjectConfig.BreachedPasswords? = nil) {
        (self.policy, self.breaches) = (policy, breaches)
    }
}

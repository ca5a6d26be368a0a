package import FlintTexts

/// Firebase's password policy (`passwordPolicyConfig`): the strength options of its one version, whether it is
/// enforced, and whether a sign-in with a password that falls short is refused. ``unmet(_:)`` evaluates a password
/// the way the client SDKs' `validatePassword` does (ASCII letter and digit classes, a fixed symbol set).
package struct PasswordPolicy: Sendable, Equatable {
    /// The characters that count as non-alphanumeric, as Firebase lists them.
    package static let nonAlphanumericCharacters: [Character] = Array("^$*.[]{}()?\"!@#%&/\\,><':;|_~`")
    /// The shortest `minPasswordLength` Firebase accepts, and the default.
    package static let minimumLength = 6
    /// The longest `minPasswordLength` Firebase accepts.
    package static let longestMinimum = 30
    /// The longest `maxPasswordLength` Firebase accepts, and the default.
    package static let maximumLength = 4096

    /// `ENFORCE` (sign-up and password changes are refused when the password falls short) or `OFF` (notify only).
    package var enforced: Bool
    /// With enforcement, a password sign-in with a password that falls short is refused too.
    package var forceUpgradeOnSignin: Bool
    package var minLength = Self.minimumLength
    package var maxLength = Self.maximumLength
    package var requiresLowercase = false
    package var requiresUppercase = false
    package var requiresNumeric = false
    package var requiresNonAlphanumeric = false

    /// A policy with the given switches and Firebase's default lengths.
    package init(enforced: Bool, forceUpgradeOnSignin: Bool = false) {
        self.enforced = enforced
        self.forceUpgradeOnSignin = forceUpgradeOnSignin
    }

    /// The character classes a policy may require, by their `customStrengthOptions` names (the admin config's and
    /// the `passwordPolicy` answer's), with the switch each sets, in Firebase's order.
    package static let characterClassOptions: [(name: String, flag: any WritableKeyPath<PasswordPolicy, Bool> & Sendable)] = [
        ("containsLowercaseCharacter", \.requiresLowercase), ("containsUppercaseCharacter", \.requiresUppercase),
        ("containsNumericCharacter", \.requiresNumeric), ("containsNonAlphanumericCharacter", \.requiresNonAlphanumeric),
    ]

    /// One requirement a password may miss (FlintTexts' type, so the action page names it in the reader's
    /// language); its wire texts are below.
    package typealias Requirement = PasswordRequirement

    /// The rules this policy imposes, in Firebase's order: the minimum length, the maximum when it is below
    /// Firebase's ceiling, then the required character classes.
    package var rules: [Requirement] {
        var rules: [Requirement] = [.minLength(minLength)]
        if maxLength < Self.maximumLength { rules.append(.maxLength(maxLength)) }
        if requiresLowercase { rules.append(.lowercase) }
        if requiresUppercase { rules.append(.uppercase) }
        if requiresNumeric { rules.append(.numeric) }
        if requiresNonAlphanumeric { rules.append(.nonAlphanumeric) }
        return rules
    }

    /// The requirements `password` misses, in Firebase's order (lengths, then character classes); empty when it
    /// complies. Length counts characters, as the `WEAK_PASSWORD` rule does.
    package func unmet(_ password: String) -> [Requirement] {
        var missing: [Requirement] = []
        let length = password.count
        if length < minLength { missing.append(.minLength(minLength)) }
        if length > maxLength { missing.append(.maxLength(maxLength)) }
        let scalars = password.unicodeScalars
        if requiresLowercase, !scalars.contains(where: { ("a"..."z").contains($0) }) { missing.append(.lowercase) }
        if requiresUppercase, !scalars.contains(where: { ("A"..."Z").contains($0) }) { missing.append(.uppercase) }
        if requiresNumeric, !scalars.contains(where: { ("0"..."9").contains($0) }) { missing.append(.numeric) }
        if requiresNonAlphanumeric, !password.contains(where: Self.nonAlphanumericCharacters.contains) {
            missing.append(.nonAlphanumeric)
        }
        return missing
    }

    /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` listing what `password` misses, or `nil` when it complies.
    package func violation(_ password: String) -> AuthError? {
        let missing = unmet(password)
        guard !missing.isEmpty else { return nil }
        return AuthError.passwordDoesNotMeetRequirements(missing)
    }
}

extension PasswordRequirement {
    /// The `userNotifications[].notificationCode` of a sign-in with a password missing this.
    package var notificationCode: String {
        switch self {
        case .minLength: "MINIMUM_PASSWORD_LENGTH"
        case .maxLength: "MAXIMUM_PASSWORD_LENGTH"
        case .lowercase: "MISSING_LOWERCASE_CHARACTER"
        case .uppercase: "MISSING_UPPERCASE_CHARACTER"
        case .numeric: "MISSING_NUMERIC_CHARACTER"
        case .nonAlphanumeric: "MISSING_NON_ALPHANUMERIC_CHARACTER"
        }
    }

    /// The sentence Firebase lists in `Missing password requirements: [...]`.
    package var message: String {
        switch self {
        case .minLength(let n): "Password must contain at least \(n) characters"
        case .maxLength(let n): "Password may contain at most \(n) characters"
        case .lowercase: "Password must contain a lower case character"
        case .uppercase: "Password must contain an upper case character"
        case .numeric: "Password must contain a numeric character"
        case .nonAlphanumeric: "Password must contain a non-alphanumeric character"
        }
    }
}

extension ActionPageStrings {
    /// How the password form names `rule` in this locale.
    func phrase(_ rule: PasswordRequirement) -> String {
        switch rule {
        case .minLength(let n): Placeholders.fill(ruleMinLength, values: ["n": String(n)])
        case .maxLength(let n): Placeholders.fill(ruleMaxLength, values: ["n": String(n)])
        case .lowercase: ruleLowercase
        case .uppercase: ruleUppercase
        case .numeric: ruleNumeric
        case .nonAlphanumeric: ruleNonAlphanumeric
        }
    }
}

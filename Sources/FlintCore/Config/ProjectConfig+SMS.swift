// What the project says about texting codes: app verification before a code is sent, the regions it may go to,
// and the spend limits on how many go out.

/// `signIn.phoneNumber.appVerification` (Flint extension): whether SMS codes need an app proof.
extension ProjectConfig {
    /// The app-verification policy of phone sign-in and SMS second factors.
    package enum AppVerificationMode: String, Sendable, Equatable, CaseIterable {
        /// Every code sent to a real number needs a proof: a `verifyClient` receipt with its pushed secret, or a
        /// token from the web challenge. Fictional test numbers never need one.
        case enforce = "ENFORCE"
        /// No proof is asked for (what the Firebase emulator does).
        case off = "OFF"
    }

    /// The configured policy, or `nil` when the document sets none (the server then picks by mode: `OFF` in dev
    /// mode, `ENFORCE` in production).
    package var appVerification: AppVerificationMode? {
        document["signIn"]?["phoneNumber"]?["appVerification"]?.stringValue.flatMap(AppVerificationMode.init(rawValue:))
    }

    static func validateAppVerification(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let value = doc["signIn"]?["phoneNumber"]?["appVerification"] else { return }
        guard value.stringValue.flatMap(AppVerificationMode.init(rawValue:)) != nil else {
            throw invalid("signIn.phoneNumber.appVerification must be one of \(AppVerificationMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }
}

/// Firebase's SMS region policy (`smsRegionConfig`): which regions codes may be texted to, by the ISO 3166 region of
/// the number (from the numbering plan). Either every region but a deny list (`allowByDefault.disallowedRegions`)
/// or only an allow list (`allowlistOnly.allowedRegions`); no policy allows every region.
extension ProjectConfig {
    /// The SMS region policy in force.
    package enum SMSRegionPolicy: Sendable, Equatable {
        /// Every region except these.
        case allowByDefault(disallowed: Set<String>)
        /// Only these regions.
        case allowlistOnly(allowed: Set<String>)

        /// Whether a number of `region` (`nil` for numbers no region owns, such as non-geographic codes) may be texted.
        /// An allow list admits only the regions it names; a deny list refuses only those.
        package func allows(region: String?) -> Bool {
            switch self {
            case .allowByDefault(let disallowed): return region.map { !disallowed.contains($0) } ?? true
            case .allowlistOnly(let allowed): return region.map { allowed.contains($0) } ?? false
            }
        }
    }

    /// The project's policy; every region is allowed when none is set.
    package var smsRegionPolicy: SMSRegionPolicy {
        let config = document["smsRegionConfig"]
        if let allowed = config?["allowlistOnly"] {
            return .allowlistOnly(allowed: Set((allowed["allowedRegions"]?.arrayValue ?? []).compactMap(\.stringValue)))
        }
        return .allowByDefault(disallowed: Set((config?["allowByDefault"]?["disallowedRegions"]?.arrayValue ?? []).compactMap(\.stringValue)))
    }

    /// Checks `smsRegionConfig`: at most one of the two modes, each a list of two-letter ISO region codes (stored upper-case).
    static func normalizedSMSRegionConfig(_ doc: [String: JSONValue]) throws(AuthError) -> JSONValue? {
        guard let config = doc["smsRegionConfig"] else { return nil }
        guard let object = config.objectValue else { throw invalid("smsRegionConfig must be an object") }
        let modes = object.keys.filter { $0 == "allowByDefault" || $0 == "allowlistOnly" }
        guard object.keys.count == modes.count else {
            throw invalid("smsRegionConfig takes allowByDefault or allowlistOnly, nothing else")
        }
        guard modes.count <= 1 else { throw invalid("smsRegionConfig takes either allowByDefault or allowlistOnly, not both") }
        guard let mode = modes.first else { return .object([:]) }
        let field = mode == "allowByDefault" ? "disallowedRegions" : "allowedRegions"
        guard let body = object[mode]?.objectValue, body.keys.allSatisfy({ $0 == field }) else {
            throw invalid("smsRegionConfig.\(mode) takes only \(field)")
        }
        var regions: [JSONValue] = []
        for item in body[field]?.arrayValue ?? [] {
            guard let code = item.stringValue, code.utf8.count == 2, code.utf8.allSatisfy({ (65...90).contains($0 & 0xDF) }) else {
                throw invalid("smsRegionConfig.\(mode).\(field) must list two-letter ISO 3166 region codes")
            }
            regions.append(.string(code.uppercased()))
        }
        return .object([mode: .object([field: .array(regions)])])
    }
}

/// Flint's SMS spend limits (`flint.smsLimits`): how many codes one number may be sent per hour and per day, how many
/// one client address may have texted per hour and per day, how many go to one destination country per hour, and the
/// project's daily budget of texts (per UTC day). Fictional test numbers are never texted and count nowhere. 0 turns
/// a limit off. The section's fields may be set one by one (`flint.smsLimits.dailyBudget`); a field left out keeps its
/// default, and the config's resource shows the values in force.
extension ProjectConfig {
    /// The SMS spend limits in force.
    package struct SMSLimits: Sendable, Equatable {
        /// Codes one number may be sent per hour, sign-in and second-factor codes together (a re-used live code is
        /// no new text). A code session allows 5 wrong codes, so without this cap every new text would buy 5 more
        /// guesses.
        package var perNumberPerHour: Int64 = 5
        /// Codes one number may be sent per day.
        package var perNumberPerDay: Int64 = 10
        /// Codes texted at the request of one client address per hour.
        package var perIPPerHour: Int64
        /// Codes texted at the request of one client address per day.
        package var perIPPerDay: Int64
        /// Codes texted to numbers of one country (region of the numbering plan, or calling code) per hour.
        package var perCountryPerHour: Int64
        /// Codes texted per UTC day in the whole project; past it the answer is `QUOTA_EXCEEDED`.
        package var dailyBudget: Int64

        /// The limits.
        package init(perIPPerHour: Int64, perIPPerDay: Int64, perCountryPerHour: Int64, dailyBudget: Int64) {
            (self.perIPPerHour, self.perIPPerDay, self.perCountryPerHour, self.dailyBudget) = (
                perIPPerHour, perIPPerDay, perCountryPerHour, dailyBudget
            )
        }

        /// The defaults: 5 codes per number per hour and 10 per day (room for a lost text and a second device), 30
        /// codes per address per hour and 100 per day (room for a shared office or carrier NAT, far below what SMS
        /// pumping needs), 300 per country per hour, and 3,000 texts a day in all (Firebase's former Blaze-plan daily
        /// SMS cap).
        package static let defaults = SMSLimits(perIPPerHour: 30, perIPPerDay: 100, perCountryPerHour: 300, dailyBudget: 3000)

        /// The section's fields, in the order they are shown.
        package static let fields = ["perNumberPerHour", "perNumberPerDay", "perIPPerHour", "perIPPerDay", "perCountryPerHour", "dailyBudget"]

        /// The section as stored and shown.
        package var json: JSONValue {
            .object([
                "perNumberPerHour": .number(Double(perNumberPerHour)), "perNumberPerDay": .number(Double(perNumberPerDay)),
                "perIPPerHour": .number(Double(perIPPerHour)), "perIPPerDay": .number(Double(perIPPerDay)),
                "perCountryPerHour": .number(Double(perCountryPerHour)), "dailyBudget": .number(Double(dailyBudget)),
            ])
        }
    }

    /// The configured limits, each field falling back to its default.
    package var smsLimits: SMSLimits {
        let section = document["flint"]?["smsLimits"]
        func value(_ field: String, _ fallback: Int64) -> Int64 {
            guard case .number(let n)? = section?[field] else { return fallback }
            return Int64(n)
        }
        let d = SMSLimits.defaults
        var limits = SMSLimits(
            perIPPerHour: value("perIPPerHour", d.perIPPerHour), perIPPerDay: value("perIPPerDay", d.perIPPerDay),
            perCountryPerHour: value("perCountryPerHour", d.perCountryPerHour), dailyBudget: value("dailyBudget", d.dailyBudget))
        (limits.perNumberPerHour, limits.perNumberPerDay) = (
            value("perNumberPerHour", d.perNumberPerHour), value("perNumberPerDay", d.perNumberPerDay)
        )
        return limits
    }

    /// The largest value a limit takes.
    static let maxSMSLimit: Double = 1_000_000_000

    /// Checks `flint.smsLimits`: an object of the known fields, each a whole number from 0 to a billion.
    static func validateSMSLimits(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let section = doc["flint"]?["smsLimits"] else { return }
        guard let object = section.objectValue else { throw invalid("flint.smsLimits must be an object") }
        for (field, value) in object {
            guard SMSLimits.fields.contains(field) else {
                throw invalid("flint.smsLimits takes \(SMSLimits.fields.joined(separator: ", ")); not \(field)")
            }
            guard case .number(let n) = value, n >= 0, n <= maxSMSLimit, n.rounded() == n else {
                throw invalid("flint.smsLimits.\(field) must be a whole number from 0 (off) to 1000000000")
            }
        }
    }

    /// `resource` with the SMS limits in force shown under `flint.smsLimits`, defaults included.
    static func showingSMSLimits(_ resource: [String: JSONValue], _ limits: SMSLimits) -> [String: JSONValue] {
        var out = resource
        var flint = out["flint"]?.objectValue ?? [:]
        flint["smsLimits"] = limits.json
        out["flint"] = .object(flint)
        return out
    }
}

/// Flint's default phone region (`flint.defaultPhoneRegion`, ISO 3166 such as `US`): how the console reads a phone
/// number an operator types in national form (`(650) 555-3434`) when searching users and deliveries. Clients still
/// send international numbers, as Firebase requires.
extension ProjectConfig {
    /// The default phone region, upper case; `nil` when unset (the console then reads international numbers only).
    package var defaultPhoneRegion: String? { document["flint"]?["defaultPhoneRegion"]?.stringValue }

    /// Checks `flint.defaultPhoneRegion` (a region whose calling code Flint knows) and stores it upper case.
    static func normalizedDefaultPhoneRegion(_ doc: [String: JSONValue]) throws(AuthError) -> [String: JSONValue] {
        guard var flint = doc["flint"]?.objectValue, let value = flint["defaultPhoneRegion"] else { return doc }
        guard let region = value.stringValue, region.utf8.count == 2, PhoneNumber.callingCode(ofRegion: region) != nil else {
            throw invalid("flint.defaultPhoneRegion must be a two-letter ISO 3166 region code with a phone calling code, such as US")
        }
        flint["defaultPhoneRegion"] = .string(region.uppercased())
        var out = doc
        out["flint"] = .object(flint)
        return out
    }
}

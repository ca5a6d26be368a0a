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

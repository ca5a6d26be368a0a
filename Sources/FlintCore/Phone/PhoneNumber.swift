/// Why a string is not an acceptable E.164 phone number.
///
/// The server reports every case as Firebase's `INVALID_PHONE_NUMBER : Invalid format.`
/// (or with ``detail`` appended); the cases exist for logs and tests.
package enum PhoneNumberError: Error, Sendable, Equatable {
    /// The input is empty or only whitespace.
    case empty
    /// The input does not start with `+` (national formats are not accepted).
    case missingPlus
    /// The input holds something other than digits and the separators ` -.()`.
    case invalidCharacters
    /// No country calling code matches the leading digits.
    case unknownCountryCode
    /// Too few digits for the country calling code.
    case tooShort
    /// Too many digits for the country calling code, or more than 15 in all.
    case tooLong
    /// A digit count between the shortest and longest lengths that the country does not use.
    case invalidLength

    /// A short machine-style description of the failure, e.g. `TOO_SHORT`.
    package var detail: String {
        switch self {
        case .empty: "EMPTY"
        case .missingPlus: "MISSING_PLUS"
        case .invalidCharacters: "INVALID_CHARACTERS"
        case .unknownCountryCode: "INVALID_COUNTRY_CODE"
        case .tooShort: "TOO_SHORT"
        case .tooLong: "TOO_LONG"
        case .invalidLength: "INVALID_LENGTH"
        }
    }
}

/// A phone number in E.164 form, validated against the national-number lengths
/// of its country calling code.
///
/// Parsing follows Firebase Auth: the input must be international (`+` first);
/// digits may be grouped with spaces, `-`, `.`, `(` and `)`. Encodes and decodes
/// as its E.164 string.
package struct PhoneNumber: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The number in E.164 form, e.g. `+16505553434`.
    package let e164: String
    /// The country calling code, e.g. `1` or `44`.
    package let countryCallingCode: Int
    /// The digits after the calling code, leading zeros kept (e.g. Italian `06…`).
    package let nationalNumber: String

    /// The most specific ISO 3166 region that uses this number, e.g. `US`, `CA`, `GB`;
    /// `nil` for non-geographic calling codes such as `+800`. Best effort: for a shared
    /// calling code, numbers that match no region's plan get the code's main region.
    package var regionCode: String? {
        NumberingPlan.entry(for: countryCallingCode)?.region(of: nationalNumber)
    }

    /// The number with every digit but the last four replaced by `*`, as Firebase
    /// shows enrolled second factors: `+*******1234`.
    package var masked: String {
        let digits = e164.dropFirst()
        let hidden = max(0, digits.count - 4)
        return "+" + String(repeating: "*", count: hidden) + digits.dropFirst(hidden)
    }

    /// The E.164 form.
    package var description: String { e164 }

    /// The maximum number of digits in an E.164 number.
    package static let maximumDigits = 15

    /// Parses an international phone number such as `+1 (650) 555-3434`.
    package init(parsing input: String) throws(PhoneNumberError) {
        let text = Self.trimmingWhitespace(input)
        guard let first = text.first else { throw .empty }
        guard first == "+" else { throw .missingPlus }
        var digits = ""
        for character in text.dropFirst() {
            if let digit = Self.decimalDigit(character) {
                digits.append(digit)
            } else if !Self.separators.contains(character) {
                throw .invalidCharacters
            }
        }
        if digits.isEmpty { throw .tooShort }
        if digits.count > Self.maximumDigits { throw .tooLong }

        guard let (code, entry) = Self.callingCode(of: digits) else {
            throw NumberingPlan.hasCallingCode(startingWith: digits) ? .tooShort : .unknownCountryCode
        }
        let national = String(digits.dropFirst(String(code).count))
        guard entry.lengths.contains(national.count) else {
            if national.count < entry.lengths.min() ?? 0 { throw .tooShort }
            if national.count > entry.lengths.max() ?? Int.max { throw .tooLong }
            throw .invalidLength
        }
        self.e164 = "+" + digits
        self.countryCallingCode = code
        self.nationalNumber = national
    }

    /// Parses a number as someone in `region` (ISO 3166, e.g. `US`) writes it: an international number as
    /// ``init(parsing:)`` does (`+…`, or `00…`), else a national one, such as `(650) 555-3434` in `US` or
    /// `07700 900123` in `GB`, whose trunk prefix (`1` before a ten-digit North American number, a leading `0`
    /// elsewhere except where it belongs to the number, as in Italy) gives way to the region's calling code.
    /// For searches and operator input only: clients must send international numbers, as Firebase requires.
    /// - Throws: ``PhoneNumberError/unknownCountryCode`` when Flint knows no calling code for `region`, else what
    ///   ``init(parsing:)`` throws for the number it makes.
    package init(parsing input: String, region: String) throws(PhoneNumberError) {
        let text = Self.trimmingWhitespace(input)
        if text.hasPrefix("+") {
            try self.init(parsing: String(text))
            return
        }
        if text.hasPrefix("00") {
            try self.init(parsing: "+" + text.dropFirst(2))
            return
        }
        guard let code = NumberingPlan.callingCode(ofRegion: region) else { throw .unknownCountryCode }
        var digits = ""
        for character in text {
            if let digit = Self.decimalDigit(character) {
                digits.append(digit)
            } else if !Self.separators.contains(character) {
                throw .invalidCharacters
            }
        }
        guard !digits.isEmpty else { throw .empty }
        if code == 1, digits.count == 11, digits.hasPrefix("1") {
            digits.removeFirst()
        } else if digits.hasPrefix("0"), !Self.keepsLeadingZero.contains(code) {
            digits.removeFirst()
        }
        try self.init(parsing: "+\(code)" + digits)
    }

    /// The calling code of an ISO 3166 region (`US` → 1, `GB` → 44), case-insensitive; `nil` for a region Flint's
    /// numbering plan does not know.
    package static func callingCode(ofRegion region: String) -> Int? { NumberingPlan.callingCode(ofRegion: region) }

    /// Calling codes whose national numbers keep their leading `0` after the country code (Italy, San Marino, the
    /// Vatican), so it is no trunk prefix there.
    private static let keepsLeadingZero: Set<Int> = [39, 378, 379]

    /// Decodes from an E.164 string (any input accepted by ``init(parsing:)``).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(parsing: string)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Invalid phone number: \(error.detail)")
        }
    }

    /// Encodes as the E.164 string.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(e164)
    }

    // MARK: - Parsing helpers

    /// Characters allowed between digits: spaces (including no-break spaces), `-`, `.`, `(`, `)`.
    private static let separators: Set<Character> = [
        " ", "\u{00A0}", "\u{2009}", "\u{202F}", "-", ".", "(", ")",
    ]

    /// The ASCII digit for a decimal digit of any script (`7`, `٧`, `۷`, `７`), else `nil`.
    private static func decimalDigit(_ character: Character) -> Character? {
        if let ascii = character.asciiValue { return (48...57).contains(ascii) ? character : nil }
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
            scalar.properties.numericType == .decimal,
            let value = character.wholeNumberValue, (0...9).contains(value)
        else { return nil }
        return Character(String(value))
    }

    private static func trimmingWhitespace(_ input: String) -> Substring {
        let start = input.firstIndex { !$0.isWhitespace } ?? input.endIndex
        let end = input.lastIndex { !$0.isWhitespace }.map { input.index(after: $0) } ?? start
        return input[start..<end]
    }

    /// The calling code (1–3 leading digits; codes are prefix-free) and its plan.
    private static func callingCode(of digits: String) -> (Int, NumberingPlan.Entry)? {
        guard !digits.hasPrefix("0") else { return nil }
        for length in 1...min(3, digits.count) {
            if let code = Int(digits.prefix(length)), let entry = NumberingPlan.entry(for: code) {
                return (code, entry)
            }
        }
        return nil
    }
}

// MARK: - Numbering-plan tables

extension NumberingPlan {
    /// What Flint knows about one country calling code.
    struct Entry: Sendable {
        /// Possible national-number lengths.
        var lengths: Set<Int>
        /// ISO regions sharing the code, main region first; empty for non-geographic codes.
        var regions: [String]
        /// National-number prefix → region, for shared codes.
        var prefixes: [Substring: String] = [:]
        var longestPrefix = 0

        /// The region of a national number: the owner of its listed prefix, else the main region.
        func region(of national: String) -> String? {
            guard regions.count > 1 else { return regions.first }
            for length in stride(from: min(longestPrefix, national.count), through: 1, by: -1) {
                if let region = prefixes[national.prefix(length)] { return region }
            }
            return regions.first
        }
    }

    /// The parsed tables, keyed by calling code.
    static let entries: [Int: Entry] = {
        var entries: [Int: Entry] = [:]
        for line in callingCodes.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let code = Int(fields[0]) else { continue }
            let lengths = fields[1].split(separator: ",").compactMap { Int($0) }
            entries[code] = Entry(lengths: Set(lengths), regions: fields.dropFirst(2).map(String.init))
        }
        for line in regionPrefixes.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let code = Int(fields[0]), var entry = entries[code] else { continue }
            let region = String(fields[1])
            for prefix in fields.dropFirst(2) {
                entry.prefixes[prefix] = region
                entry.longestPrefix = max(entry.longestPrefix, prefix.count)
            }
            entries[code] = entry
        }
        return entries
    }()

    static func entry(for code: Int) -> Entry? { entries[code] }

    /// Each region's calling code (a region sharing a code, such as `CA` on `1`, maps to it too).
    static let regionCodes: [String: Int] = {
        var codes: [String: Int] = [:]
        for (code, entry) in entries {
            for region in entry.regions where codes[region] == nil { codes[region] = code }
        }
        return codes
    }()

    /// The calling code of an ISO 3166 region (`US` → 1, `GB` → 44), case-insensitive; `nil` when unknown.
    static func callingCode(ofRegion region: String) -> Int? { regionCodes[region.uppercased()] }

    /// Whether some calling code begins with `digits` (so more digits could make one).
    static func hasCallingCode(startingWith digits: String) -> Bool {
        entries.keys.contains { String($0).hasPrefix(digits) }
    }
}

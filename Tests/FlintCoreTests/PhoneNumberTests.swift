import Foundation
import Testing

@testable import FlintCore

@Suite("Phone numbers")
struct PhoneNumberTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var input: String
        var e164: String
        var code: Int
        var region: String?
        var testDescription: String { input }
    }

    static let valid: [Valid] = [
        .init(input: "+1 650-555-3434", e164: "+16505553434", code: 1, region: "US"),
        .init(input: "+15555550100", e164: "+15555550100", code: 1, region: "US"),
        .init(input: "+1 416 555 0123", e164: "+14165550123", code: 1, region: "CA"),
        .init(input: "+1 787 555 1234", e164: "+17875551234", code: 1, region: "PR"),
        .init(input: "+1 268 464 1234", e164: "+12684641234", code: 1, region: "AG"),
        .init(input: "+44 20 7946 0958", e164: "+442079460958", code: 44, region: "GB"),
        .init(input: "+44 7700 900123", e164: "+447700900123", code: 44, region: "GB"),
        .init(input: "+44 7797 123456", e164: "+447797123456", code: 44, region: "JE"),
        .init(input: "+44 1481 256789", e164: "+441481256789", code: 44, region: "GG"),
        .init(input: "+44 1624 612345", e164: "+441624612345", code: 44, region: "IM"),
        .init(input: "+33 6 12 34 56 78", e164: "+33612345678", code: 33, region: "FR"),
        .init(input: "+33\u{202F}6\u{202F}12\u{202F}34\u{202F}56\u{202F}78", e164: "+33612345678", code: 33, region: "FR"),
        .init(input: "+49 30 123456", e164: "+4930123456", code: 49, region: "DE"),
        .init(input: "+49 1512 3456789", e164: "+4915123456789", code: 49, region: "DE"),
        .init(input: "+34 612 34 56 78", e164: "+34612345678", code: 34, region: "ES"),
        .init(input: "+90 532 123 45 67", e164: "+905321234567", code: 90, region: "TR"),
        .init(input: "+966 50 123 4567", e164: "+966501234567", code: 966, region: "SA"),
        .init(input: "+٩٦٦٥٠١٢٣٤٥٦٧", e164: "+966501234567", code: 966, region: "SA"),
        .init(input: "+971 50 123 4567", e164: "+971501234567", code: 971, region: "AE"),
        .init(input: "+886 912 345 678", e164: "+886912345678", code: 886, region: "TW"),
        .init(input: "+86 138 0013 8000", e164: "+8613800138000", code: 86, region: "CN"),
        .init(input: "+852 5123 4567", e164: "+85251234567", code: 852, region: "HK"),
        .init(input: "+91 98765 43210", e164: "+919876543210", code: 91, region: "IN"),
        .init(input: "+55 11 91234-5678", e164: "+5511912345678", code: 55, region: "BR"),
        .init(input: "+81 90-1234-5678", e164: "+819012345678", code: 81, region: "JP"),
        .init(input: "+82 10-1234-5678", e164: "+821012345678", code: 82, region: "KR"),
        .init(input: "+7 912 345-67-89", e164: "+79123456789", code: 7, region: "RU"),
        .init(input: "+7 701 234 5678", e164: "+77012345678", code: 7, region: "KZ"),
        .init(input: "+234 802 123 4567", e164: "+2348021234567", code: 234, region: "NG"),
        .init(input: "+61 412 345 678", e164: "+61412345678", code: 61, region: "AU"),
        .init(input: "+39 06 1234 5678", e164: "+390612345678", code: 39, region: "IT"),
        .init(input: "+39 06 698 12345", e164: "+390669812345", code: 39, region: "VA"),
        .init(input: "+353 85 123 4567", e164: "+353851234567", code: 353, region: "IE"),
        .init(input: "+358 18 1234567", e164: "+358181234567", code: 358, region: "AX"),
        .init(input: "+262 269 61 23 45", e164: "+262269612345", code: 262, region: "YT"),
        .init(input: "+20 10 01234567", e164: "+201001234567", code: 20, region: "EG"),
        .init(input: "+52 55 1234 5678", e164: "+525512345678", code: 52, region: "MX"),
        .init(input: "+62 812-3456-7890", e164: "+6281234567890", code: 62, region: "ID"),
        .init(input: "+800 1234 5678", e164: "+80012345678", code: 800, region: nil),
    ]

    @Test("Valid numbers parse to E.164 with their calling code and region", arguments: valid)
    func validNumbersParse(_ example: Valid) throws {
        let number = try PhoneNumber(parsing: example.input)
        #expect(number.e164 == example.e164)
        #expect(number.description == example.e164)
        #expect(number.countryCallingCode == example.code)
        #expect("+\(number.countryCallingCode)\(number.nationalNumber)" == example.e164)
        #expect(number.regionCode == example.region)
    }

    @Test(
        "Invalid numbers are rejected with the matching error",
        arguments: [
            ("", PhoneNumberError.empty),
            ("   ", .empty),
            ("+", .tooShort),
            ("16505553434", .missingPlus),
            ("650-555-3434", .missingPlus),
            ("(+1) 650 555 3434", .missingPlus),
            ("+1 650 CALL NOW", .invalidCharacters),
            ("+1 650 555 3434 ext. 12", .invalidCharacters),
            ("++16505553434", .invalidCharacters),
            ("+1 650 555+3434", .invalidCharacters),
            ("+1/650/555/3434", .invalidCharacters),
            ("+½6505553434", .invalidCharacters),
            ("+999 123 4567", .unknownCountryCode),
            ("+0 650 555 3434", .unknownCountryCode),
            ("+01 650 555 3434", .unknownCountryCode),
            ("+4", .tooShort),
            ("+99", .tooShort),
            ("+44", .tooShort),
            ("+1 650 555 343", .tooShort),
            ("+1 650 555 34345", .tooLong),
            ("+33 6 12 34 56 7", .tooShort),
            ("+33 6 12 34 56 789", .tooLong),
            ("+44 20 7946 09581", .tooLong),
            ("+44 20 7946 09", .invalidLength),
            ("+49 1512 3456789 1234", .tooLong),
            ("+1234567890123456", .tooLong),
        ] as [(String, PhoneNumberError)])
    func invalidNumbersAreRejected(_ input: String, _ expected: PhoneNumberError) {
        #expect(throws: expected) { try PhoneNumber(parsing: input) }
    }

    @Test(
        "Formatting variants of one number are equal",
        arguments: [
            "+16505553434", "+1 650-555-3434", "+1 (650) 555-3434", " +1.650.555.3434\n",
            "+1\u{00A0}650\u{00A0}555\u{00A0}3434", "+１６５０５５５３４３４",
        ])
    func formattingVariantsAreEqual(_ input: String) throws {
        let number = try PhoneNumber(parsing: input)
        #expect(number == (try PhoneNumber(parsing: "+16505553434")))
        #expect(number.e164 == "+16505553434")
        #expect(number.nationalNumber == "6505553434")
    }

    @Test(
        "Masking hides every digit but the last four",
        arguments: [
            ("+15555550100", "+*******0100"),
            ("+1 650-555-3434", "+*******3434"),
            ("+44 20 7946 0958", "+********0958"),
            ("+290 1234", "+***1234"),
        ])
    func maskingKeepsTheLastFourDigits(_ input: String, _ expected: String) throws {
        #expect(try PhoneNumber(parsing: input).masked == expected)
    }

    @Test(
        "Every error has a short detail",
        arguments: [
            PhoneNumberError.empty, .missingPlus, .invalidCharacters, .unknownCountryCode,
            .tooShort, .tooLong, .invalidLength,
        ])
    func errorsHaveDetails(_ error: PhoneNumberError) {
        #expect(!error.detail.isEmpty)
        #expect(error.detail == error.detail.uppercased())
    }

    @Test("Phone numbers round-trip through Codable as their E.164 string")
    func codableUsesTheE164String() throws {
        let number = try PhoneNumber(parsing: "+44 20 7946 0958")
        let data = try JSONEncoder().encode([number])
        #expect(String(decoding: data, as: UTF8.self) == #"["+442079460958"]"#)
        #expect(try JSONDecoder().decode([PhoneNumber].self, from: data) == [number])
        let formatted = Data(#"["+44 (20) 7946-0958"]"#.utf8)
        #expect(try JSONDecoder().decode([PhoneNumber].self, from: formatted) == [number])
        let bad = Data(#"["+44 20"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PhoneNumber].self, from: bad) }
    }

    @Test("Every calling code in the plan has lengths and a sane shape")
    func numberingPlanIsWellFormed() {
        let entries = NumberingPlan.entries
        #expect(entries.count > 200)
        #expect(entries[1]?.lengths == [10])
        #expect(entries[1]?.regions.first == "US")
        #expect(entries[44]?.regions.first == "GB")
        #expect(entries[7]?.regions == ["RU", "KZ"])
        #expect(entries[800]?.regions == [])
        for (code, entry) in entries {
            #expect((1...999).contains(code))
            #expect(!entry.lengths.isEmpty)
            #expect(entry.lengths.allSatisfy { $0 >= 2 && String(code).count + $0 <= PhoneNumber.maximumDigits })
            #expect(entry.prefixes.values.allSatisfy { entry.regions.dropFirst().contains($0) })
        }
    }

    @Test(
        "A number written as in a region reads as that region's number: its trunk prefix gives way to the calling code",
        arguments: [
            ("(650) 555-3434", "US", "+16505553434"), ("1 650 555 3434", "US", "+16505553434"), ("650.555.3434", "ca", "+16505553434"),
            ("07700 900123", "GB", "+447700900123"), ("06 12 34 56 78", "FR", "+33612345678"), ("030 1234567", "DE", "+49301234567"),
            ("06 1234 5678", "IT", "+390612345678"), ("+44 7700 900123", "US", "+447700900123"), ("0044 7700 900123", "US", "+447700900123"),
        ])
    func nationalNumbers(_ input: String, _ region: String, _ e164: String) throws {
        #expect(try PhoneNumber(parsing: input, region: region).e164 == e164)
    }

    @Test("A national number in an unknown region, or one too short for its region, is refused")
    func nationalRefusals() {
        #expect(throws: PhoneNumberError.unknownCountryCode) { try PhoneNumber(parsing: "650 555 3434", region: "ZZ") }
        #expect(throws: PhoneNumberError.tooShort) { try PhoneNumber(parsing: "555 34", region: "US") }
        #expect(throws: PhoneNumberError.invalidCharacters) { try PhoneNumber(parsing: "650 555 CALL", region: "US") }
        #expect(PhoneNumber.callingCode(ofRegion: "gb") == 44 && PhoneNumber.callingCode(ofRegion: "CA") == 1)
    }
}

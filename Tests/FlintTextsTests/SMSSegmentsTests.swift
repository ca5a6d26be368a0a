import Testing

@testable import FlintTexts

@Suite("SMS segments")
struct SMSSegmentsTests {
    @Test(
        "A text is counted in GSM-7 septets (extension characters twice) or else in UTF-16 units, then in segments",
        arguments: [
            ("", SMSSegments.Encoding.gsm7, 0, 1),
            ("123456 is your code for Acme.", .gsm7, 29, 1),
            (String(repeating: "a", count: 160), .gsm7, 160, 1),
            (String(repeating: "a", count: 161), .gsm7, 161, 2),
            (String(repeating: "a", count: 306), .gsm7, 306, 2),
            (String(repeating: "a", count: 307), .gsm7, 307, 3),
            ("{code} €", .gsm7, 11, 1),
            ("Ihr Bestätigungscode für Acme: ÄÖÜ", .gsm7, 34, 1),
            ("123456 — ваш код", .ucs2, 16, 1),
            (String(repeating: "é", count: 70) + "ç", .ucs2, 71, 2),
            ("您的 Acme 验证码为 123456。", .ucs2, 20, 1),
            ("😀", .ucs2, 2, 1),
        ] as [(String, SMSSegments.Encoding, Int, Int)])
    func segments(text: String, encoding: SMSSegments.Encoding, units: Int, count: Int) {
        let segments = SMSSegments(text)
        #expect(segments.encoding == encoding && segments.units == units && segments.count == count)
    }

    /// pt-BR's enrolment text ("…verificação em duas etapas…") is the one built-in text that takes two UCS-2 segments.
    @Test("With a six-digit code and a short app name, every built-in sign-in text fits one segment, every other two")
    func builtInTextsFitFewSegments() {
        for (locale, texts) in SMSTemplates.builtIn.templates {
            for (purpose, text) in texts {
                let rendered = text.replacing("{code}", with: "123456").replacing("{app}", with: "Acme")
                #expect(SMSSegments(rendered).count <= (purpose == .mfaEnrollment ? 2 : 1), "\(locale) \(purpose)")
            }
        }
    }
}

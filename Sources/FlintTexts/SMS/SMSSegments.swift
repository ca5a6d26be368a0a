/// How many SMS segments a text takes, as carriers count them (3GPP TS 23.038 and 23.040): a text written only in the
/// GSM 7-bit default alphabet (and its extension table, whose characters count twice) goes as GSM-7, 160 septets in one
/// segment or 153 in each part of a concatenated message; any other text goes as UCS-2, 70 UTF-16 code units in one
/// segment or 67 in each part.
package struct SMSSegments: Sendable, Equatable {
    /// The encoding a text is sent in.
    package enum Encoding: String, Sendable {
        case gsm7 = "GSM-7"
        case ucs2 = "UCS-2"
    }

    package let encoding: Encoding
    /// The text's length in the encoding's units: septets (GSM-7) or UTF-16 code units (UCS-2).
    package let units: Int
    /// The segments the text takes (1 for an empty text).
    package let count: Int

    /// The segments of `text`.
    package init(_ text: String) {
        var septets = 0
        var gsm = true
        for scalar in text.unicodeScalars {
            if Self.basic.contains(scalar) {
                septets += 1
            } else if Self.extended.contains(scalar) {
                septets += 2
            } else {
                gsm = false
                break
            }
        }
        if gsm {
            (encoding, units) = (.gsm7, septets)
            count = septets <= 160 ? 1 : (septets + 152) / 153
        } else {
            (encoding, units) = (.ucs2, text.utf16.count)
            count = units <= 70 ? 1 : (units + 66) / 67
        }
    }

    /// The GSM 7-bit default alphabet.
    private static let basic = Set(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
            .unicodeScalars)
    /// The extension table's characters, each sent as an escape and the character (two septets).
    private static let extended = Set("\u{0C}^{}\\[~]|€".unicodeScalars)
}

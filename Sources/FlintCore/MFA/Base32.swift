/// Base32 (RFC 4648 §6), the encoding of TOTP secrets in `otpauth://` URLs and manual-entry keys.
package enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Encodes bytes in upper-case Base32 without `=` padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for b in bytes {
            buffer = buffer << 8 | UInt32(b)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int(buffer >> UInt32(bits) & 31)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes Base32 in either case, ignoring spaces and `=`; `nil` for other characters or a length no encoding
    /// produces (1, 3 or 6 characters past a multiple of 8).
    package static func decode(_ text: String) -> [UInt8]? {
        var packer = BitPacker(bitsPerDigit: 5)
        var count = 0
        for c in text.utf8 {
            let value: UInt8
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "="): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = c - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = c - UInt8(ascii: "a")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = c - UInt8(ascii: "2") + 26
            default: return nil
            }
            count += 1
            packer.append(value)
        }
        guard ![1, 3, 6].contains(count % 8) else { return nil }
        return packer.bytes
    }
}

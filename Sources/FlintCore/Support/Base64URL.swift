#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Unpadded base64url (RFC 4648 §5), as used in JWTs and Flint's opaque handles.
package enum Base64URL {
    /// Encodes bytes without padding.
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let standard = Data(bytes).base64EncodedString()
        var out = [UInt8]()
        out.reserveCapacity(standard.utf8.count)
        for c in standard.utf8 {
            switch c {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded or padded base64url; `nil` for anything else.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var chars = [UInt8]()
        chars.reserveCapacity(text.utf8.count + 2)
        for c in text.utf8 {
            guard isAlphabet(c) else { return nil }
            chars.append(c == UInt8(ascii: "-") ? UInt8(ascii: "+") : c == UInt8(ascii: "_") ? UInt8(ascii: "/") : c)
        }
        switch chars.count % 4 {
        case 0: break
        case 2: chars += [61, 61]
        case 3: chars += [61]
        default: return nil
        }
        guard let data = Data(base64Encoded: Data(chars)) else { return nil }
        return [UInt8](data)
    }

    /// Decodes canonical unpadded base64url only, as Flint writes its own secrets (refresh tokens, `sessionInfo`
    /// handles, sealed tokens, its ID tokens): no padding, no length that leaves a lone character, and zero bits in
    /// the last character's unused low bits. So one value has exactly one spelling, and a token re-encoded with a
    /// sibling last character (`…A` for `…B`) is not one of ours. `nil` for anything else.
    package static func decodeCanonical(_ text: some StringProtocol) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        var count = 0
        for c in text.utf8 {
            guard let value = sextet(c) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            count += 1
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // A lone last character carries fewer than 8 bits; the unused bits of a last partial group must be zero.
        guard count % 4 != 1, buffer == 0 else { return nil }
        return out
    }

    private static func sextet(_ c: UInt8) -> UInt8? {
        switch c {
        case 65...90: c - 65
        case 97...122: c - 71
        case 48...57: c + 4
        case 45: 62
        case 95: 63
        default: nil
        }
    }

    private static func isAlphabet(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }
}

/// Lower-case hexadecimal.
package enum Hex {
    /// Encodes bytes as lower-case hex.
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (either case); `nil` for anything else.
    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}

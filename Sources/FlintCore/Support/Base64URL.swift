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

    /// Decodes base64url, padded or not, ignoring set bits in the last character's unused low bits (as decoders
    /// commonly do: for providers' tokens and imported values); `nil` for a character outside the alphabet, padding
    /// that does not complete a group of four, or a lone last character. Flint's own secrets are read with
    /// ``decodeCanonical(_:)``.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        let padding = utf8.reversed().prefix(while: { $0 == UInt8(ascii: "=") }).count
        guard padding == 0 || (padding <= 2 && utf8.count % 4 == 0) else { return nil }
        return decoded(utf8.dropLast(padding), canonical: false)
    }

    /// Decodes canonical unpadded base64url only, as Flint writes its own secrets (refresh tokens, `sessionInfo`
    /// handles, sealed tokens, its ID tokens): as ``decode(_:)``, and the last character's unused low bits must be
    /// zero. So one value has exactly one spelling, and a token re-encoded with a sibling last character (`…A` for
    /// `…B`) is not one of ours. `nil` for anything else, padding included.
    package static func decodeCanonical(_ text: some StringProtocol) -> [UInt8]? {
        decoded(text.utf8, canonical: true)
    }

    private static func decoded(_ chars: some Collection<UInt8>, canonical: Bool) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(chars.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        var count = 0
        for c in chars {
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
        // A lone last character carries fewer than 8 bits; what a last partial group leaves over is its unused bits.
        guard count % 4 != 1, !canonical || buffer == 0 else { return nil }
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

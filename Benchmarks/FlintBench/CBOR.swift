/// The few CBOR items (RFC 8949) a software authenticator writes: integers, byte and text strings, and maps, in the
/// order given (an authenticator's own order; the server's decoder must not depend on it).
indirect enum CBORItem {
    case unsigned(UInt64)
    case negative(Int64)
    case bytes([UInt8])
    case text(String)
    case map([(CBORItem, CBORItem)])

    /// An integer, signed or not.
    static func int(_ value: Int64) -> CBORItem { value >= 0 ? .unsigned(UInt64(value)) : .negative(value) }

    /// The item's encoding (definite lengths, shortest heads).
    var encoded: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .unsigned(let value):
            Self.head(0, value, into: &out)
        case .negative(let value):
            Self.head(1, UInt64(-1 - value), into: &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            Self.head(3, UInt64(text.utf8.count), into: &out)
            out += Array(text.utf8)
        case .map(let pairs):
            Self.head(5, UInt64(pairs.count), into: &out)
            for (key, value) in pairs {
                key.append(to: &out)
                value.append(to: &out)
            }
        }
    }

    /// A major type with its argument in the shortest form.
    private static func head(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xFF:
            out += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF:
            out += [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)]
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        default:
            out.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        }
    }
}

package import FlintCore

extension CBOR {
    /// The item in CBOR's preferred (shortest) encoding, map pairs in their given order: what tests build attestation
    /// objects and COSE keys with.
    package var encoded: [UInt8] {
        switch self {
        case .unsigned(let n): Self.head(0, n)
        case .negative(let n): Self.head(1, n)
        case .bytes(let b): Self.head(2, UInt64(b.count)) + b
        case .text(let t): Self.head(3, UInt64(t.utf8.count)) + Array(t.utf8)
        case .array(let items): Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let pairs): Self.head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0.encoded + $0.1.encoded }
        case .bool(let b): [b ? 0xf5 : 0xf4]
        case .null: [0xf6]
        }
    }

    /// A signed integer item.
    package static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: return [type | 24, UInt8(argument)]
        case 0x100...0xffff: return [type | 25] + bigEndian(argument, 2)
        case 0x1_0000...0xffff_ffff: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    private static func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

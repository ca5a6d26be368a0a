/// Packs the digits of a power-of-two base (5 bits each for Base32, 6 for bcrypt's base64) into bytes, most
/// significant bit first; the bits left over that do not fill a byte are dropped, as the decoders of both want.
struct BitPacker {
    /// The bytes packed so far.
    private(set) var bytes: [UInt8] = []
    private let bitsPerDigit: Int
    private var buffer: UInt32 = 0
    private var held = 0

    /// A packer of digits of `bitsPerDigit` bits (at most 8).
    init(bitsPerDigit: Int) { self.bitsPerDigit = bitsPerDigit }

    /// Appends one digit, below `1 << bitsPerDigit`.
    mutating func append(_ digit: UInt8) {
        buffer = buffer << UInt32(bitsPerDigit) | UInt32(digit)
        held += bitsPerDigit
        if held >= 8 {
            held -= 8
            bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(held)))
            buffer &= (1 << UInt32(held)) - 1
        }
    }
}

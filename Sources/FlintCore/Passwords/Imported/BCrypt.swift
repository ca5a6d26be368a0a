/// bcrypt (Provos and Mazières, 1999) as OpenBSD computes it, to check imported `$2a$`, `$2b$` and `$2y$` strings.
///
/// The password is read as C reads it: up to its first NUL byte, then at most 72 bytes; shorter passwords are
/// keyed with their terminating NUL. `$2a$` and `$2y$` compute what `$2b$` does (OpenBSD's old `$2a$` wrapped the
/// length of passwords of 255 bytes and more; that bug is not reproduced).
enum BCrypt {
    /// The costs (log2 of the key expansion rounds) a string may carry.
    static let costs = 4...31

    /// The highest cost Flint imports and checks: each step doubles the work, and cost 14 took 1.5 s for one check
    /// on one core of the 2-core build machine under load (cost 10: 0.09 s), while cost 31 would take weeks.
    static let maximumCost = 14

    /// The parts of a modular-crypt string `$2b$10$<22 characters of salt><31 characters of hash>`.
    struct ModularCrypt: Equatable {
        /// log2 of the rounds.
        var cost: Int
        /// The 16 bytes of salt.
        var salt: [UInt8]
        /// The first 23 bytes of the 24-byte ciphertext.
        var hash: [UInt8]
    }

    /// Parses a 60-byte modular-crypt string; `nil` for anything else.
    static func parse(_ text: [UInt8]) -> ModularCrypt? {
        guard text.count == 60, text[0] == dollar, text[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(text[2]), text[3] == dollar, text[6] == dollar,
            let tens = digit(text[4]), let units = digit(text[5]), costs.contains(tens * 10 + units),
            let salt = decode(text[7..<29], count: 16), let hash = decode(text[29..<60], count: 23)
        else { return nil }
        return ModularCrypt(cost: tens * 10 + units, salt: salt, hash: hash)
    }

    /// Whether `password` produced the modular-crypt string `modularCrypt`; comparison in constant time. A cost above
    /// ``maximumCost`` never matches, and nothing is computed for it.
    static func verify(password: [UInt8], modularCrypt: [UInt8]) -> Bool {
        guard let parsed = parse(modularCrypt), parsed.cost <= maximumCost else { return false }
        let derived = hash(password: password, salt: parsed.salt, cost: parsed.cost)
        return constantTimeEquals(Array(derived[0..<23]), parsed.hash)
    }

    /// The 24 bytes bcrypt derives (its encoded form keeps the first 23).
    static func hash(password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        precondition(salt.count == 16 && costs.contains(cost))
        let key = keyBytes(password)
        let keyWords = (0..<18).map { word(key, at: $0) }
        let saltWords = (0..<4).map { word(salt, at: $0) }
        let saltAsKey = (0..<18).map { saltWords[$0 % 4] }

        var state = BlowfishState()
        state.expand(key: keyWords, salt: saltWords)
        for _ in 0..<(1 << cost) {
            state.expand(key: keyWords, salt: nil)
            state.expand(key: saltAsKey, salt: nil)
        }
        var text = (0..<6).map { word(Array("OrpheanBeholderScryDoubt".utf8), at: $0) }
        for _ in 0..<64 {
            for i in stride(from: 0, to: 6, by: 2) {
                var (l, r) = (text[i], text[i + 1])
                state.encrypt(&l, &r)
                (text[i], text[i + 1]) = (l, r)
            }
        }
        return text.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xff), UInt8($0 >> 8 & 0xff), UInt8($0 & 0xff)] }
    }

    /// The key schedule's input: the bytes before the first NUL, cut at 72, else followed by one NUL.
    static func keyBytes(_ password: [UInt8]) -> [UInt8] {
        let text = password.prefix { $0 != 0 }
        return text.count >= 72 ? Array(text.prefix(72)) : Array(text) + [0]
    }

    /// The big-endian word at word index `index` of `bytes` read cyclically (Blowfish's `stream2word`).
    private static func word(_ bytes: [UInt8], at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[(index * 4 + $1) % bytes.count]) }
    }

    private static let dollar = UInt8(ascii: "$")

    private static func digit(_ c: UInt8) -> Int? {
        (48...57).contains(c) ? Int(c - 48) : nil
    }

    /// bcrypt's base64: alphabet `./A-Za-z0-9`, no padding; bits past `count` bytes are ignored.
    static func decode(_ chars: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        var packer = BitPacker(bitsPerDigit: 6)
        for c in chars {
            guard let value = alphabetValue(c) else { return nil }
            packer.append(value)
        }
        return packer.bytes.count >= count ? Array(packer.bytes.prefix(count)) : nil
    }

    private static func alphabetValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "."): 0
        case UInt8(ascii: "/"): 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - 65 + 2
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - 97 + 28
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - 48 + 54
        default: nil
        }
    }
}

/// Blowfish's P-array and S-boxes, with the expensive key schedule of bcrypt's EksBlowfish.
private struct BlowfishState {
    /// P[0..<18], then S0, S1, S2, S3 (256 words each).
    var words = blowfishInitialState

    /// Blowfish's key expansion, XOR-ing `key` (18 words) into the P-array; with `salt` (4 words), EksBlowfish's
    /// salted expansion, which XORs the salt words, cyclically, into each block before it is encrypted.
    mutating func expand(key: [UInt32], salt: [UInt32]?) {
        words.withUnsafeMutableBufferPointer { s in
            for i in 0..<18 { s[i] ^= key[i] }
            var l: UInt32 = 0
            var r: UInt32 = 0
            var next = 0
            for i in stride(from: 0, to: s.count, by: 2) {
                if let salt {
                    l ^= salt[next]
                    r ^= salt[next + 1]
                    next ^= 2
                }
                Self.encrypt(s, &l, &r)
                s[i] = l
                s[i + 1] = r
            }
        }
    }

    /// Encrypts one 64-bit block, its halves in place.
    mutating func encrypt(_ l: inout UInt32, _ r: inout UInt32) {
        words.withUnsafeMutableBufferPointer { Self.encrypt($0, &l, &r) }
    }

    private static func encrypt(_ s: UnsafeMutableBufferPointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        var l = left
        var r = right
        for i in stride(from: 0, to: 16, by: 2) {
            l ^= s[i]
            r ^= f(s, l)
            r ^= s[i + 1]
            l ^= f(s, r)
        }
        left = r ^ s[17]
        right = l ^ s[16]
    }

    @inline(__always)
    private static func f(_ s: UnsafeMutableBufferPointer<UInt32>, _ x: UInt32) -> UInt32 {
        let a = s[18 + Int(x >> 24)]
        let b = s[274 + Int(x >> 16 & 0xff)]
        let c = s[530 + Int(x >> 8 & 0xff)]
        let d = s[786 + Int(x & 0xff)]
        return ((a &+ b) ^ c) &+ d
    }
}

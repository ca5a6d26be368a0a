import Crypto

/// The k-anonymity range format of breached-password corpora (Have I Been Pwned's "range" API and its downloads): a
/// password's SHA-1, in upper-case hex, splits into a 5-character prefix, which names a range, and a 35-character
/// suffix; a range is lines of `SUFFIX:COUNT` (how often the password was seen), CRLF or LF. Only the prefix ever
/// leaves the node, and only to a configured endpoint. Padding lines (count 0) count as absent.
package enum BreachRange {
    /// The range prefix and the suffix looked up in it, for `password` (its UTF-8 bytes).
    package static func split(_ password: String) -> (prefix: String, suffix: String) {
        let hex = Hex.encode(Array(Insecure.SHA1.hash(data: Array(password.utf8)))).uppercased()
        return (String(hex.prefix(5)), String(hex.dropFirst(5)))
    }

    /// How often `suffix` was seen according to the range `text` (0 when it is not listed).
    package static func count(of suffix: String, in text: some Sequence<UInt8>) -> Int {
        let wanted = Array(suffix.uppercased().utf8)
        var line: [UInt8] = []
        func match() -> Int? {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = line[..<colon].map { ($0 >= 97 && $0 <= 122) ? $0 - 32 : $0 }
            guard name == wanted else { return nil }
            let digits = line[(colon + 1)...].filter { $0 != 13 && $0 != 32 }
            return Int(String(decoding: digits, as: UTF8.self)) ?? 0
        }
        for byte in text {
            if byte == 10 {
                if let found = match() { return found }
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        return match() ?? 0
    }
}

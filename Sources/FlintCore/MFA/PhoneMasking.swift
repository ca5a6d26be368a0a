/// How a phone second factor is shown before the user has proven it (`mfaInfo[].phoneInfo` in sign-in responses).
package enum PhoneMasking {
    /// Firebase's hint masking: every ASCII digit but the last four becomes `*`, everything else stays
    /// (`+15555550100` → `+*******0100`). A number with four digits or fewer is returned as is.
    package static func mask(_ e164: String) -> String {
        let digitCount = e164.utf8.count { $0 >= 48 && $0 <= 57 }
        var seen = 0
        var out: [UInt8] = []
        out.reserveCapacity(e164.utf8.count)
        for c in e164.utf8 {
            if c >= 48 && c <= 57 {
                seen += 1
                out.append(seen <= digitCount - 4 ? UInt8(ascii: "*") : c)
            } else {
                out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

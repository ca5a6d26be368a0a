extension TOTP {
    /// The `otpauth://` URL that authenticator apps read from a QR code (Google Authenticator's key URI format):
    /// `otpauth://totp/{issuer}:{account}?secret=…&issuer=…&algorithm=…&digits=…&period=…`, with the label and
    /// query values percent-encoded and the secret in unpadded Base32.
    package static func otpauthURL(secret: [UInt8], accountName: String, issuer: String, parameters: TOTPParameters) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(accountName)
        let query = [
            "secret=" + Base32.encode(secret),
            "issuer=" + percentEncoded(issuer),
            "algorithm=" + parameters.algorithm.rawValue,
            "digits=\(parameters.digits)",
            "period=\(parameters.period)",
        ]
        return "otpauth://totp/" + label + "?" + query.joined(separator: "&")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters (so spaces become `%20`, not `+`).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

import Crypto

/// Named admin credentials' secrets: `flint_` + 43 base64url characters (32 random bytes), shown once and stored as
/// their SHA-256 only. They are random, so a fast hash suffices: nothing short enough to guess hides behind it.
package enum AdminSecret {
    /// What every secret starts with, so secret scanners and people recognize one.
    package static let prefix = "flint_"

    /// A new secret.
    package static func generate(random: some RandomSource) -> String { prefix + Base64URL.encode(random.bytes(32)) }

    /// The stored form of `secret`: hex SHA-256.
    package static func hash(_ secret: String) -> String { Hex.encode(SHA256.hash(data: Array(secret.utf8))) }
}

/// The names operators give service accounts and admin credentials: 1 to 63 lowercase ASCII letters, digits and
/// hyphens, starting with a letter and not ending with a hyphen (a service account's name becomes the local part of
/// its `client_email`).
package enum CredentialName {
    /// Whether `name` is a valid name.
    package static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
            bytes.last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// What a valid name looks like, for error messages.
    package static let rule = "1 to 63 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen"
}

import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The stored form of a secret sealed with a ``MasterKey``: `sealed:v1:KEYID:BASE64`, where BASE64 is an
/// AES-256-GCM box (nonce ‖ ciphertext ‖ tag) whose associated data is the envelope's header and the name of what it
/// holds (`signing-key:KID`, `server-secret`), so an envelope copied onto another row does not open there.
/// Values stored before encryption at rest (a PEM, base64) are told apart by the prefix and read as they are.
package enum SealedSecret {
    /// The prefix of every sealed value.
    static let prefix = "sealed:v1:"

    /// Whether a stored value is sealed (else it is a value kept in clear by an older store).
    package static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// The ID of the master key that sealed `stored`, or `nil` for a value in clear.
    package static func keyID(of stored: String) -> String? {
        guard isSealed(stored) else { return nil }
        return stored.dropFirst(prefix.count).split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    /// Seals `plaintext`, naming it `name` in the associated data.
    package static func seal(_ plaintext: [UInt8], name: String, with key: MasterKey) throws -> String {
        let header = prefix + key.id + ":"
        let box = try AES.GCM.seal(plaintext, using: key.key, authenticating: Array((header + name).utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return header + Data(combined).base64EncodedString()
    }

    /// The plaintext of a stored value: a sealed one opened with `key`, one in clear as it is.
    /// - Throws: ``MasterKeyError/wrongKey(stored:given:)`` when it was sealed with another key (or none is given),
    ///   ``MasterKeyError/damaged(_:)`` when it does not open with its own key.
    package static func open(_ stored: String, name: String, with key: MasterKey?) throws -> [UInt8] {
        guard let storedID = keyID(of: stored) else { return Array(stored.utf8) }
        guard let key, key.id == storedID else { throw MasterKeyError.wrongKey(stored: storedID, given: key?.id) }
        let header = prefix + key.id + ":"
        guard let bytes = Data(base64Encoded: String(stored.dropFirst(header.count))),
            let box = try? AES.GCM.SealedBox(combined: bytes),
            let plain = try? AES.GCM.open(box, using: key.key, authenticating: Array((header + name).utf8))
        else { throw MasterKeyError.damaged(name) }
        return Array(plain)
    }
}

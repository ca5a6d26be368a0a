import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The operator's key that seals the secrets Flint keeps in its store (signing private keys, the server secret):
/// 32 bytes, given as base64 (`FLINT_MASTER_KEY`, `--master-key-file`). It is never stored beside them, so a copy of
/// the database alone yields no usable signing key.
public struct MasterKey: Sendable {
    /// The AES-256 key.
    let key: SymmetricKey
    /// A short public name of the key (16 hex digits), written into every envelope it seals: it tells a wrong key
    /// from a damaged envelope and says which key a store needs, without revealing the key.
    public let id: String

    /// A key from its 32 bytes.
    /// - Throws: ``MasterKeyError/invalid(_:)`` for any other length.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else { throw MasterKeyError.invalid("a master key is 32 bytes, this one is \(bytes.count)") }
        key = SymmetricKey(data: bytes)
        let name = HMAC<SHA256>.authenticationCode(for: Array("flint master key id v1".utf8), using: key)
        id = Hex.encode(Array(Array(name).prefix(8)))
    }

    /// A key from its base64 text (standard or URL alphabet, surrounding white space ignored), as
    /// `flint keys master-key` prints it.
    /// - Throws: ``MasterKeyError/invalid(_:)`` when the text is not base64 of 32 bytes.
    public init(base64 text: String) throws {
        let trimmed = String(text.filter { !$0.isWhitespace })
        guard let bytes = Data(base64Encoded: trimmed).map({ [UInt8]($0) }) ?? Base64URL.decode(trimmed) else {
            throw MasterKeyError.invalid("a master key is base64 text (make one with `flint keys master-key`)")
        }
        try self.init(bytes: bytes)
    }

    /// A new random key.
    public static func generate(random: any RandomSource = SystemRandom()) -> MasterKey {
        // 32 bytes is the one length `init(bytes:)` accepts.
        guard let key = try? MasterKey(bytes: random.bytes(32)) else { preconditionFailure("32 random bytes make a key") }
        return key
    }

    /// The key as base64 text, what `FLINT_MASTER_KEY` and a key file hold.
    public var base64: String { key.withUnsafeBytes { Data($0).base64EncodedString() } }
}

extension MasterKey: CustomStringConvertible {
    /// Its ID only, never the key.
    public var description: String { "MasterKey(\(id))" }
}

/// Why a master key or a sealed secret could not be used; `description` says what to do.
public enum MasterKeyError: Error, Equatable, CustomStringConvertible {
    /// The key text or file is malformed.
    case invalid(String)
    /// The store's secrets are sealed with the key named `stored`; the key given is `given` (`nil`: none given).
    case wrongKey(stored: String, given: String?)
    /// An envelope sealed with this key does not open: the stored value was altered or belongs to another row.
    case damaged(String)

    public var description: String {
        switch self {
        case .invalid(let reason): return "invalid master key: \(reason)"
        case .wrongKey(let stored, let given?):
            return
                "wrong master key: the store's secrets are sealed with master key \(stored), this node was given master key \(given); give every node the key the store was sealed with (FLINT_MASTER_KEY or --master-key-file)"
        case .wrongKey(let stored, nil):
            return
                "no master key: the store's secrets are sealed with master key \(stored); give it with FLINT_MASTER_KEY or --master-key-file"
        case .damaged(let what):
            return "the sealed \(what) does not open with the right master key: the stored value was altered"
        }
    }
}

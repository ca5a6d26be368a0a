import Crypto

/// The envelope of Flint's stateless MFA strings (`mfaPendingCredential`, TOTP `sessionInfo`): base64url of a
/// version byte, a kind byte and an AES-256-GCM box (nonce ‖ ciphertext ‖ tag) whose associated data is those two
/// bytes. The payload is encrypted, not just signed, so a client learns nothing from it; the kind byte in the
/// associated data means one kind of string can never be opened as another.
enum SealedToken {
    /// The envelope version.
    static let version: UInt8 = 1
    /// Longest text `open` looks at; real tokens are a few hundred characters.
    static let maxTextLength = 2048
    /// Longest pending credential `open` looks at: one carrying ``MFAPendingCredential/maxCarriedBytes`` of a first
    /// factor's claims and facts, with 1 KiB for its other fields, in base64url.
    static let maxPendingCredentialLength = (MFAPendingCredential.maxCarriedBytes + 1024) * 4 / 3

    /// Longest text of `kind` that `open` looks at.
    static func maxTextLength(of kind: Kind) -> Int {
        kind == .mfaPendingCredential ? maxPendingCredentialLength : maxTextLength
    }

    /// What a sealed string stands for.
    enum Kind: UInt8 {
        case mfaPendingCredential = 1
        case totpEnrollmentSession = 2
        /// A `verifyClient` receipt (app verification by silent push).
        case appReceipt = 3
        /// A `recaptchaToken` issued by Flint's own web challenge.
        case challengeToken = 4
        /// The proof-of-work challenge embedded in the web challenge page.
        case challengePuzzle = 5
        /// A `signInWithIdp` `pendingToken`: a verified provider identity to present again.
        case idpPendingToken = 6
        /// A WebAuthn challenge issued by `passkeyEnrollment:start` or `passkeySignIn:start`.
        case passkeyChallenge = 7
        /// The `state` of a provider authorization request the hosted handler (`/__/auth/handler`) started.
        case redirectState = 8
        /// An OAuth 1.0a request token and its secret, kept by the browser between the hosted handler's start and the
        /// provider's callback (Twitter).
        case oauthRequestToken = 9
    }

    /// Encrypts `payload` under `key`.
    /// - Throws: `CryptoKitError` when `key` is not a valid AES key size.
    static func seal(_ payload: [UInt8], kind: Kind, key: SymmetricKey) throws -> String {
        let header = [version, kind.rawValue]
        let box = try AES.GCM.seal(payload, using: key, authenticating: header)
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Base64URL.encode(header + Array(combined))
    }

    /// Decrypts a string made by ``seal(_:kind:key:)`` with the same kind and key; `nil` for anything else.
    static func open(_ text: String, kind: Kind, key: SymmetricKey) -> [UInt8]? {
        guard text.utf8.count <= maxTextLength(of: kind), let raw = Base64URL.decodeCanonical(text), raw.count >= 2 + 12 + 16 else { return nil }
        let header = [version, kind.rawValue]
        guard raw[0] == header[0], raw[1] == header[1] else { return nil }
        guard let box = try? AES.GCM.SealedBox(combined: raw[2...]),
            let plain = try? AES.GCM.open(box, using: key, authenticating: header)
        else { return nil }
        return Array(plain)
    }
}

/// Writes the compact binary payloads of sealed tokens: big-endian integers and length-prefixed byte strings.
struct PayloadWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ value: Int64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends a byte string prefixed by its 16-bit length (longer input is cut to 65 535 bytes).
    mutating func append(_ data: [UInt8]) {
        let count = min(data.count, Int(UInt16.max))
        bytes += [UInt8(count >> 8), UInt8(count & 0xff)]
        bytes += data.prefix(count)
    }

    mutating func append(_ text: String) {
        append(Array(text.utf8))
    }
}

/// Reads what ``PayloadWriter`` wrote; every read is `nil` past the end.
struct PayloadReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == bytes.count }

    mutating func int64() -> Int64? {
        guard bytes.count - position >= 8 else { return nil }
        var value: UInt64 = 0
        for b in bytes[position..<position + 8] { value = value << 8 | UInt64(b) }
        position += 8
        return Int64(bitPattern: value)
    }

    mutating func data() -> [UInt8]? {
        guard bytes.count - position >= 2 else { return nil }
        let count = Int(bytes[position]) << 8 | Int(bytes[position + 1])
        guard bytes.count - position - 2 >= count else { return nil }
        let out = Array(bytes[position + 2..<position + 2 + count])
        position += 2 + count
        return out
    }

    mutating func string() -> String? {
        data().flatMap { String(validating: $0, as: UTF8.self) }
    }
}

package import Crypto

/// What a `sessionInfo` string stands for. The string itself is opaque to clients: base64url of a kind byte,
/// a payload and a 128-bit HMAC tag under the server secret, so garbage is rejected without a database read.
package enum SessionHandle: Sendable, Equatable {
    /// A code session stored in the database, named by its 16 random bytes.
    case stored(id: [UInt8])
    /// A fictional (test) number: nothing is stored; the handle carries the number and its issue time.
    case fictional(phoneNumber: String, issuedAt: Instant)
    /// Proof that the holder verified a number that belongs to another account (`temporaryProof`).
    case temporaryProof(phoneNumber: String, issuedAt: Instant)

    private static let tagLength = 16

    /// Encodes the handle as the `sessionInfo` string sent to clients.
    package func encode(key: SymmetricKey) -> String {
        var body: [UInt8]
        switch self {
        case .stored(let id):
            body = [1] + id
        case .fictional(let phone, let issuedAt), .temporaryProof(let phone, let issuedAt):
            if case .fictional = self { body = [2] } else { body = [3] }
            withUnsafeBytes(of: issuedAt.secondsSince1970.bigEndian) { body.append(contentsOf: $0) }
            body.append(contentsOf: Array(phone.utf8))
        }
        let tag = Array(HMAC<SHA256>.authenticationCode(for: body, using: key)).prefix(Self.tagLength)
        return Base64URL.encode(body + tag)
    }

    /// Decodes and authenticates a `sessionInfo` string; `nil` when it is not one of ours.
    package init?(decoding text: String, key: SymmetricKey) {
        guard text.utf8.count <= 200, let raw = Base64URL.decodeCanonical(text), raw.count > Self.tagLength + 1 else { return nil }
        let body = Array(raw.dropLast(Self.tagLength))
        let tag = Array(raw.suffix(Self.tagLength))
        let expected = Array(Array(HMAC<SHA256>.authenticationCode(for: body, using: key)).prefix(Self.tagLength))
        guard constantTimeEquals(tag, expected) else { return nil }
        switch body[0] {
        case 1 where body.count == 17:
            self = .stored(id: Array(body.dropFirst()))
        case 2 where body.count > 9, 3 where body.count > 9:
            var issued: Int64 = 0
            for b in body[1..<9] { issued = issued << 8 | Int64(b) }
            guard let phone = String(validating: body[9...], as: UTF8.self) else { return nil }
            let instant = Instant(secondsSince1970: issued)
            self = body[0] == 2 ? .fictional(phoneNumber: phone, issuedAt: instant) : .temporaryProof(phoneNumber: phone, issuedAt: instant)
        default:
            return nil
        }
    }
}

import Crypto
import FlintCore
import Testing

@Suite("Session handles")
struct SessionHandleTests {
    let key = SymmetricKey(size: .bits256)

    @Test("a stored handle round-trips and carries 128 random bits")
    func storedRoundTrip() {
        let id = SystemRandom().bytes(16)
        let text = SessionHandle.stored(id: id).encode(key: key)
        #expect(SessionHandle(decoding: text, key: key) == .stored(id: id))
        #expect(text.utf8.count >= 22)
    }

    @Test("fictional handles and temporary proofs round-trip")
    func fictionalRoundTrip() {
        let f = SessionHandle.fictional(phoneNumber: "+16505553434", issuedAt: Instant(secondsSince1970: 1_800_000_000))
        #expect(SessionHandle(decoding: f.encode(key: key), key: key) == f)
        let p = SessionHandle.temporaryProof(phoneNumber: "+16505553434", issuedAt: Instant(secondsSince1970: 1_800_000_000))
        #expect(SessionHandle(decoding: p.encode(key: key), key: key) == p)
    }

    @Test("a handle made under another key is refused")
    func otherKey() {
        let text = SessionHandle.stored(id: SystemRandom().bytes(16)).encode(key: SymmetricKey(size: .bits256))
        #expect(SessionHandle(decoding: text, key: key) == nil)
    }

    @Test("a tampered handle is refused")
    func tampered() {
        var bytes = Array(SessionHandle.stored(id: SystemRandom().bytes(16)).encode(key: key).utf8)
        bytes[5] = bytes[5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(SessionHandle(decoding: String(decoding: bytes, as: UTF8.self), key: key) == nil)
    }

    @Test("garbage is refused", arguments: ["", "x", "not base64 !", String(repeating: "A", count: 300), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
    func garbage(text: String) {
        #expect(SessionHandle(decoding: text, key: key) == nil)
    }
}

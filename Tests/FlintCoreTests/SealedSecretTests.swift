import FlintCore
import Testing

@Suite("secrets sealed with the master key")
struct SealedSecretTests {
    let key = MasterKey.generate()

    @Test("a sealed value opens with its key and name, and shows neither the plaintext nor the key")
    func roundTrip() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"
        let stored = try SealedSecret.seal(Array(pem.utf8), name: "signing-key:k1", with: key)
        #expect(stored.hasPrefix("sealed:v1:\(key.id):"))
        #expect(!stored.contains("PRIVATE KEY") && !stored.contains(key.base64))
        #expect(SealedSecret.isSealed(stored) && SealedSecret.keyID(of: stored) == key.id)
        #expect(try SealedSecret.open(stored, name: "signing-key:k1", with: key) == Array(pem.utf8))
        #expect(try SealedSecret.seal([1], name: "n", with: key) != SealedSecret.seal([1], name: "n", with: key), "a fresh nonce each time")
    }

    @Test("another key, no key, another row's name or an altered value never open it")
    func refusals() throws {
        let stored = try SealedSecret.seal([1, 2, 3], name: "server-secret", with: key)
        let other = MasterKey.generate()
        #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: other.id)) {
            try SealedSecret.open(stored, name: "server-secret", with: other)
        }
        #expect(throws: MasterKeyError.wrongKey(stored: key.id, given: nil)) { try SealedSecret.open(stored, name: "server-secret", with: nil) }
        #expect(throws: MasterKeyError.damaged("signing-key:k1")) { try SealedSecret.open(stored, name: "signing-key:k1", with: key) }
        var altered = Array(stored.utf8)
        // A character well inside the base64 text: the last ones before the padding carry unused bits, so changing
        // one of those may decode to the same bytes.
        let index = altered.count - 10
        altered[index] = altered[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: MasterKeyError.damaged("server-secret")) {
            try SealedSecret.open(String(decoding: altered, as: UTF8.self), name: "server-secret", with: key)
        }
    }

    @Test("a value stored in clear by an older Flint is read as it is, with or without a key")
    func clearValues() throws {
        #expect(!SealedSecret.isSealed("AQID") && SealedSecret.keyID(of: "AQID") == nil)
        #expect(try SealedSecret.open("AQID", name: "server-secret", with: key) == Array("AQID".utf8))
        #expect(try SealedSecret.open("AQID", name: "server-secret", with: nil) == Array("AQID".utf8))
    }

    @Test("a master key is base64 of exactly 32 bytes; its text gives back the same key", arguments: ["", "AQID", "not base64 at all!"])
    func keyText(bad: String) throws {
        #expect(throws: MasterKeyError.self) { try MasterKey(base64: bad) }
        let again = try MasterKey(base64: " \(key.base64)\n")
        #expect(again.id == key.id && again.base64 == key.base64)
        #expect(MasterKey.generate().id != key.id)
    }
}

import FlintCore
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test("canonical decoding reads back what encode wrote, for every length and byte")
    func roundTrip() {
        var bytes: [UInt8] = []
        for length in 0..<70 {
            #expect(Base64URL.decodeCanonical(Base64URL.encode(bytes)) == bytes, "length \(length)")
            bytes.append(UInt8(truncatingIfNeeded: length &* 37 &+ 251))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decodeCanonical(Base64URL.encode(all)) == all)
    }

    @Test(
        "canonical decoding refuses a second spelling of a value: a sibling last character, padding, a lone character, other alphabets",
        arguments: [
            "QR",  // "A" is "QQ": "QR" sets an unused bit
            "QUJ",  // "AB" is "QUI"
            "QQ==", "QUI=", "Q", "QUJDR", "QU+I", "QU/I", "QU I", "QUI\n", "ÄÄÄÄ",
        ])
    func refusesNonCanonical(_ text: String) {
        #expect(Base64URL.decodeCanonical(text) == nil)
    }

    @Test("the lenient decoder still reads non-canonical input (providers' and imports' values)")
    func lenientStillLenient() {
        #expect(Base64URL.decode("QR") == Array("A".utf8))
        #expect(Base64URL.decode("QUJ") == Array("AB".utf8))
        #expect(Base64URL.decode("QQ==") == Array("A".utf8), "padding is read by the lenient decoder")
        #expect(Base64URL.decode("QUI=") == Array("AB".utf8))
        #expect(Base64URL.decode("QQ=") == nil, "padding that does not complete a group of four")
        #expect(Base64URL.decode("QUJD====") == nil)
        #expect(Base64URL.decodeCanonical("QQ==") == nil, "Flint never pads its own values")
        #expect(Base64URL.decode("Q") == nil, "a lone last character by both")
        let all = (0...255).map { UInt8($0) }
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
        #expect(Base64URL.decodeCanonical("QQ") == Array("A".utf8))
        #expect(Base64URL.decodeCanonical("") == [])
    }
}

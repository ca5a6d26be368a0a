import FlintCore
import Testing

@Suite("the k-anonymity range format (BreachRange)")
struct BreachRangeTests {
    @Test("a password splits into the upper-case SHA-1 prefix and suffix the range API uses")
    func split() {
        // SHA-1("password") = 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8
        #expect(BreachRange.split("password") == ("5BAA6", "1E4C9B93F3F0682250B6CF8331B7EE68FD8"))
        #expect(BreachRange.split("pässword").prefix.count == 5, "UTF-8 bytes are hashed")
    }

    @Test("a range is read line by line: CRLF or LF, any case, padding and absent suffixes count 0")
    func count() {
        let suffix = "1E4C9B93F3F0682250B6CF8331B7EE68FD8"
        let range = "0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n1e4c9b93f3f0682250b6cf8331b7ee68fd8:9659365\r\nFFFF000000000000000000000000000000A:0"
        #expect(BreachRange.count(of: suffix, in: Array(range.utf8)) == 9_659_365)
        #expect(BreachRange.count(of: "FFFF000000000000000000000000000000A", in: Array(range.utf8)) == 0)
        #expect(BreachRange.count(of: "0018A45C4D1DEF81644B54AB7F969B88D65", in: Array("x:1\n0018A45C4D1DEF81644B54AB7F969B88D65:4".utf8)) == 4)
        #expect(BreachRange.count(of: suffix, in: Array("0018A45C4D1DEF81644B54AB7F969B88D65:1\n".utf8)) == 0)
        #expect(BreachRange.count(of: suffix, in: [UInt8]()) == 0)
    }
}

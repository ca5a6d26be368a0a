import FlintServerTestSupport
import Testing

@testable import FlintServer

@Suite("The CPUs a node may run on")
struct AllowedCPUsTests {
    @Test(
        "kernel CPU lists are counted; anything else is not a list",
        arguments: [("0", 1), ("0-3", 4), ("0-3,8,10-11", 7), (" 1,3 ", 2), ("", nil), ("3-1", nil), ("a-b", nil), ("-1", nil)] as [(String, Int?)])
    func lists(_ c: (String, Int?)) {
        #expect(AllowedCPUs.count(list: Substring(c.0)) == c.1)
    }

    #if os(Linux)
        @Test("this process's own mask is read")
        func own() throws {
            let count = try #require(AllowedCPUs.count())
            #expect(count >= 1)
        }
    #endif
}

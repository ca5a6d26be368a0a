import FlintCore
import FlintServerTestSupport
import Testing

@testable import FlintServer

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "an instant's HTTP date is its whole second in IMF-fixdate form",
        arguments: [
            (Int64(784_111_777_900), "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (951_825_600_000, "Tue, 29 Feb 2000 12:00:00 GMT"),
            (1_800_000_000_250, "Fri, 15 Jan 2027 08:00:00 GMT"),
            (-1000, "Wed, 31 Dec 1969 23:59:59 GMT"),
        ])
    func httpDate(milliseconds: Int64, text: String) {
        #expect(Instant(millisecondsSince1970: milliseconds).httpDate == text)
    }
}

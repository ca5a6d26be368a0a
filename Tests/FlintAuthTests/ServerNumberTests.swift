import Foundation
import Testing

@testable import FlintAuth

@Suite("Numbers from a server")
struct ServerNumberTests {
    @Test(
        "an expiresIn that is huge, negative or not finite counts as an hour instead of trapping",
        arguments: ["1e300", "-5", "nan", "inf", "9999999999"])
    func expiresIn(_ text: String) {
        let tokens = SecureTokenService.Tokens(accessToken: "a", refreshToken: "r", expiresIn: text, now: Date(timeIntervalSince1970: 1_000))
        #expect(tokens.expirationDate == Date(timeIntervalSince1970: 4_600))
    }

    @Test("a usual expiresIn is kept")
    func usual() {
        let tokens = SecureTokenService.Tokens(accessToken: "a", refreshToken: "r", expiresIn: "1800", now: Date(timeIntervalSince1970: 1_000))
        #expect(tokens.expirationDate == Date(timeIntervalSince1970: 2_800))
    }
}

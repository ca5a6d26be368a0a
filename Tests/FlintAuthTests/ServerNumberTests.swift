import Foundation
import Testing

@testable import FlintAuth

@Suite("Numbers from a server")
struct ServerNumberTests {
    @Test(
        "an expiresIn that is huge, negative or not finite counts as an hour instead of trapping",
        arguments: ["1e300", "-5", "nan", "inf", "9999999999"])
    func expiresIn(_ text: String) {
        let tokens = SecureTokenService.Tokens(accessToken: "a", refreshToken: "r", expiresIn: text)
        let lifetime = tokens.expirationDate.timeIntervalSinceNow
        #expect(lifetime > 3590 && lifetime <= 3600)
    }

    @Test("a usual expiresIn is kept")
    func usual() {
        let lifetime = SecureTokenService.Tokens(accessToken: "a", refreshToken: "r", expiresIn: "1800").expirationDate.timeIntervalSinceNow
        #expect(lifetime > 1790 && lifetime <= 1800)
    }
}

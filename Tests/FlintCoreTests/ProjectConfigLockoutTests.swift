import FlintCore
import Testing

@Suite("flint.accountLockout")
struct ProjectConfigLockoutTests {
    @Test("on by default: five failures lock for a minute, each further one doubles the lock, up to an hour")
    func defaults() throws {
        let lockout = try #require(ProjectConfig.defaults.accountLockout)
        #expect(lockout.lock(afterFailures: 4) == nil)
        let locks = (5...13).map { lockout.lock(afterFailures: $0).map { $0.inMilliseconds / 1000 } }
        #expect(locks == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600])
        #expect(lockout.lock(afterFailures: 1_000_000) == .seconds(3600))
        #expect(lockout.memory >= lockout.maxLock)
    }

    @Test("the section sets the count and the locks; enabled false turns it off")
    func configured() throws {
        let config = try ProjectConfig(document: [
            "flint": ["accountLockout": ["maxFailures": .number(3), "lockSeconds": .number(10), "maxLockSeconds": .number(30)]]
        ])
        let lockout = try #require(config.accountLockout)
        #expect([3, 4, 5, 6].map { lockout.lock(afterFailures: $0) } == [.seconds(10), .seconds(20), .seconds(30), .seconds(30)])
        #expect(try ProjectConfig(document: ["flint": ["accountLockout": ["enabled": false]]]).accountLockout == nil)
    }

    @Test(
        "malformed sections are refused",
        arguments: [
            ["enabled": "no"], ["maxFailures": .number(0)], ["maxFailures": .number(2.5)], ["lockSeconds": .number(0)],
            ["lockSeconds": .number(60), "maxLockSeconds": .number(30)], ["maxLockSeconds": .number(700_000)], ["other": .number(1)],
        ] as [[String: JSONValue]])
    func refused(section: [String: JSONValue]) {
        #expect(throws: AuthError.self) { try ProjectConfig(document: ["flint": ["accountLockout": .object(section)]]) }
    }
}

import FlintCore
import Testing

@Suite("Sessions: device names and lifetimes")
struct DeviceSessionRulesTests {
    @Test(
        "a user agent (and a Firebase SDK's client version) become a short device name",
        arguments: [
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
                nil, "Safari on iPhone"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", nil,
                "Chrome on Windows"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
                nil, "Edge on Windows"
            ),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0", nil, "Firefox on Mac"),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
                "Chrome/JsCore/10.11.0/FirebaseCore-web", "Chrome on Android"
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
                nil, "Chrome on iPad"
            ),
            ("MyApp/3 CFNetwork/1494.0.7 Darwin/23.4.0", "iOS/FirebaseSDK/10.24.0/FirebaseCore-iOS", "FirebaseAuth iOS SDK"),
            ("MyApp/3 CFNetwork/1494.0.7 Darwin/23.4.0", nil, "MyApp (Apple app)"),
            (
                "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A)", "Android/Fallback/X22003000/FirebaseCore-Android",
                "FirebaseAuth Android SDK"
            ),
            ("Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A)", nil, "Android app"),
            ("node", nil, "Node.js"),
            ("node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", nil, "Node.js"),
            ("curl/8.5.0", nil, "curl"),
            ("python-requests/2.31.0", nil, "Python"),
            ("FlintAuth", "Swift/FlintAuth/1.0", "FlintAuth"),
            (nil, "Swift/FlintAuth/1.0", "FlintAuth"),
            (nil, nil, nil),
        ] as [(String?, String?, String?)])
    func deviceNames(agent: String?, clientVersion: String?, expected: String?) {
        #expect(DeviceName.parse(userAgent: agent, clientVersion: clientVersion) == expected)
    }

    @Test("a name is kept short and printable")
    func clipped() {
        let name = DeviceName.parse(userAgent: String(repeating: "x", count: 300) + "\u{7}/1")
        #expect(name?.count == DeviceName.maxLength && name?.allSatisfy { $0 == "x" } == true)
    }

    @Test("lifetimes are off by default, read from flint.sessions, and refuse idle or old sessions")
    func lifetimes() throws {
        #expect(ProjectConfig.defaults.sessionLifetimes == ProjectConfig.SessionLifetimes())
        let config = try ProjectConfig.defaults.applying(
            patch: ["flint": ["sessions": ["idleTimeout": "7200s", "absoluteLifetime": "86400s"]]], updateMask: ["flint.sessions"])
        let lifetimes = config.sessionLifetimes
        #expect(lifetimes == ProjectConfig.SessionLifetimes(idleTimeout: .seconds(7200), absoluteLifetime: .seconds(86400)))
        let signedIn = Instant(secondsSince1970: 1_000_000)
        #expect(lifetimes.allow(signedIn: signedIn, lastUsed: signedIn, now: signedIn + .seconds(7200)))
        #expect(!lifetimes.allow(signedIn: signedIn, lastUsed: signedIn, now: signedIn + .seconds(7201)))
        #expect(lifetimes.allow(signedIn: signedIn, lastUsed: signedIn + .seconds(80000), now: signedIn + .seconds(86400)))
        #expect(!lifetimes.allow(signedIn: signedIn, lastUsed: signedIn + .seconds(80000), now: signedIn + .seconds(86401)))
    }

    @Test(
        "flint.sessions takes durations in whole seconds from an hour to ten years",
        arguments: [
            #"{"idleTimeout":"3599s"}"#, #"{"idleTimeout":"315360001s"}"#, #"{"absoluteLifetime":"1h"}"#, #"{"absoluteLifetime":3600}"#,
            #"{"idleTimeout":"-3600s"}"#, #"{"lifetime":"3600s"}"#, #""3600s""#,
        ])
    func refused(section: String) throws {
        let value = try JSONValue(parsing: Array(section.utf8))
        #expect(throws: AuthError.self) { try ProjectConfig.defaults.applying(patch: ["flint": ["sessions": value]], updateMask: ["flint.sessions"]) }
    }
}

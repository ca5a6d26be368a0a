import FlintCore
import Testing

@Suite("Project config: MFA")
struct ProjectConfigMFATests {
    static let full: [String: JSONValue] = [
        "mfa": [
            "state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
            "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .number(3)]]],
        ]
    ]

    @Test("a config without mfa keeps every second factor off")
    func absent() throws {
        for c in [ProjectConfig.defaults, try ProjectConfig(document: [:])] {
            #expect(c.mfaState == .disabled)
            #expect(!c.smsSecondFactorEnabled)
            #expect(!c.totpSecondFactorEnabled)
            #expect(c.totpAdjacentIntervals == 5)
        }
    }

    @Test("an enabled section turns on SMS and TOTP and sets the window")
    func enabled() throws {
        let c = try ProjectConfig(document: Self.full)
        #expect(c.mfaState == .enabled)
        #expect(c.smsSecondFactorEnabled)
        #expect(c.totpSecondFactorEnabled)
        #expect(c.totpAdjacentIntervals == 3)
    }

    @Test("MANDATORY counts as on")
    func mandatory() throws {
        var doc = Self.full
        doc["mfa"] = ["state": "MANDATORY", "enabledProviders": ["PHONE_SMS"]]
        let c = try ProjectConfig(document: doc)
        #expect(c.mfaState == .mandatory)
        #expect(c.smsSecondFactorEnabled)
        #expect(!c.totpSecondFactorEnabled)
    }

    @Test("state DISABLED turns both factors off whatever the providers say")
    func disabled() throws {
        let c = try ProjectConfig(
            document: [
                "mfa": [
                    "state": "DISABLED", "enabledProviders": ["PHONE_SMS"],
                    "providerConfigs": [["state": "ENABLED", "totpProviderConfig": [:]]],
                ]
            ])
        #expect(!c.smsSecondFactorEnabled)
        #expect(!c.totpSecondFactorEnabled)
    }

    @Test("TOTP needs an ENABLED provider config; the window defaults to 5")
    func totpProviderState() throws {
        let off = try ProjectConfig(
            document: [
                "mfa": ["state": "ENABLED", "providerConfigs": [["state": "DISABLED", "totpProviderConfig": ["adjacentIntervals": .number(2)]]]]
            ])
        #expect(!off.totpSecondFactorEnabled)
        #expect(!off.smsSecondFactorEnabled)
        #expect(off.totpAdjacentIntervals == 5)
        let on = try ProjectConfig(document: ["mfa": ["state": "ENABLED", "providerConfigs": [["state": "ENABLED", "totpProviderConfig": [:]]]]])
        #expect(on.totpSecondFactorEnabled)
        #expect(on.totpAdjacentIntervals == 5)
    }

    @Test("the window bounds 0 and 10 are accepted", arguments: [0, 10])
    func windowBounds(n: Int) throws {
        let c = try ProjectConfig(
            document: [
                "mfa": [
                    "state": "ENABLED", "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .number(Double(n))]]],
                ]
            ])
        #expect(c.totpAdjacentIntervals == n)
    }

    @Test(
        "invalid sections are refused with INVALID_CONFIG naming the path",
        arguments: [
            (["mfa": "on"], "mfa"),
            (["mfa": ["state": "ON"]], "mfa.state"),
            (["mfa": ["state": true]], "mfa.state"),
            (["mfa": ["enabledProviders": "PHONE_SMS"]], "mfa.enabledProviders"),
            (["mfa": ["enabledProviders": ["EMAIL"]]], "mfa.enabledProviders"),
            (["mfa": ["providerConfigs": ["state": "ENABLED"]]], "mfa.providerConfigs"),
            (["mfa": ["providerConfigs": ["ENABLED"]]], "mfa.providerConfigs[0]"),
            (["mfa": ["providerConfigs": [["state": "YES"]]]], "mfa.providerConfigs[0].state"),
            (["mfa": ["providerConfigs": [["state": "ENABLED", "totpProviderConfig": .number(5)]]]], "mfa.providerConfigs[0].totpProviderConfig"),
            (
                ["mfa": ["providerConfigs": [[:], ["totpProviderConfig": ["adjacentIntervals": .number(11)]]]]],
                "mfa.providerConfigs[1].totpProviderConfig.adjacentIntervals"
            ),
            (
                ["mfa": ["providerConfigs": [["totpProviderConfig": ["adjacentIntervals": .number(-1)]]]]],
                "mfa.providerConfigs[0].totpProviderConfig.adjacentIntervals"
            ),
            (
                ["mfa": ["providerConfigs": [["totpProviderConfig": ["adjacentIntervals": .number(2.5)]]]]],
                "mfa.providerConfigs[0].totpProviderConfig.adjacentIntervals"
            ),
            (
                ["mfa": ["providerConfigs": [["totpProviderConfig": ["adjacentIntervals": "5"]]]]],
                "mfa.providerConfigs[0].totpProviderConfig.adjacentIntervals"
            ),
        ] as [([String: JSONValue], String)]
    )
    func invalid(document: [String: JSONValue], path: String) {
        #expect {
            try ProjectConfig(document: document)
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == "INVALID_CONFIG" && (error.detail ?? "").hasPrefix(path + " ")
        }
    }

    @Test("an update mask may set the mfa section and its fields")
    func patch() throws {
        let c = try ProjectConfig.defaults.applying(patch: Self.full, updateMask: ["mfa.state", "mfa.enabledProviders"])
        #expect(c.smsSecondFactorEnabled)
        #expect(!c.totpSecondFactorEnabled)
        #expect(c.phoneSignInEnabled, "fields outside the mask are kept")
        let all = try c.applying(patch: Self.full, updateMask: ["mfa"])
        #expect(all.totpSecondFactorEnabled)
        let unmasked = try ProjectConfig.defaults.applying(patch: Self.full, updateMask: nil)
        #expect(unmasked.totpAdjacentIntervals == 3)
        #expect(unmasked.smsSecondFactorEnabled)
        let cleared = try all.applying(patch: [:], updateMask: ["mfa.state"])
        #expect(cleared.mfaState == .disabled)
        #expect(!cleared.smsSecondFactorEnabled)
    }

    @Test("an invalid patch is refused")
    func invalidPatch() {
        #expect(throws: AuthError.self) {
            try ProjectConfig.defaults.applying(patch: ["mfa": ["state": "SOMETIMES"]], updateMask: ["mfa.state"])
        }
    }
}

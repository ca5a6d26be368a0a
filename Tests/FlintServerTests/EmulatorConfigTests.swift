import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Emulator config: GET and PATCH /emulator/v1/projects/{p}/config")
struct EmulatorConfigTests {
    @Test("answers the emulator's shape; allowDuplicateEmails false and usageMode DEFAULT are taken")
    func readsAndTakes() async throws {
        try await withFlint { api in
            let initial = try await api.call(.get, Path.emulatorConfig)
            #expect(initial.status == .ok)
            #expect(initial.json == ["signIn": ["allowDuplicateEmails": false], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
            let patched = try await api.call(.patch, Path.emulatorConfig, body: #"{"signIn":{"allowDuplicateEmails":false},"usageMode":"DEFAULT"}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched.json == initial.json)
        }
    }

    @Test("enableImprovedEmailPrivacy changes the project config")
    func privacy() async throws {
        try await withFlint { api in
            let patched = try await api.call(.patch, Path.emulatorConfig, body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
            #expect(patched.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == .bool(true))
            let admin = try await api.admin(.get, Path.config)
            #expect(admin.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == .bool(true))
            #expect(try await api.call(.get, Path.emulatorConfig).json == patched.json)
        }
    }

    @Test(
        "what Flint cannot do is refused, not pretended",
        arguments: [
            (#"{"signIn":{"allowDuplicateEmails":true}}"#, "INVALID_CONFIG"), (#"{"usageMode":"PASSTHROUGH"}"#, "INVALID_USAGE_MODE"),
            (#"{"usageMode":"USAGE_MODE_UNSPECIFIED"}"#, "INVALID_USAGE_MODE"), (#"{"signIn":{"allowDuplicateEmails":"yes"}}"#, "INVALID_ARGUMENT"),
        ])
    func refusals(_ body: String, _ code: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.patch, Path.emulatorConfig, body: body)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == code, "\(reply.text)")
        }
    }

    @Test("not served outside dev mode, nor for another project")
    func devModeOnly() async throws {
        try await withFlint(configure: { $0.devMode = false }) { api in
            let reply = try await api.call(.get, Path.emulatorConfig)
            #expect(reply.status == .notFound)
        }
        try await withFlint { api in
            let reply = try await api.call(.get, "/emulator/v1/projects/other/config")
            #expect(reply.status == .notFound)
        }
    }
}

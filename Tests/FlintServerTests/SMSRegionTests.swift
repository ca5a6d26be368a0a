import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

@Suite("SMS region policy (smsRegionConfig)")
struct SMSRegionTests {
    static let us = "+16505553434"
    static let gb = "+447700900123"
    static let fr = "+33612345678"

    @Test("a deny list refuses its regions with Firebase's error, texts nothing, and lets the others through")
    func denyList() async throws {
        try await withFlint { api in
            try await api.patchConfig(#"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["gb","FR"]}}}"#, mask: "smsRegionConfig")
            let refused = try await api.post(Path.send, ["phoneNumber": Self.gb])
            #expect(refused.errorMessage == "OPERATION_NOT_ALLOWED : SMS unable to be sent until this region enabled by the app developer.")
            #expect(try await api.post(Path.send, ["phoneNumber": Self.fr]).errorCode == "OPERATION_NOT_ALLOWED")
            #expect(try await api.outbox().isEmpty, "no text for a refused region")
            _ = try await api.sendCode(Self.us)
            #expect(try await api.outbox().count == 1)
            let stored = try await api.admin(.get, Path.config)
            #expect(stored["smsRegionConfig"]?["allowByDefault"]?["disallowedRegions"] == .array([.string("GB"), .string("FR")]))
        }
    }

    @Test("an allow list admits only its regions; fictional numbers are never refused (they are never texted)")
    func allowList() async throws {
        try await withFlint { api in
            try await api.setTestNumbers(["+447700900999": "123456"])
            try await api.patchConfig(#"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["US"]}}}"#, mask: "smsRegionConfig")
            _ = try await api.sendCode(Self.us)
            #expect(try await api.post(Path.send, ["phoneNumber": Self.gb]).errorCode == "OPERATION_NOT_ALLOWED")
            _ = try await api.sendCode("+447700900999")
            // Clearing the policy allows every region again.
            try await api.patchConfig(#"{"smsRegionConfig":{}}"#, mask: "smsRegionConfig")
            _ = try await api.sendCode(Self.gb)
        }
    }

    @Test("the Node Admin SDK's update masks: a mode's leaf path, and switching modes by naming only the new one")
    func sdkMasks() async throws {
        try await withFlint { api in
            try await api.patchConfig(
                #"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["GB"]}}}"#, mask: "smsRegionConfig.allowByDefault.disallowedRegions")
            #expect(try await api.post(Path.send, ["phoneNumber": Self.gb]).errorCode == "OPERATION_NOT_ALLOWED")
            try await api.patchConfig(
                #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":["GB"]}}}"#, mask: "smsRegionConfig.allowlistOnly.allowedRegions")
            let stored = try await api.admin(.get, Path.config)
            #expect(stored["smsRegionConfig"] == ["allowlistOnly": ["allowedRegions": ["GB"]]], "the other mode is cleared")
            _ = try await api.sendCode(Self.gb)
            #expect(try await api.post(Path.send, ["phoneNumber": Self.us]).errorCode == "OPERATION_NOT_ALLOWED")
            // `allowByDefault: {}` (every region) comes as the mode's own path.
            try await api.patchConfig(#"{"smsRegionConfig":{"allowByDefault":{}}}"#, mask: "smsRegionConfig.allowByDefault")
            #expect(try await api.admin(.get, Path.config)["smsRegionConfig"] == ["allowByDefault": ["disallowedRegions": []]])
            _ = try await api.sendCode(Self.us)
        }
    }

    @Test("second-factor codes follow the policy too")
    func secondFactor() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            try await api.patchConfig(#"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["GB"]}}}"#, mask: "smsRegionConfig")
            let user = try await api.signInWithEmailLink("regions@example.com")
            let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": Self.gb]])
            #expect(start.errorCode == "OPERATION_NOT_ALLOWED", "\(start.text)")
        }
    }

    @Test(
        "malformed policies are refused",
        arguments: [
            #"{"smsRegionConfig":{"allowByDefault":{"disallowedRegions":["USA"]}}}"#,
            #"{"smsRegionConfig":{"allowByDefault":{},"allowlistOnly":{}}}"#,
            #"{"smsRegionConfig":{"denyAll":true}}"#,
            #"{"smsRegionConfig":{"allowlistOnly":{"allowedRegions":[1]}}}"#,
            #"{"smsRegionConfig":"GB"}"#,
        ])
    func malformed(_ body: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(.patch, Path.config + "?updateMask=smsRegionConfig", body: body)
            #expect(reply.status == .badRequest, "\(reply.text)")
        }
    }
}

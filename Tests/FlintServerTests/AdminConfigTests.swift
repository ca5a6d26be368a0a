import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Admin: project config")
struct AdminConfigTests {
    @Test("GET answers the config resource with phone sign-in on, no test numbers and localhost authorized")
    func getDefaults() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.get, Path.config)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("name") == "projects/\(project)/config")
            #expect(reply["signIn"]?["phoneNumber"]?["enabled"] == .bool(true))
            #expect(reply["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue?.isEmpty ?? true)
            #expect(reply["authorizedDomains"]?.arrayValue?.contains(.string("localhost")) == true)
        }
    }

    @Test("the Admin SDK path v2/projects/{p}/config serves the same resource")
    func sdkPath() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.get, "/identitytoolkit.googleapis.com/v2/projects/\(project)/config")
            #expect(reply.status == .ok)
            #expect(reply.string("name") == "projects/\(project)/config")
        }
    }

    @Test("PATCH with an updateMask sets the masked paths (numbers normalized) and GET echoes them")
    func patchWithMask() async throws {
        try await withFlint { api in
            let body = #"""
                {"signIn":{"phoneNumber":{"testPhoneNumbers":{"+1 650-555-1234":"123456"}}},"authorizedDomains":["ignored.example"]}
                """#
            let patch = try await api.admin(.patch, Path.config + "?updateMask=signIn.phoneNumber.testPhoneNumbers", body: body)
            #expect(patch.status == .ok, "\(patch.text)")
            #expect(patch["signIn"]?["phoneNumber"]?["testPhoneNumbers"] == .object(["+16505551234": .string("123456")]))
            // Not in the mask: untouched.
            #expect(patch["authorizedDomains"] == .array([.string("localhost")]))
            #expect(patch["signIn"]?["phoneNumber"]?["enabled"] == .bool(true))

            let get = try await api.admin(.get, Path.config)
            #expect(get.json == patch.json)
        }
    }

    @Test("PATCH of authorizedDomains replaces the list")
    func patchDomains() async throws {
        try await withFlint { api in
            let patch = try await api.admin(
                .patch, Path.config + "?updateMask=authorizedDomains", body: #"{"authorizedDomains":["localhost","App.Example.com"]}"#
            )
            #expect(patch.status == .ok, "\(patch.text)")
            #expect(patch["authorizedDomains"] == .array([.string("localhost"), .string("app.example.com")]))
        }
    }

    @Test("a masked path absent from the body is cleared")
    func maskClears() async throws {
        try await withFlint { api in
            try await api.setTestNumbers(["+16505551234": "123456"])
            let patch = try await api.admin(.patch, Path.config + "?updateMask=signIn.phoneNumber.testPhoneNumbers", body: "{}")
            #expect(patch.status == .ok)
            #expect(patch["signIn"]?["phoneNumber"]?["testPhoneNumbers"]?.objectValue?.isEmpty ?? true)
        }
    }

    static let invalidPatches: [ErrorCase] = {
        let eleven = (0..<11).map { #""+1650555\#(1000 + $0)":"123456""# }.joined(separator: ",")
        return [
            ErrorCase("11 test numbers", body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{\#(eleven)}}}}"#, code: "INVALID_CONFIG"),
            ErrorCase(
                "a code that is not 6 digits", body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+16505551234":"12ab"}}}}"#,
                code: "INVALID_CONFIG"),
            ErrorCase("a 5-digit code", body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+16505551234":"12345"}}}}"#, code: "INVALID_CONFIG"),
            ErrorCase("an invalid number", body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"12345":"123456"}}}}"#, code: "INVALID_CONFIG"),
            ErrorCase("a list instead of a map", body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":["+16505551234"]}}}"#, code: "INVALID_CONFIG"),
            ErrorCase(
                "the same number twice",
                body: #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+16505551234":"123456","+1 650 555 1234":"654321"}}}}"#,
                code: "INVALID_CONFIG"
            ),
        ]
    }()

    @Test("invalid test-number settings are refused with 400 and nothing changes", arguments: invalidPatches)
    func invalidPatch(_ row: ErrorCase) async throws {
        try await withFlint { api in
            let before = try await api.admin(.get, Path.config)
            let reply = try await api.admin(.patch, Path.config + "?updateMask=signIn.phoneNumber.testPhoneNumbers", body: row.body)
            #expect(Int(reply.status.code) == row.status)
            #expect(reply.errorCode == row.code, "\(reply.text)")
            #expect(try await api.admin(.get, Path.config).json == before.json)
        }
    }

    @Test("an updateMask naming an unknown path is refused")
    func unknownMaskPath() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.patch, Path.config + "?updateMask=signIn.hashConfig", body: #"{"signIn":{"hashConfig":{"rounds":8}}}"#)
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test("phoneNumber.enabled must be a boolean")
    func enabledType() async throws {
        try await withFlint { api in
            let reply = try await api.admin(
                .patch, Path.config + "?updateMask=signIn.phoneNumber.enabled", body: #"{"signIn":{"phoneNumber":{"enabled":"yes"}}}"#
            )
            #expect(reply.status == .badRequest)
        }
    }

    @Test("without a credential the config routes are 401", arguments: [HTTPRequest.Method.get, .patch])
    func noCredential(_ method: HTTPRequest.Method) async throws {
        try await withFlint { api in
            let reply = try await api.call(method, Path.config, body: method == .patch ? "{}" : nil)
            #expect(reply.status == .unauthorized)
            #expect(reply["error"]?["status"]?.stringValue == "UNAUTHENTICATED")
        }
    }

    @Test("with only an API key the config routes are 403", arguments: [HTTPRequest.Method.get, .patch])
    func apiKeyOnly(_ method: HTTPRequest.Method) async throws {
        try await withFlint { api in
            let reply = try await api.call(method, API.keyed(Path.config), body: method == .patch ? "{}" : nil)
            #expect(reply.status == .forbidden)
            #expect(reply["error"]?["status"]?.stringValue == "PERMISSION_DENIED")
        }
    }

    @Test("a wrong bearer token on the config routes is 401")
    func wrongBearer() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, Path.config, headers: [.authorization: "Bearer not-the-owner"])
            #expect(reply.status == .unauthorized)
        }
    }

    @Test("another project's config is not found")
    func otherProject() async throws {
        try await withFlint { api in
            let reply = try await api.admin(.get, "/identitytoolkit.googleapis.com/admin/v2/projects/someone-else/config")
            #expect(reply.status == .notFound)
        }
    }

    @Test("a PATCH persists: a second server on the same database file sees it")
    func patchPersists() async throws {
        let path = temporaryDatabasePath()
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await TestNode.make(path: path).run { api in
            try await api.setTestNumbers(["+16505551234": "123456"])
        }
        try await TestNode.make(path: path).run { api in
            let get = try await api.admin(.get, Path.config)
            #expect(get["signIn"]?["phoneNumber"]?["testPhoneNumbers"] == .object(["+16505551234": .string("123456")]))
            // And it is in force: the fixed code signs in without an SMS.
            let sessionInfo = try await api.sendCode("+16505551234")
            #expect(try await api.verify(sessionInfo, code: "123456").status == .ok)
            #expect(try await api.outbox().isEmpty)
        }
    }

    @Test("GET /v1/projects gives clients the project ID and authorized domains")
    func publicConfig() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, API.keyed("\(Path.v1)/projects"))
            #expect(reply.status == .ok)
            #expect(reply.string("projectId") == project)
            #expect(reply["authorizedDomains"]?.arrayValue?.contains(.string("localhost")) == true)
        }
    }
}

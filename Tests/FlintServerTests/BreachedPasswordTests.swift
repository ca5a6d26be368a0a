import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// `flint.breachedPasswords` over HTTP, against a corpus generated here from a few passwords: range files in a
/// directory, and a range endpoint on loopback.
@Suite("Breached passwords (flint.breachedPasswords) over HTTP")
struct BreachedPasswordTests {
    /// Seen 3 times: refused at a threshold of 2.
    static let breached = "correct horse battery"
    /// Seen once: let through at a threshold of 2.
    static let seenOnce = "seen only once here"
    /// Not in the corpus, though its range file is there.
    static let clear = "a password nobody used"
    /// Its range file is missing from the directory.
    static let unlisted = "its range is missing"
    static let refusal =
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must not appear in a known data breach]"

    /// Range files for the corpus: each password's prefix file lists its suffix with its count among decoys and
    /// padding (count 0), lines ended by CRLF as the range API answers.
    static func rangeFiles() -> [String: String] {
        var files: [String: [String]] = [:]
        for (password, count) in [(breached, 3), (seenOnce, 1)] {
            let (prefix, suffix) = BreachRange.split(password)
            files[prefix, default: []].append("\(suffix):\(count)")
        }
        files[BreachRange.split(clear).prefix, default: []].append(String(repeating: "0", count: 35) + ":7")
        return files.mapValues { lines in
            (["FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0"] + lines + ["00000000000000000000000000000000001:12"]).joined(separator: "\r\n")
        }
    }

    /// A directory holding ``rangeFiles()``, removed after `body`; the breached password's as `PREFIX.txt`, the
    /// others as bare `PREFIX`.
    static func withCorpusDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-pwned-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let txt = BreachRange.split(breached).prefix
        for (prefix, text) in rangeFiles() {
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(prefix)\(prefix == txt ? ".txt" : "")"))
        }
        return try await body(directory)
    }

    static func config(_ source: String, whenUnavailable: String = "ALLOW") -> String {
        #"{"flint":{"breachedPasswords":{\#(source),"minimumCount":2,"whenUnavailable":"\#(whenUnavailable)"}}}"#
    }

    @Test("sign-up refuses a breached password, and lets through one below the threshold, one not listed, one whose range file is missing")
    func signUp() async throws {
        try await Self.withCorpusDirectory { directory in
            try await withFlint { api in
                _ = try await api.signUp("before@example.com", Self.breached)
                try await api.patchConfig(Self.config(#""rangeDirectory":"\#(directory)""#), mask: "flint.breachedPasswords")
                let refused = try await api.post(Path.signUp, ["email": "hit@example.com", "password": Self.breached])
                #expect(refused.status == .badRequest)
                #expect(refused.errorMessage == Self.refusal, "\(refused.text)")
                _ = try await api.signUp("once@example.com", Self.seenOnce)
                _ = try await api.signUp("clear@example.com", Self.clear)
                _ = try await api.signUp("missing@example.com", Self.unlisted)
                #expect(try await api.signInWithPassword("before@example.com", Self.breached).status == .ok, "a sign-in is not checked")
                let metrics = try await api.metrics()
                #expect(metrics[#"flint_breached_password_checks_total{outcome="found"}"#] == 1)
                #expect(metrics[#"flint_breached_password_checks_total{outcome="clear"}"#] == 2)
                #expect(metrics[#"flint_breached_password_checks_total{outcome="unavailable"}"#] == 1)
            }
        }
    }

    @Test("a password change and a reset (API and action page) refuse a breached password; an operator's create and update do not")
    func changeAndReset() async throws {
        try await Self.withCorpusDirectory { directory in
            try await withFlint { api in
                let user = try await api.signUp("user@example.com", "first password")
                try await api.patchConfig(Self.config(#""rangeDirectory":"\#(directory)""#), mask: "flint.breachedPasswords")
                let change = try await api.post(Path.update, ["idToken": user.idToken, "password": Self.breached])
                #expect(change.errorMessage == Self.refusal, "\(change.text)")
                #expect(try await api.post(Path.update, ["idToken": user.idToken, "password": Self.clear]).status == .ok)

                _ = try await api.post(Path.sendOob, ["requestType": "PASSWORD_RESET", "email": "user@example.com"])
                let code = try await api.oobCode(for: "user@example.com").code
                let reset = try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": Self.breached])
                #expect(reset.errorMessage == Self.refusal, "\(reset.text)")
                let page = try await api.call(
                    .post, Path.action, body: "mode=resetPassword&oobCode=\(code)&newPassword=correct+horse+battery",
                    contentType: "application/x-www-form-urlencoded")
                #expect(page.status == .badRequest)
                #expect(page.text.contains("This password is too weak"), "the form is shown again with the reason")
                #expect(
                    try await api.post(Path.resetPassword, ["oobCode": code, "newPassword": Self.seenOnce]).status == .ok, "the code was not spent")

                let created = try await api.admin(.post, Path.signUp, body: #"{"email":"op@example.com","password":"\#(Self.breached)"}"#)
                #expect(created.status == .ok, "\(created.text)")
                let updated = try await api.admin(.post, Path.update, body: #"{"localId":"\#(user.localId)","password":"\#(Self.breached)"}"#)
                #expect(updated.status == .ok, "\(updated.text)")
            }
        }
    }

    @Test("whenUnavailable REFUSE: a password whose range cannot be read is refused as unavailable, 503")
    func failClosed() async throws {
        try await Self.withCorpusDirectory { directory in
            try await withFlint { api in
                try await api.patchConfig(
                    Self.config(#""rangeDirectory":"\#(directory)""#, whenUnavailable: "REFUSE"), mask: "flint.breachedPasswords")
                let refused = try await api.post(Path.signUp, ["email": "missing@example.com", "password": Self.unlisted])
                #expect(refused.status == .serviceUnavailable, "\(refused.text)")
                #expect(refused.errorCode == "UNAVAILABLE")
                _ = try await api.signUp("clear@example.com", Self.clear)
            }
        }
    }

    @Test("a range endpoint is asked for the prefix alone, with padding; a hit is refused, an endpoint failing lets the password through")
    func rangeEndpoint() async throws {
        let files = Self.rangeFiles()
        let asked = Mutex<[(String, String?)]>([])
        let failing = Atomic<Bool>(false)
        let router = Router()
        router.get("/range/:prefix") { request, context -> Response in
            let prefix = context.parameters.get("prefix") ?? ""
            asked.withLock { $0.append((prefix, request.headers[HTTPField.Name("Add-Padding")!])) }
            if failing.load(ordering: .relaxed) { return Response(status: .serviceUnavailable) }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: files[prefix] ?? "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0")))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await withFlint { api in
                try await api.patchConfig(Self.config(#""rangeUrl":"http://127.0.0.1:\#(port)/range/""#), mask: "flint.breachedPasswords")
                #expect(try await api.post(Path.signUp, ["email": "hit@example.com", "password": Self.breached]).errorMessage == Self.refusal)
                _ = try await api.signUp("unlisted@example.com", Self.unlisted)
                failing.store(true, ordering: .relaxed)
                _ = try await api.signUp("down@example.com", Self.breached)
                let metrics = try await api.metrics()
                #expect(metrics[#"flint_breached_password_checks_total{outcome="unavailable"}"#] == 1)
            }
        }
        let calls = asked.withLock { $0 }
        #expect(calls.map(\.0) == [Self.breached, Self.unlisted, Self.breached].map { BreachRange.split($0).prefix })
        #expect(calls.allSatisfy { $0.1 == "true" })
    }

    @Test(
        "the config is validated: one source, an absolute directory, an http(s) URL, a count from 1, ALLOW or REFUSE",
        arguments: [
            (#"{"rangeDirectory":"/a","rangeUrl":"https://x/"}"#, "exactly one of rangeDirectory and rangeUrl"),
            (#"{}"#, "exactly one of rangeDirectory and rangeUrl"),
            (#"{"rangeDirectory":"relative"}"#, "rangeDirectory must be an absolute path"),
            (#"{"rangeUrl":"ftp://x/"}"#, "rangeUrl must be an http(s) URL"),
            (#"{"rangeDirectory":"/a","minimumCount":0}"#, "minimumCount must be a whole number from 1"),
            (#"{"rangeDirectory":"/a","whenUnavailable":"MAYBE"}"#, "whenUnavailable must be ALLOW or REFUSE"),
            (#"{"rangeDirectory":"/a","extra":1}"#, "has an unknown field: extra"),
        ])
    func validation(section: String, reason: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(
                .patch, Path.config + "?updateMask=flint.breachedPasswords", body: #"{"flint":{"breachedPasswords":\#(section)}}"#)
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage?.hasPrefix("INVALID_CONFIG") == true && reply.errorMessage?.contains(reason) == true, "\(reply.text)")
        }
    }
}

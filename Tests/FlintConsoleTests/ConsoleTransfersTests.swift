import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's users import and export")
struct ConsoleTransfersTests {
    static let password = "correct horse battery"
    static let boundary = "----flint-test-boundary"

    /// A node whose import takes at most `limit` bytes, with an operator of `role` signed in, for `body`.
    private func withTransfers(
        role: ConsoleRole = .admin, limit: Int = 1 << 20, _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule(importLimit: limit)])
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", role: role, password: Self.password, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: Self.password), node)
        }
    }

    /// A `multipart/form-data` body of `fields` and one file.
    static func multipart(_ fields: [String: String], file: (name: String, text: String)?) -> String {
        var body = ""
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        if let file {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\n"
            body += "Content-Type: application/octet-stream\r\n\r\n\(file.text)\r\n"
        }
        return body + "--\(boundary)--\r\n"
    }

    /// Posts an import of `file` with `fields` (the CSRF token added unless given).
    private func upload(_ api: API, _ op: ConsoleOperator, _ file: (name: String, text: String)?, _ fields: [String: String] = [:]) async throws
        -> Reply
    {
        var fields = fields
        if fields["csrf"] == nil { fields["csrf"] = op.csrf }
        return try await api.call(
            .post, "/console/import", body: Self.multipart(fields, file: file), contentType: "multipart/form-data; boundary=\(Self.boundary)",
            headers: [.cookie: op.cookie])
    }

    /// Waits for the import at `location` to finish (each batch and its audit are store writes); its page.
    private func finished(_ api: API, _ op: ConsoleOperator, _ node: TestNode, _ location: String) async throws -> String {
        var page = ""
        let done = try await node.afterWrites {
            page = try await api.console(.get, location, cookie: op.cookie).text
            return page.contains(#"id="import-done""#)
        }
        #expect(done, "\(page)")
        return page
    }

    static let users = """
        {"users": [
          {"localId": "u1", "email": "one@example.com", "emailVerified": true, "displayName": "One"},
          {"localId": "u2", "email": "ONE@example.com"},
          {"localId": "u3", "phoneNumber": "not a number"},
          {"localId": "u4", "phoneNumber": "+16505550104", "createdAt": "1700000000000"}
        ]}
        """

    @Test("an upload is imported by the CLI's code in a job whose page reports the imported and the refused rows")
    func importJSON() async throws {
        try await withTransfers { api, op, node in
            let reply = try await upload(api, op, ("users.json", Self.users))
            #expect(reply.status == .seeOther, "\(reply.text)")
            let location = try #require(reply.headers[.location])
            #expect(location.hasPrefix("/console/import/"))
            let page = try await finished(api, op, node, location)
            #expect(page.contains("Imported 2 of 4 users (0 already present, 2 refused)."))
            #expect(!page.contains("not listed"), "every refused row is listed")
            #expect(page.contains(#"<td data-label="Row">2</td><td data-label="Line">3</td><td data-label="User ID">u2</td>"#), "\(page)")
            #expect(page.contains(#"<td data-label="Row">3</td><td data-label="Line">4</td><td data-label="User ID">u3</td>"#))
            #expect(page.contains(#"<script src="/console/templates.js" defer></script>"#))
            let fragment = try await api.console(.get, location + "?fragment=1", cookie: op.cookie)
            #expect(fragment.text.hasPrefix("<section") && !fragment.text.contains("<html"))
            let user = try await api.console(.get, "/console/users/u1", cookie: op.cookie)
            #expect(user.text.contains("one@example.com"))
            let list = try await api.console(.get, "/console/import", cookie: op.cookie)
            #expect(list.text.contains(#"<a href="\#(location)">users.json</a>"#))

            let actions = try await api.auditEvents("kind=ADMIN_ACTION").compactMap { $0["detail"] }
            let started = try #require(actions.first { $0["action"]?.stringValue == "import" })
            #expect(started["file"]?.stringValue == "users.json" && started["format"]?.stringValue == "json")
            let ended = try #require(actions.first { $0["action"]?.stringValue == "importFinished" })
            #expect(ended["imported"] == .number(2) && ended["failed"] == .number(2))
        }
    }

    @Test("a CSV export of Firebase's columns imports, with the hash parameters; a second run skips what is stored")
    func importCSV() async throws {
        try await withTransfers { api, op, node in
            var fields = Array(repeating: "", count: ExportCSVColumns.count)
            (fields[0], fields[1], fields[2], fields[5], fields[23], fields[26]) = ("c1", "csv@example.com", "false", "Csv", "1700000000000", "false")
            let csv = fields.joined(separator: ",") + ",\r\n"
            let first = try await upload(
                api, op, ("export.csv", csv), ["hashAlgo": "HMAC_SHA256", "hashKey": "c2VjcmV0", "hashInputOrder": "SALT_FIRST"])
            let page = try await finished(api, op, node, try #require(first.headers[.location]))
            #expect(page.contains("Imported 1 of 1 users (0 already present, 0 refused)."))
            let again = try await upload(api, op, ("export.csv", csv), ["existing": "skip"])
            let second = try await finished(api, op, node, try #require(again.headers[.location]))
            #expect(second.contains("Imported 0 of 1 users (1 already present, 0 refused)."))
        }
    }

    @Test("refusals come back on the form: no file, an unknown format, bad hash parameters, too large, a file cut off")
    func refusals() async throws {
        try await withTransfers(limit: 2048) { api, op, node in
            let none = try await upload(api, op, nil)
            #expect(none.status == .badRequest && none.text.contains("Choose a file to import."))
            let unnamed = try await upload(api, op, ("users.txt", Self.users), ["format": "xml"])
            #expect(unnamed.status == .badRequest && unnamed.text.contains("Name the file .json or .csv, or choose its format."))
            let named = try await upload(api, op, ("users.txt", Self.users), ["format": "json"])
            #expect(named.status == .seeOther, "the chosen format reads a file without an extension")
            _ = try await finished(api, op, node, try #require(named.headers[.location]))
            let hash = try await upload(api, op, ("users.json", Self.users), ["hashAlgo": "SCRYPT", "rounds": "9"])
            #expect(hash.status == .badRequest && hash.text.contains("Must provide hash key (base64 encoded) for hash algorithm SCRYPT"))
            #expect(hash.text.contains(#"<option value="SCRYPT" selected>"#), "the form keeps its values")
            let rounds = try await upload(api, op, ("users.json", Self.users), ["hashAlgo": "MD5", "rounds": "many"])
            #expect(rounds.text.contains("rounds must be a whole number."))
            let large = try await upload(api, op, ("users.json", String(repeating: " ", count: 4096)))
            #expect(large.status == .contentTooLarge && large.text.contains("larger than the console takes (2 KiB)"))
            let cut = try await upload(api, op, ("cut.json", #"{"users": [{"localId": "c1"}, {"localId""#))
            let page = try await finished(api, op, node, try #require(cut.headers[.location]))
            #expect(page.contains("The file broke off at line 1"), "\(page)")
            let notMultipart = try await api.console(.post, "/console/import", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(notMultipart.status == .badRequest && notMultipart.text.contains("multipart/form-data"))
        }
    }

    @Test("an import without the CSRF token, or by a read-only operator, is refused; an unknown job is not found")
    func guarded() async throws {
        try await withTransfers { api, op, _ in
            let forged = try await upload(api, op, ("users.json", Self.users), ["csrf": "forged"])
            #expect(forged.status == .forbidden && forged.text.contains("The form is stale"))
            #expect(try await api.console(.get, "/console/import/nope", cookie: op.cookie).status == .notFound)
            #expect(try await api.console(.get, "/console/import").headers[.location] == "/console/sign-in")
        }
        try await withTransfers(role: .read) { api, op, _ in
            let page = try await api.console(.get, "/console/import", cookie: op.cookie)
            #expect(page.status == .ok && !page.text.contains(#"action="/console/import""#) && page.text.contains(#"action="/console/export""#))
            let refused = try await upload(api, op, ("users.json", Self.users))
            #expect(refused.status == .forbidden && refused.text.contains("may only read"))
        }
    }

    @Test("the export streams the CLI's JSON and CSV, to read-only operators too, audited; without the CSRF token it is refused")
    func export() async throws {
        try await withTransfers(role: .read) { api, op, _ in
            _ = try await api.signUp("exported@example.com")
            _ = try await api.signIn("+16505550101")
            let json = try await api.console(.post, "/console/export", form: ["csrf": op.csrf, "format": "json"], cookie: op.cookie)
            #expect(json.status == .ok)
            #expect(json.headers[.contentType] == "application/json; charset=utf-8")
            #expect(json.headers[.contentDisposition]?.hasPrefix(#"attachment; filename="flint-users-"#) == true)
            let users = try JSONDecoder().decode(JSONValue.self, from: Data(json.text.utf8))["users"]?.arrayValue ?? []
            #expect(users.count == 2)
            #expect(users.contains { $0["email"]?.stringValue == "exported@example.com" && $0["passwordHash"] != nil })
            let csv = try await api.console(.post, "/console/export", form: ["csrf": op.csrf, "format": "csv"], cookie: op.cookie)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.text.split(separator: "\n").count == 2 && csv.text.contains("exported@example.com"))
            let forged = try await api.console(.post, "/console/export", form: ["csrf": "forged", "format": "json"], cookie: op.cookie)
            #expect(forged.status == .forbidden)
            let actions = try await api.auditEvents("kind=ADMIN_ACTION").compactMap { $0["detail"] }
            #expect(actions.filter { $0["action"]?.stringValue == "export" }.map { $0["format"]?.stringValue } == ["csv", "json"])
        }
    }

    @Test("a multipart body is split at its delimiters, whatever the block a delimiter straddles")
    func split() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let file = try TemporaryFile(directory: directory)
        defer { file.remove() }
        let text = "--b\r\nx\r\n--b\r\nyy\r\n--b--\r\n"
        try file.write(Array(text.utf8))
        try file.close()
        for size in [1, 2, 3, 5, 7, 64] {
            #expect(try ConsoleUpload.find(Array("\r\n--b".utf8), in: file.path, blockSize: size) == [6, 15], "block \(size)")
        }
        #expect(ConsoleUpload.boundary("multipart/form-data; boundary=\"abc\"") == "abc")
        #expect(ConsoleUpload.boundary("application/x-www-form-urlencoded") == nil)
    }
}

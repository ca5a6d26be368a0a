package import FlintCore
import FlintServer
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

extension Path {
    /// The Admin SDKs' project-scoped paths.
    package static let operatorV1 = "\(v1)/projects/\(project)"
    package static let batchGet = "\(operatorV1)/accounts:batchGet"
    package static let query = "\(operatorV1)/accounts:query"
    package static let batchDelete = "\(operatorV1)/accounts:batchDelete"
    package static let adminLookup = "\(operatorV1)/accounts:lookup"
    package static let adminUpdate = "\(operatorV1)/accounts:update"
    package static let adminCreate = "\(operatorV1)/accounts"
}

extension API {
    /// An operator POST of a JSON value.
    package func admin(_ path: String, _ body: JSONValue) async throws -> Reply {
        try await admin(.post, path, body: String(decoding: try JSONEncoder().encode(body), as: UTF8.self))
    }

    /// The operator's `accounts:lookup` of one account by ID; its JSON (`nil` when not found).
    package func adminAccount(_ localID: String) async throws -> JSONValue? {
        let reply = try await admin(Path.adminLookup, ["localId": [.string(localID)]])
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["users"]?.arrayValue?.first
    }

    /// The operator's `signUp`; returns the new account's ID.
    package func adminCreate(_ body: JSONValue) async throws -> String {
        let reply = try await admin(Path.adminCreate, body)
        #expect(reply.status == .ok, "\(reply.text)")
        return try #require(reply.string("localId"))
    }

    /// One `accounts:batchGet` page.
    package func listPage(maxResults: Int? = nil, token: String? = nil) async throws -> Reply {
        var query: [String] = []
        if let maxResults { query.append("maxResults=\(maxResults)") }
        if let token { query.append("nextPageToken=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)") }
        return try await admin(.get, Path.batchGet + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }
}

extension TestNode {
    /// Adds `count` phone users straight to the store: IDs `u000`, `u001`, …, created a second apart.
    package func addUsers(_ count: Int, prefix: String = "u", createdAt: Instant = Instant(secondsSince1970: 1_700_000_000)) async throws {
        try await store.write { tx in
            for i in 0..<count {
                let id = prefix + String(format: "%03d", i)
                try await tx.insertUser(
                    UserRecord(
                        localID: id, phoneNumber: "+1650555\(String(format: "%04d", i))", createdAt: createdAt + .seconds(i),
                        validSince: createdAt.wholeSecond))
            }
        }
    }
}

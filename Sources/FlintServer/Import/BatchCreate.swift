import FlintCore
import FlintStore
import Hummingbird

/// `v1/projects/{project}/accounts:batchCreate` (the Admin SDKs' `importUsers`; v3 `uploadAccount`): the whole body,
/// since the hash parameters are read with ``ImportedHashAlgorithm/init(wire:)`` and each user by
/// ``UserImportParser``.
struct BatchCreateRequest: Decodable {
    /// The members as sent (keys in camelCase).
    let fields: [String: JSONValue]

    init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    /// `users[]`: each must be an object.
    func users() throws(AuthError) -> [[String: JSONValue]] {
        guard let value = fields["users"], value != .null else { return [] }
        let items = value.arrayValue ?? [value]
        var out: [[String: JSONValue]] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw AuthError.invalidJSON(
                    "Invalid value at 'users[\(i)]' (type.googleapis.com/google.cloud.identitytoolkit.v1.UserInfo), \(item.kindName)")
            }
            out.append(members)
        }
        return out
    }

    /// A boolean flag of the request (`allowOverwrite`, `sanityCheck`).
    func flag(_ name: String) throws(AuthError) -> Bool { try ImportFields(fields, path: "").bool(name) }
}

/// The answer: the users refused, each with its index and Firebase's message; the others were imported.
struct BatchCreateResponse: ResponseEncodable {
    struct Failure: Encodable {
        var index: Int
        var message: String
    }

    var kind = "identitytoolkit#UploadAccountResponse"
    var error: [Failure]
}

/// Imports users as the Admin SDKs' `importUsers` sends them (operator only): at most 1,000 a call, one transaction.
struct ImportFlow: Sendable {
    /// What it runs on: settings, store, clock, randomness.
    let node: Node
    /// Hashes `rawPassword`s on the bounded pool.
    let passwords: PasswordHasher

    /// Firebase's limit on users per call.
    static let maximumUsers = 1000

    func batchCreate(_ wire: BatchCreateRequest) async throws -> BatchCreateResponse {
        let objects = try wire.users()
        guard !objects.isEmpty else { throw AuthError(code: "MISSING_USER_ACCOUNT") }
        guard objects.count <= Self.maximumUsers else { throw AuthError(code: "MAXIMUM_USER_COUNT_EXCEEDED") }
        let hashed = objects.contains { ($0["passwordHash"] ?? $0["password_hash"])?.stringValue?.isEmpty == false }
        let algorithm = try hashed || wire.fields["hashAlgorithm"] != nil ? ImportedHashAlgorithm(wire: wire.fields) : nil
        let allowOverwrite = try wire.flag("allowOverwrite")
        if try wire.flag("sanityCheck") { try Self.sanityCheck(objects) }
        if !allowOverwrite { try Self.refuseRepeatedLocalIDs(objects) }
        var parser = UserImportParser(algorithm: algorithm, now: node.clock.now(), random: node.random)
        parser.acceptsRawPasswords = true
        var candidates: [ImportCandidate] = []
        var failures: [ImportBatchOutcome.Failure] = []
        for (index, object) in objects.enumerated() {
            switch parser.candidate(object, index: index, path: "users[\(index)]") {
            case .success(let candidate): candidates.append(candidate)
            case .failure(.malformed(let error)): throw error
            case .failure(let refusal): failures.append(.init(index: index, message: refusal.message))
            }
        }
        for i in candidates.indices {
            guard let raw = candidates[i].rawPassword else { continue }
            candidates[i].account.user.passwordHash = try await passwords.hash(raw)
        }
        let outcome = try await UserImporter(store: node.store, clock: node.clock).importBatch(
            candidates, existing: allowOverwrite ? .overwrite : .refuse)
        let all = (failures + outcome.failures).sorted { $0.index < $1.index }
        return BatchCreateResponse(error: all.map { BatchCreateResponse.Failure(index: $0.index, message: $0.message) })
    }

    /// Unless the batch may overwrite, a local ID given twice refuses the whole batch (`DUPLICATE_LOCAL_ID : <id>`), as
    /// Firebase does, instead of importing the first and failing the second.
    static func refuseRepeatedLocalIDs(_ objects: [[String: JSONValue]]) throws(AuthError) {
        var seen = Set<String>()
        for (index, object) in objects.enumerated() {
            let localID = try ImportFields(object, path: "users[\(index)]").string("localId") ?? ""
            guard seen.insert(localID).inserted else { throw AuthError(code: "DUPLICATE_LOCAL_ID", detail: localID) }
        }
    }

    /// `sanityCheck`: a batch repeating an email, or a provider's raw ID, is refused whole, as Firebase does.
    static func sanityCheck(_ objects: [[String: JSONValue]]) throws(AuthError) {
        var emails = Set<String>()
        var rawIDs = Set<String>()
        for (index, object) in objects.enumerated() {
            let fields = ImportFields(object, path: "users[\(index)]")
            if let email = try fields.string("email"), !email.isEmpty {
                guard emails.insert(email.lowercased()).inserted else { throw AuthError(code: "DUPLICATE_EMAIL", detail: email) }
            }
            for provider in try fields.objects("providerUserInfo") {
                let providerID = try provider.string("providerId") ?? ""
                var rawID = try provider.string("rawId") ?? ""
                // `federatedId` stands for a missing raw ID, as the user's import reads it.
                if rawID.isEmpty { rawID = try provider.string("federatedId") ?? "" }
                guard rawIDs.insert("\(providerID):\(rawID)").inserted else {
                    throw AuthError(code: "DUPLICATE_RAW_ID", detail: "Provider id(\(providerID)), Raw id(\(rawID))")
                }
            }
        }
    }
}

/// The route group of imports.
struct ImportRoutes: Sendable {
    let flow: ImportFlow

    func batchCreate(_ request: Request, context: FlintRequestContext) async throws -> BatchCreateResponse {
        try context.requireAdmin()
        let wire = try await context.clientBody(request, as: BatchCreateRequest.self, projectID: flow.node.settings.projectID)
        return try await flow.batchCreate(wire)
    }
}

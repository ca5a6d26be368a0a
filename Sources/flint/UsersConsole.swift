import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Opens the store, runs `body` with the operator's user console (the API's flows, without HTTP), and closes the
/// store. A refusal (``AuthError``) is printed as Firebase words it and ends the command with status 1. What the
/// command changes is audited with the actor `cli`. `command` names the command in the refusal's line; `tenant` the
/// tenant whose accounts the command manages (`--tenant`; the project's own when `nil`).
func withUserConsole<T>(
    _ options: StoreOptions, tenant: String? = nil, command: String = "flint users", _ body: (UserConsole) async throws -> T
) async throws -> T {
    let store = try await options.open(logger: quietLogger())
    do {
        var settings = ServerSettings()
        settings.masterKey = try await options.requiredMasterKey(for: store).key
        let console = try await UserConsole(settings: settings, store: store, logger: quietLogger())
        let result = try await AuditOrigin.$current.withValue(AuditOrigin(actor: "cli")) {
            try await console.inTenant(tenant) { try await body(console) }
        }
        try await store.close()
        return result
    } catch let error as AuthError {
        try? await store.close()
        printError("\(command): \(error.message)")
        throw ExitCode.failure
    } catch {
        try? await store.close()
        throw error
    }
}

/// `--tenant`: the tenant whose accounts a `flint users` command manages.
struct TenantOption: ParsableArguments {
    @Option(help: "The tenant whose accounts these are (its ID); the project's own users when absent.") var tenant: String?
}

/// JSON text of a value: sorted keys, one line, or indented with `pretty`.
func jsonText(_ value: JSONValue, pretty: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// One account as a line of the human listing: ID, email, phone, state, creation date.
func accountLine(_ user: JSONValue) -> String {
    let id = user["localId"]?.stringValue ?? "?"
    let email = user["email"]?.stringValue ?? "-"
    let phone = user["phoneNumber"]?.stringValue ?? "-"
    let state = user["disabled"]?.boolValue == true ? "disabled" : "enabled"
    let created = user["createdAt"]?.stringValue.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000).formatted(.iso8601) } ?? "-"
    return [id, email, phone, state, created].joined(separator: "  ")
}

extension Users {
    /// `flint users list`: every account in local-ID order, a page of `accounts:batchGet` at a time.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts in user-ID order (ID, email, phone, state, creation time).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Option(help: "List at most this many accounts (all when absent).") var limit: Int?
        @Option(help: "Start after the page this token (from --json output) ends.") var pageToken: String?
        @Flag(help: "Print the accounts as a JSON array in Firebase's account shape (with password hashes and salts).") var json = false

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            try await withUserConsole(store, tenant: tenant.tenant) { console in
                var token = pageToken
                var printed = 0
                if json { print("[") }
                repeat {
                    let size = min(1000, (limit ?? Int.max) - printed)
                    var body: [String: JSONValue] = ["maxResults": .number(Double(size))]
                    if let token { body["nextPageToken"] = .string(token) }
                    let page = try await console.batchGet(body)
                    for user in page["users"]?.arrayValue ?? [] {
                        print(json ? (printed == 0 ? "  " : ", ") + (try jsonText(user, pretty: false)) : accountLine(user))
                        printed += 1
                    }
                    token = page["nextPageToken"]?.stringValue
                } while token != nil && printed < (limit ?? Int.max)
                if json { print("]") }
            }
        }
    }

    /// `flint users get`: one account by ID, email or phone number (`accounts:lookup`).
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one account, by user ID, --email or --phone.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String?
        @Option(help: "Find the account by email instead.") var email: String?
        @Option(help: "Find the account by phone number (E.164) instead.") var phone: String?
        @Flag(help: "Print the account as JSON in Firebase's account shape.") var json = false

        func validate() throws {
            guard [uid, email, phone].compactMap({ $0 }).count == 1 else {
                throw ValidationError("name the account by exactly one of UID, --email, --phone")
            }
        }

        func run() async throws {
            var body: [String: JSONValue] = [:]
            if let uid { body["localId"] = .string(uid) }
            if let email { body["email"] = .string(email) }
            if let phone { body["phoneNumber"] = .string(phone) }
            let found = try await withUserConsole(store, tenant: tenant.tenant) { try await $0.lookup(body) }
            guard let user = found["users"]?.arrayValue?.first else {
                printError("flint users: USER_NOT_FOUND")
                throw ExitCode.failure
            }
            print(json ? try jsonText(user) : accountDetails(user))
        }
    }
}

/// An account for people: one `field: value` line per field set, second factors and providers listed.
func accountDetails(_ user: JSONValue) -> String {
    var lines: [String] = []
    for key in ["localId", "email", "emailVerified", "phoneNumber", "displayName", "photoUrl", "disabled", "customAttributes"] {
        guard let value = user[key], value != .null else { continue }
        lines.append("\(key): \(value.stringValue ?? value.boolValue.map(String.init) ?? "\(value)")")
    }
    for key in ["createdAt", "lastLoginAt", "passwordUpdatedAt"] {
        guard let ms = user[key]?.stringValue.flatMap(Double.init) ?? (user[key].flatMap { if case .number(let n) = $0 { n } else { nil } }) else {
            continue
        }
        lines.append("\(key): \(Date(timeIntervalSince1970: ms / 1000).formatted(.iso8601))")
    }
    if let at = user["lastRefreshAt"]?.stringValue { lines.append("lastRefreshAt: \(at)") }
    if let since = user["validSince"]?.stringValue { lines.append("validSince: \(since)") }
    let providers = (user["providerUserInfo"]?.arrayValue ?? []).compactMap { $0["providerId"]?.stringValue }
    lines.append("providers: \(providers.isEmpty ? "none" : providers.joined(separator: ", "))")
    for factor in user["mfaInfo"]?.arrayValue ?? [] {
        let kind = factor["phoneInfo"]?.stringValue.map { "phone \($0)" } ?? "totp"
        lines.append("second factor: \(factor["mfaEnrollmentId"]?.stringValue ?? "?") \(kind) \(factor["displayName"]?.stringValue ?? "")")
    }
    return lines.joined(separator: "\n")
}

import ArgumentParser
import FlintCore
import FlintServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a password from the first line of standard input (`--password-stdin`), so it stays out of the process list.
func passwordFromStandardInput() throws -> String {
    guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("no password on standard input") }
    return line
}

/// What `create` and `update` may set on an account, as the Admin SDKs' `create_user` / `update_user` fields.
struct AccountFields: ParsableArguments {
    @Option(help: "Email address.") var email: String?
    @Option(help: "Phone number (E.164).") var phone: String?
    @Option(help: "Password (visible to other local users; prefer --password-stdin).") var password: String?
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @Option(help: "Display name.") var displayName: String?
    @Option(help: "Photo URL.") var photoUrl: String?
    @Option(help: "Whether the email counts as verified (true or false).") var emailVerified: Bool?

    /// The body fields these options set.
    func body() throws -> [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        if let email { body["email"] = .string(email) }
        if let phone { body["phoneNumber"] = .string(phone) }
        if passwordStdin { body["password"] = .string(try passwordFromStandardInput()) } else if let password { body["password"] = .string(password) }
        if let displayName { body["displayName"] = .string(displayName) }
        if let photoUrl { body["photoUrl"] = .string(photoUrl) }
        if let emailVerified { body["emailVerified"] = .bool(emailVerified) }
        return body
    }
}

/// Runs the operator's `accounts:update` for `uid` of `tenant` with `fields` and prints the account's ID (or with `json`
/// the answer).
func updateAccount(_ store: StoreOptions, tenant: TenantOption, uid: String, _ fields: [String: JSONValue], json: Bool = false) async throws {
    let answer = try await withUserConsole(store, tenant: tenant.tenant) { console in
        try await console.update(fields.merging(["localId": .string(uid)]) { $1 })
    }
    print(json ? try jsonText(answer) : (answer["localId"]?.stringValue ?? uid))
}

extension Users {
    /// `flint users create`: a new account, as the Admin SDKs' `create_user`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account; prints its user ID.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Option(help: "The user ID (1 to 128 characters; a random one when absent).") var uid: String?
        @OptionGroup var fields: AccountFields
        @Flag(help: "Create the account disabled.") var disabled = false

        func run() async throws {
            var body = try fields.body()
            if let uid { body["localId"] = .string(uid) }
            if disabled { body["disabled"] = .bool(true) }
            let answer = try await withUserConsole(store, tenant: tenant.tenant) { try await $0.create(body) }
            print(answer["localId"]?.stringValue ?? "")
        }
    }

    /// `flint users update`: changes an account, as the Admin SDKs' `update_user`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an account's email, phone, password, profile or passkeys.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String
        @OptionGroup var fields: AccountFields
        @Flag(help: "Remove the display name.") var removeDisplayName = false
        @Flag(help: "Remove the photo URL.") var removePhotoUrl = false
        @Flag(help: "Remove the phone number.") var removePhone = false
        @Option(help: "Withdraw the passkey with this credential ID (repeatable; the account's sessions end).") var deletePasskey: [String] = []
        @Flag(help: "Print the update's answer as JSON.") var json = false

        func run() async throws {
            var body = try fields.body()
            let removed = [(removeDisplayName, "DISPLAY_NAME"), (removePhotoUrl, "PHOTO_URL")].filter(\.0).map { JSONValue.string($0.1) }
            if !removed.isEmpty { body["deleteAttribute"] = .array(removed) }
            if removePhone { body["deleteProvider"] = ["phone"] }
            if !deletePasskey.isEmpty { body["deletePasskey"] = .array(deletePasskey.map(JSONValue.string)) }
            guard !body.isEmpty else { throw ValidationError("nothing to change: give at least one option") }
            try await updateAccount(store, tenant: tenant, uid: uid, body, json: json)
        }
    }

    /// `flint users disable`: the account can no longer sign in, and its sessions end.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account (its sessions end).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String

        func run() async throws { try await updateAccount(store, tenant: tenant, uid: uid, ["disableUser": true]) }
    }

    /// `flint users unlock`: lifts the lock failed password sign-ins put on an account (`flint.accountLockout`).
    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lift an account's lock after failed sign-ins, and forget the failures.",
            discussion: "Prints whether the account was locked; an unlock is audited as ACCOUNT_UNLOCKED.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user ID.") var uid: String

        func run() async throws {
            let was = try await withUserConsole(store) { try await $0.unlock(uid) }
            if was["locked"]?.boolValue == true {
                print("unlocked \(uid) (locked until \(was["lockedUntil"]?.stringValue ?? "?"))")
            } else {
                print("\(uid) was not locked")
            }
        }
    }

    /// `flint users enable`: a disabled account may sign in again.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled account.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String

        func run() async throws { try await updateAccount(store, tenant: tenant, uid: uid, ["disableUser": false]) }
    }

    /// `flint users revoke`: ends every session of the account, as the Admin SDKs' `revoke_refresh_tokens`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End every session of an account (refresh tokens and ID tokens minted so far).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String

        func run() async throws {
            let answer = try await withUserConsole(store, tenant: tenant.tenant) { console in
                try await console.update(["localId": .string(uid), "validSince": .string(String(console.nowSeconds))])
            }
            print(answer["localId"]?.stringValue ?? uid)
        }
    }

    /// `flint users sessions`: the account's sessions per device, most recently used first.
    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List an account's sessions (device, addresses, created, last used, sign-in method) as JSON.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user ID.") var uid: String

        func run() async throws {
            print(try jsonText(try await withUserConsole(store) { try await $0.sessions(localID: uid) }))
        }
    }

    /// `flint users end-session`: ends one session of the account (its refresh token refused at once).
    struct EndSession: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-session", abstract: "End one session of an account (see `flint users sessions`).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The user ID.") var uid: String
        @Argument(help: "The session's ID (`sessionId`).") var session: String

        func run() async throws {
            try await withUserConsole(store) { try await $0.endSession(localID: uid, sessionID: session) }
            print(session)
        }
    }

    /// `flint users set-claims`: replaces the account's custom claims, as the Admin SDKs' `set_custom_user_claims`.
    struct SetClaims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace an account's custom claims with a JSON object (at most 1000 bytes; `{}` removes them).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user ID.") var uid: String
        @Argument(help: "The claims, a JSON object such as '{\"admin\":true}'.") var claims: String

        func run() async throws { try await updateAccount(store, tenant: tenant, uid: uid, ["customAttributes": .string(claims)]) }
    }

    /// `flint users delete`: deletes accounts, with their sessions and second factors.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete accounts (one call of up to 1000 IDs at a time).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The user IDs.") var uids: [String]

        func validate() throws {
            guard !uids.isEmpty else { throw ValidationError("name at least one user ID") }
        }

        func run() async throws {
            let deleted = try await withUserConsole(store, tenant: tenant.tenant) { console in
                if uids.count == 1 {
                    _ = try await console.delete(["localId": .string(uids[0])])
                    return 1
                }
                var start = 0
                while start < uids.count {
                    let slice = uids[start..<min(start + 1000, uids.count)]
                    _ = try await console.batchDelete(["localIds": .array(slice.map(JSONValue.string)), "force": true])
                    start += slice.count
                }
                return uids.count
            }
            print("deleted \(deleted) \(deleted == 1 ? "account" : "accounts") (IDs of no account are skipped)")
        }
    }
}

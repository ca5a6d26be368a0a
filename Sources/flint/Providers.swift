import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint providers saml create|list|get|update|delete`: the SAML identity providers' configurations
/// (`inboundSamlConfigs`) of the project or, with `--tenant`, of a tenant, in the data directory's store, by the admin
/// API's rules (``IdpConfigAdmin``), and `rotate-sp-key`: a provider's service-provider key rollover, step by step. Changes are
/// audited by the actor `cli`.
struct Providers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "Configure identity providers.", subcommands: [SAML.self])

    struct SAML: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "saml", abstract: "Create, list, show, change or delete SAML provider configurations.",
            subcommands: [Create.self, List.self, Get.self, Update.self, Delete.self, RotateSPKey.self])
    }

    /// What every subcommand takes: the store, the project its resource names carry, and the tenant, if any.
    struct Common: ParsableArguments {
        @OptionGroup var store: StoreOptions
        @Option(help: "Project ID for the resource name.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"
        @Option(help: "The tenant whose providers these are (default: the project's).") var tenant: String?

        /// Runs `body` on the collection's operations where it lives, as the command line: audited by `cli`,
        /// Firebase's errors shown as usage errors.
        func run<T: Sendable>(_ body: @escaping @Sendable (IdpConfigAdmin) async throws -> T) async throws -> T {
            try await store.asOperator { [store, project, tenant] db in
                let key = try await store.masterKey(for: db, useDataDirectory: true, create: false)?.key
                if let tenant {
                    let tenants = TenantAdmin(store: db, clock: SystemClock(), random: SystemRandom(), masterKey: key)
                    let spKeys = SAMLServiceProviderKeys(store: db, masterKey: key, clock: SystemClock())
                    return try await body(.tenant(.saml, tenant, projectID: project, tenants: tenants, spKeys: spKeys))
                }
                return try await body(.project(.saml, projectID: project, store: db, masterKey: key, clock: SystemClock()))
            }
        }
    }

    /// Prints a resource as the admin API answers it.
    static func show(_ resource: [String: JSONValue]) throws { print(try ConfigFile.render(resource)) }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Configure a SAML provider and print it.")
        @OptionGroup var common: Common
        @Argument(help: "The provider ID: saml. then letters, digits, '-', '_' or '.'.") var id: String
        @Option(help: "The identity provider's entity ID.") var idpEntityId: String
        @Option(help: "The identity provider's single sign-on URL.") var ssoUrl: String
        @Option(help: "A file holding one of the identity provider's certificates (PEM); repeat for more.") var certificate: [String]
        @Option(help: "This service provider's entity ID.") var spEntityId: String
        @Option(help: "The URL the identity provider posts its response to (<public URL>/__/auth/handler).") var callbackUrl: String
        @Option(help: "The name shown for the provider.") var displayName: String?
        @Flag(inversion: .prefixedEnableDisable, help: "Whether users may sign in with it.") var enabled = true

        func run() async throws {
            let pems = try certificate.map { try String(contentsOfFile: $0, encoding: .utf8) }
            var body: [String: JSONValue] = [
                "enabled": .bool(enabled),
                "idpConfig": [
                    "idpEntityId": .string(idpEntityId), "ssoUrl": .string(ssoUrl),
                    "idpCertificates": .array(pems.map { ["x509Certificate": .string($0)] }),
                ],
                "spConfig": ["spEntityId": .string(spEntityId), "callbackUri": .string(callbackUrl)],
            ]
            body["displayName"] = displayName.map(JSONValue.string)
            let created = try await common.run { [id, body] in $0.answer(id, try await $0.create(id, body)) }
            try Providers.show(created)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the SAML providers in ID order (JSON, as the admin API pages them).")
        @OptionGroup var common: Common
        @Option(help: "Providers per page (at most \(IdpConfigAdmin.maxPageSize)).") var pageSize: Int = IdpConfigAdmin.maxPageSize
        @Option(help: "The token a previous page printed.") var pageToken: String?

        func run() async throws {
            let out = try await common.run { [pageSize, pageToken] admin in
                let page = try await admin.list(pageSize: pageSize, pageToken: pageToken)
                var out: [String: JSONValue] = ["inboundSamlConfigs": .array(page.resources.map { .object(admin.answer($0.id, $0.resource)) })]
                out["nextPageToken"] = page.next.map(JSONValue.string)
                return out
            }
            try Providers.show(out)
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one SAML provider as JSON.")
        @OptionGroup var common: Common
        @Argument(help: "The provider ID.") var id: String

        func run() async throws {
            try Providers.show(try await common.run { [id] in $0.answer(id, try await $0.get(id)) })
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set one field of a SAML provider, as in an updateMask, and print it.",
            discussion: """
                PATH is one of: \(ProjectConfig.IdpCollection.saml.updatablePaths.joined(separator: ", ")).
                VALUE is JSON (false, [{"x509Certificate":"-----BEGIN CERTIFICATE-----…"}]); a bare word is a string.
                Example:
                  flint providers saml update saml.corp idpConfig.ssoUrl https://idp.example/sso --tenant acme-x7k2q
                """)
        @OptionGroup var common: Common
        @Argument(help: "The provider ID.") var id: String
        @Argument(help: "The field path.") var path: String
        @Argument(help: "The new value (JSON).") var value: String

        func run() async throws {
            let parsed = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))) ?? .string(value)
            var patch = parsed
            for key in path.split(separator: ".").reversed() { patch = .object([String(key): patch]) }
            let body = patch.objectValue ?? [:]
            let updated = try await common.run { [id, path] in $0.answer(id, try await $0.update(id, patch: body, updateMask: [path])) }
            try Providers.show(updated)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a SAML provider's configuration.")
        @OptionGroup var common: Common
        @Argument(help: "The provider ID.") var id: String

        func run() async throws {
            try await common.run { [id] in try await $0.delete(id) }
            printError("SAML provider \(id) deleted")
        }
    }

    struct RotateSPKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-sp-key",
            abstract: "Roll a SAML provider's service-provider key over, one step at a time, and print the provider.",
            discussion: """
                Three steps, so an identity provider that checks signed requests (idpConfig.signRequest) never meets a
                request signed by a key it does not know:
                  1. flint providers saml rotate-sp-key ID: a new key, published at once as the second certificate of
                     spConfig.spCertificates; the current key goes on signing. Give the identity provider the new
                     certificate beside the old one.
                  2. flint providers saml rotate-sp-key ID --activate: the new key signs from now on (it becomes the
                     first certificate); the old one stays published, until
                  3. flint providers saml rotate-sp-key ID --retire: the old key is deleted. Or, at step 2,
                     --retire-after-hours N retires it N hours after the activation.
                Each step is audited and seen by every node at once.
                """)
        @OptionGroup var common: Common
        @Argument(help: "The provider ID.") var id: String
        @Flag(help: "Step 2: the new key signs the provider's requests from now on.") var activate = false
        @Option(help: "With --activate: the old key is retired (no longer published) this many hours later.") var retireAfterHours: Int?
        @Flag(help: "Step 3: the keys older than the signing one are deleted.") var retire = false

        func validate() throws {
            if activate && retire { throw ValidationError("--activate and --retire are separate steps.") }
            if retireAfterHours != nil && !activate { throw ValidationError("--retire-after-hours goes with --activate.") }
            if let hours = retireAfterHours, hours < 0 { throw ValidationError("--retire-after-hours cannot be negative.") }
        }

        func run() async throws {
            let step: SAMLServiceProviderKeys.RotationStep =
                activate ? .activate(retireAfter: retireAfterHours.map { .seconds($0 * 3_600) }) : retire ? .retire : .stage
            try Providers.show(try await common.run { [id] in $0.answer(id, try await $0.rotateSPKey(id, step: step)) })
            switch step {
            case .stage:
                printError("\(id): a new SP key is published (the second certificate); the current key goes on signing until --activate")
            case .activate:
                printError("\(id): the new SP key signs from now (the first certificate); the old one stays published until it is retired")
            case .retire:
                printError("\(id): the SP keys older than the signing key are retired")
            }
        }
    }
}

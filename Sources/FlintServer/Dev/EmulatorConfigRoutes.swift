import FlintCore
import Hummingbird

/// `GET` / `PATCH /emulator/v1/projects/{project}/config`, the emulator's own settings (dev mode, no credential), so
/// suites written for the emulator run unchanged: `signIn.allowDuplicateEmails` (always `false`: Flint keeps one
/// account per email address, so `true` is refused rather than pretended) and
/// `emailPrivacyConfig.enableImprovedEmailPrivacy` (the project config's). Older emulators' `usageMode` is taken when
/// it is `DEFAULT`, the only mode Flint has.
struct EmulatorConfigRoutes {
    let projectID: String
    let config: ConfigCache
    let clock: any WallClock

    /// The emulator's config object.
    struct EmulatorConfig: ResponseEncodable {
        struct SignIn: Encodable { var allowDuplicateEmails = false }
        struct EmailPrivacy: Encodable { var enableImprovedEmailPrivacy: Bool }
        var signIn = SignIn()
        var emailPrivacyConfig: EmailPrivacy
    }

    func show(_ request: Request, context: FlintRequestContext) async throws -> EmulatorConfig {
        try checkProject(context)
        return current
    }

    func update(_ request: Request, context: FlintRequestContext) async throws -> EmulatorConfig {
        try checkProject(context)
        let body = try await request.decode(as: [String: JSONValue].self, context: context)
        if let duplicates = body["signIn"]?["allowDuplicateEmails"], duplicates != .null {
            guard let allowed = duplicates.boolValue else { throw AuthError.invalidArgument("signIn.allowDuplicateEmails must be a boolean") }
            guard !allowed else {
                throw AuthError(
                    code: "INVALID_CONFIG", detail: "((Flint keeps one account per email address: signIn.allowDuplicateEmails cannot be true.))",
                    rpcStatus: "INVALID_ARGUMENT")
            }
        }
        if let mode = body["usageMode"], mode != .null, mode != .string("DEFAULT") {
            let detail =
                mode == .string("PASSTHROUGH") ? "((Flint has no passthrough mode: every sign-in is stored.))" : "((usageMode must be DEFAULT.))"
            throw AuthError(code: "INVALID_USAGE_MODE", detail: detail, rpcStatus: "INVALID_ARGUMENT")
        }
        if let privacy = body["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"], privacy != .null {
            let patch: [String: JSONValue] = ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": privacy]]
            let mask = ["emailPrivacyConfig.enableImprovedEmailPrivacy"]
            try await config.save(
                try config.project.applying(patch: patch, updateMask: mask), at: clock.now(),
                change: ["updateMask": .array(mask.map(JSONValue.string))])
        }
        return current
    }

    private var current: EmulatorConfig {
        EmulatorConfig(emailPrivacyConfig: .init(enableImprovedEmailPrivacy: config.current.improvedEmailPrivacy))
    }

    private func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == projectID else { throw AuthError.projectNotFound }
    }
}

import ArgumentParser

/// `flint`: run the server and manage its data.
@main
struct Flint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flint",
        abstract: "Flint: a self-hosted identity service that speaks the Firebase Authentication protocol.",
        subcommands: [
            Serve.self, ConfigCommand.self, Keys.self, Migrate.self, Doctor.self, Backup.self, Restore.self, Users.self, Tenants.self, Providers.self,
            Admin.self,
            AdminBridgeCommand.self, Audit.self, Blocking.self, WebhooksCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

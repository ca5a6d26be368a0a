import FlintCore

/// When `flint serve` may assume dev mode without being told: only a node nobody else can reach and that shares no
/// database (a loopback host with SQLite), the `swift run flint serve` of a developer's machine.
enum DevModeDefault {
    /// Why `flint serve` will not start without a mode: printed as one line (no usage text), exit status 1.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether `host` only accepts connections from this machine: `localhost`, `127.0.0.0/8`, `::1`.
    static func isLoopback(_ host: String) -> Bool { LoopbackHost.contains(host) }
}

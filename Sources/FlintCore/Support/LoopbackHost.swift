/// Host names and addresses only this machine can reach: `localhost`, `127.0.0.0/8` and `::1`.
package enum LoopbackHost {
    /// Whether `host` (a name or an address, IPv6 in brackets or not) only accepts connections from this machine.
    package static func contains(_ host: String) -> Bool {
        var h = Substring(host.lowercased())
        if h.hasPrefix("["), h.hasSuffix("]") { h = h.dropFirst().dropLast() }
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { UInt8($0) != nil }
    }
}

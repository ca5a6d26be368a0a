#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The CPUs this process may run on, as the kernel's affinity mask says (`taskset`, `numactl`, systemd's
/// `CPUAffinity=`). SwiftNIO sizes its event-loop group from the machine's cores and its cgroup limits, not from this
/// mask, so a node pinned to one CPU of a larger machine would run a loop per core, and every database round trip would
/// then cost a thread switch on that one CPU.
public enum AllowedCPUs {
    /// How many CPUs the affinity mask allows (Linux: `Cpus_allowed_list` in `/proc/self/status`); `nil` where it
    /// cannot be read.
    public static func count() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return count(list: line.dropFirst("Cpus_allowed_list:".count))
        }
        return nil
    }

    /// The number of CPUs in a kernel CPU list such as `0-3,8,10-11` (7); `nil` when it is not one.
    public static func count(list: Substring) -> Int? {
        var total = 0
        for part in list.split(separator: ",") {
            let bounds = part.filter { !$0.isWhitespace }.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = bounds.first.flatMap({ Int($0) }), let last = Int(bounds.last ?? ""), first >= 0, last >= first else {
                return nil
            }
            total += last - first + 1
        }
        return total > 0 ? total : nil
    }
}

public import FlintCore

/// In tests only, an integer literal is an instant in milliseconds since the epoch, the unit instants are stored in:
/// store tests use many arbitrary fixed instants (`createdAt: 1_000`, `now: 1_500_000`), and the records they build
/// read as the rows they become. Production code never sees this conformance, so there an instant always names its
/// unit (`Instant(millisecondsSince1970:)`, `Instant(secondsSince1970:)`).
extension FlintCore.Instant: Swift.ExpressibleByIntegerLiteral {
    public init(integerLiteral milliseconds: Int64) {
        self.init(millisecondsSince1970: milliseconds)
    }
}

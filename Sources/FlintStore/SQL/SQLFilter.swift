/// The `WHERE` clause of a filtered listing and its binds, one optional condition at a time: a condition whose value
/// is `nil` is left out.
struct SQLFilter {
    private var conditions: [String] = []
    /// The binds of the conditions kept, in order; a caller appends the binds of what follows the clause.
    var binds: [SQLValue] = []

    /// Keeps `condition` (one `?`) with `value`, unless `value` is `nil`.
    mutating func add(_ condition: String, _ value: SQLValue?) {
        guard let value else { return }
        add(condition, binding: [value])
    }

    /// Keeps `condition` with its `values` (one per `?`).
    mutating func add(_ condition: String, binding values: [SQLValue]) {
        conditions.append(condition)
        binds += values
    }

    /// `WHERE a AND b …`, or nothing without a condition.
    var clause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}

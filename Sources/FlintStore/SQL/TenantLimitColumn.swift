import FlintCore

/// A tenant limit's column (an operator's, migration 27; an admin credential's, migration 31): a JSON array of tenant
/// IDs, '' the default tenant's; `NULL` for no limit.
enum TenantLimitColumn {
    /// The column's value for `tenants`.
    static func value(_ tenants: [TenantID]?) -> SQLValue {
        tenants.map { .text(String(decoding: JSONValue.array($0.map { .string($0.rawValue) }).serialized(), as: UTF8.self)) } ?? .null
    }

    /// The limit the column's `text` holds.
    static func tenants(_ text: String?) throws -> [TenantID]? {
        guard let text else { return nil }
        guard let items = try JSONValue(parsing: text.utf8).arrayValue else { throw SQLStoreError.unexpectedColumn("tenants") }
        return try items.map { item in
            guard let id = item.stringValue else { throw SQLStoreError.unexpectedColumn("tenants") }
            return TenantID(rawValue: id)
        }
    }
}

/// Set-up helpers shared by the scenarios whose accounts are made before the clock starts.
extension Runner {
    /// `body(client)` for every client at once (set-up work before the clock starts), its results in client order.
    func eachClient<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self, returning: [T].self) { group in
            for client in 0..<settings.concurrency { group.addTask { (client, try await body(client)) } }
            var results: [Int: T] = [:]
            for try await (client, result) in group { results[client] = result }
            return (0..<settings.concurrency).compactMap { results[$0] }
        }
    }

    /// The users each client owns: user `u` belongs to client `u % concurrency` (so no two clients sign in to one
    /// account at once); every client owns the same number.
    func ownedUsers() -> [[Int]] {
        let concurrency = settings.concurrency
        let each = max(1, settings.users / concurrency)
        return (0..<concurrency).map { client in (0..<each).map { client + $0 * concurrency } }
    }
}

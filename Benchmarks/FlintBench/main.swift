import ArgumentParser

// Parsed synchronously, on the main thread, before any concurrency work: `--executor nio` must install NIO's event
// loops as Swift Concurrency's global executor before the first task is enqueued.
let command: FlintBench
do {
    guard let parsed = try FlintBench.parseAsRoot() as? FlintBench else { FlintBench.exit() }
    command = parsed
} catch {
    FlintBench.exit(withError: error)
}
let group = command.makeEventLoopGroup()
do {
    try await command.run(group: group)
} catch {
    FlintBench.exit(withError: error)
}

import ArgumentParser

// Parsed synchronously, on the main thread, before any concurrency work: `--executor nio` must install NIO's event
// loops as Swift Concurrency's global executor before the first task is enqueued.
let command: FlintBench
do {
    var parsed = try FlintBench.parseAsRoot()
    guard let bench = parsed as? FlintBench else {
        try parsed.run()  // --help and friends
        FlintBench.exit()
    }
    command = bench
} catch {
    FlintBench.exit(withError: error)
}
let group = command.makeEventLoopGroup()
do {
    try await command.run(group: group)
} catch {
    FlintBench.exit(withError: error)
}

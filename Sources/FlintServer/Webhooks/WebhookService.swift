import FlintCore
import FlintStore
import ServiceLifecycle

/// Runs a node's ``WebhookDispatcher`` until shutdown: a round when the node commits a write while a subscription
/// exists, when any node announces a subscription's change, when the next retry is due, and at least every
/// `interval` (the reload interval: events recorded by nodes that died before their round, cursors moving on).
struct WebhookService: Service, CustomStringConvertible {
    let dispatcher: WebhookDispatcher
    let interval: Duration

    var description: String { "WebhookService" }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await change in dispatcher.store.changes() where change == .webhooks { dispatcher.wake.signal() }
                }
                while !Task.isCancelled {
                    let next = await dispatcher.runOnce()
                    var pause = interval
                    if let next {
                        let wait = next - dispatcher.node.clock.now()
                        pause = min(pause, max(wait, .milliseconds(10)))
                    }
                    await dispatcher.wake.wait(upTo: pause)
                }
                group.cancelAll()
            }
        }
    }
}

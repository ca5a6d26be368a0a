import FlintTesting
import Foundation

/// The app around the guides' snippets: the alerts, text prompts and navigation they call. It records what the
/// snippets showed, answers their prompts as a person would, and lets a test wait for an outcome.
final class AppStandIn: @unchecked Sendable {
    // `answers` is guarded by `lock`.
    private let lock = NSLock()
    private let events = EventLog<String>()
    private var answers: [(prefix: String, answer: @Sendable (String) async throws -> String)] = []

    /// Records an outcome the guide reached.
    func record(_ event: String) {
        events.record(event)
    }

    /// Everything recorded so far.
    var recorded: [String] { events.events }

    /// Answers text prompts whose message starts with `prefix` (the person reads the prompt and types).
    func answer(promptsStartingWith prefix: String, with answer: @escaping @Sendable (String) async throws -> String) {
        lock.withLock { answers.append((prefix, answer)) }
    }

    /// The answer to a prompt, or `nil` (the person pressed Cancel).
    func reply(to prompt: String) async -> String? {
        let match = lock.withLock { answers.last { prompt.hasPrefix($0.prefix) } }
        guard let match else { return nil }
        return try? await match.answer(prompt)
    }

    /// Waits until `count` events starting with `prefix` have been recorded and returns the last of them. Each
    /// recording wakes the wait (it waits for one event more than it has seen); `seconds` only bounds a wait that
    /// would otherwise hang.
    func waitFor(_ prefix: String, count: Int = 1, seconds: Double = 20) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var seen = events.events
        while ContinuousClock.now < deadline {
            let matching = seen.filter { $0.hasPrefix(prefix) }
            if matching.count >= count, let event = matching.last { return event }
            seen = await events.wait(for: seen.count + 1, limit: deadline - ContinuousClock.now)
        }
        throw GuideTimeout(expected: prefix, recorded: recorded)
    }
}

struct GuideTimeout: Error, CustomStringConvertible {
    let expected: String
    let recorded: [String]
    var description: String { "waited for \"\(expected)\"; the guide recorded \(recorded)" }
}

/// The view-controller members the guides' snippets call, on an `AppStandIn`. Guides are main-actor classes, as the
/// view controllers the snippets come from.
@MainActor
protocol GuideViewController: AnyObject {
    var app: AppStandIn { get }
}

extension GuideViewController {
    /// The guides' alert.
    func showMessagePrompt(_ message: String) { app.record("message: \(message)") }

    /// The guides' text prompt: the person's answer (or a cancel) arrives through `completionBlock`.
    func showTextInputPrompt(withMessage message: String, completionBlock: @escaping (Bool, String?) -> Void) {
        app.record("prompt: \(message)")
        let app = app
        Task { @MainActor in
            let answer = await app.reply(to: message)
            completionBlock(answer != nil, answer)
        }
    }

    /// `navigationController?.popViewController(animated:)`: the guide is done.
    var navigationController: NavigationStandIn? { NavigationStandIn(app: app) }
}

/// `UINavigationController`'s one member the guides use.
struct NavigationStandIn {
    let app: AppStandIn

    func popViewController(animated: Bool) { app.record("popped") }
}

#if !canImport(UIKit)
    /// The UIKit types in the guides' app-delegate snippets, for platforms without UIKit.
    final class UIApplication: Sendable {
        struct OpenURLOptionsKey: Hashable, Sendable { let rawValue: String }
    }
    typealias UIApplicationOpenURLOptionsKey = UIApplication.OpenURLOptionsKey
    enum UIBackgroundFetchResult: Sendable { case newData, noData, failed }
    final class UIScene: Sendable {}
    struct UIOpenURLContext: Hashable, Sendable { let url: URL }
#endif

import FlintCore
import FlintStore

/// Where a write stands with the project's blocking functions. A function may not run inside a transaction (it is a
/// network call, up to 7 seconds), and nothing of an operation it refuses may be stored, so a write that would create
/// an account or issue tokens runs twice: first as a probe, which stops before its commit with a ``BlockingConsult``
/// (the transaction rolls back: nothing is written), then — once the functions answered — again with their
/// ``BlockingDecision``, which the sign-in gate applies. Write closures are replayable by design (the test store runs
/// each twice), so the second run redoes the checks on the state it finds. Without functions configured, a write
/// runs once as before.
enum BlockingPhase: Sendable {
    /// The first run: an operation that calls a function stops before writing.
    case probe
    /// The run after the functions answered.
    case decided(BlockingDecision)

    /// The phase of the write in progress; `nil` when no function is configured (or outside a write).
    @TaskLocal static var current: BlockingPhase?
}

/// What the functions answered for one operation.
struct BlockingDecision: Sendable {
    /// The account the functions were told about, and whether it was being created.
    let localID: String
    let isNew: Bool
    /// `beforeCreate`'s answer, then `beforeSignIn`'s over it.
    let verdict: BlockingVerdict
}

/// Thrown out of a probe's transaction when the operation calls functions: their events.
struct BlockingConsult: Error, Sendable {
    let localID: String
    let isNew: Bool
    /// `beforeCreate`'s event, for an account being created.
    var create: BlockingEvent?
    /// `beforeSignIn`'s event, when the operation issues tokens.
    var signIn: BlockingEvent?

    /// Calls the functions (outside any transaction): `beforeCreate`, then `beforeSignIn` told of the account as
    /// `beforeCreate` left it.
    /// - Throws: the refusal or failure of a function.
    func decide(with functions: BlockingFunctions) async throws(AuthError) -> BlockingDecision {
        let provided = ProviderFacts.current
        var verdict = BlockingVerdict()
        if var create {
            provided.fill(&create)
            if let answer = try await functions.call(create) { verdict = answer }
        }
        if var signIn {
            provided.fill(&signIn)
            if var user = signIn.user {
                verdict.apply(to: &user)
                signIn.user = user
            }
            if let answer = try await functions.call(signIn) { verdict = verdict.overridden(by: answer) }
        }
        return BlockingDecision(localID: localID, isNew: isNew, verdict: verdict)
    }
}

/// What a federated sign-in's provider gave, for its blocking functions (`raw_user_info`, `oauth_*`).
struct ProviderFacts: Sendable {
    var rawUserInfo: String?
    var idToken: String?
    var accessToken: String?
    var refreshToken: String?
    var tokenSecret: String?
    /// A SAML sign-in's assertion attributes (`sign_in_attributes`, the functions' `credential.claims`).
    var signInAttributes: [String: JSONValue]?

    /// The federated sign-in in progress (empty otherwise).
    @TaskLocal static var current = ProviderFacts()

    func fill(_ event: inout BlockingEvent) {
        event.rawUserInfo = event.rawUserInfo ?? rawUserInfo
        event.oauthIDToken = event.oauthIDToken ?? idToken
        event.oauthAccessToken = event.oauthAccessToken ?? accessToken
        event.oauthRefreshToken = event.oauthRefreshToken ?? refreshToken
        event.oauthTokenSecret = event.oauthTokenSecret ?? tokenSecret
        event.signInAttributes = event.signInAttributes ?? signInAttributes
    }
}

/// The node's store with its writes run through ``BlockingPhase``: probe, functions, decided run; a write that
/// consults no function runs once. Reads pass through.
struct BlockingStore: AuthStore {
    let base: any AuthStore
    let functions: BlockingFunctions

    /// How many times an operation is consulted before giving up (the account changed under it each time).
    static let maxRounds = 3

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        guard BlockingPhase.current == nil, functions.anyConfigured else { return try await base.write(body) }
        var phase = BlockingPhase.probe
        for _ in 0..<Self.maxRounds {
            // The store runs the closure in a task of its own: the phase goes with it.
            let current = phase
            do {
                return try await base.write { tx in try await BlockingPhase.$current.withValue(current) { try await body(tx) } }
            } catch let consult as BlockingConsult {
                phase = .decided(try await consult.decide(with: functions))
            }
        }
        throw AuthError.blockingFunctionFailed.with(detail: "((The account changed while its blocking functions ran; try again.))")
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T { try await base.read(body) }

    func close() async throws { try await base.close() }

    func announce(_ change: StoreChange) async { await base.announce(change) }

    func changes() -> AsyncStream<StoreChange> { base.changes() }
}

import Foundation

extension Auth {
    /// The current user now and after every sign-in state change, as an async sequence (FirebaseAuth's
    /// `authStateChanges`). Each iteration adds a state listener, removed when the iteration ends.
    public var authStateChanges: AuthStateChangesSequence { AuthStateChangesSequence(self) }

    /// The current user now and after every ID-token change (sign-in, refresh, sign-out), as an async sequence
    /// (FirebaseAuth's `idTokenChanges`). Each iteration adds an ID-token listener, removed when the iteration ends.
    public var idTokenChanges: IDTokenChangesSequence { IDTokenChangesSequence(self) }

    /// The sequence of `authStateChanges`.
    public struct AuthStateChangesSequence: AsyncSequence, Sendable {
        /// The current user, or `nil` when signed out.
        public typealias Element = User?
        /// The sequence never fails.
        public typealias Failure = Never

        private let auth: Auth

        /// The sequence of `auth`'s sign-in state.
        public init(_ auth: Auth) { self.auth = auth }

        /// A new iteration, with its own listener.
        public func makeAsyncIterator() -> ListenerIterator {
            ListenerIterator(auth: auth, add: { $0.addStateDidChangeListener($1) }, remove: { $0.removeStateDidChangeListener($1) })
        }
    }

    /// The sequence of `idTokenChanges`.
    public struct IDTokenChangesSequence: AsyncSequence, Sendable {
        /// The current user, or `nil` when signed out.
        public typealias Element = User?
        /// The sequence never fails.
        public typealias Failure = Never

        private let auth: Auth

        /// The sequence of `auth`'s ID-token changes.
        public init(_ auth: Auth) { self.auth = auth }

        /// A new iteration, with its own listener.
        public func makeAsyncIterator() -> ListenerIterator {
            ListenerIterator(auth: auth, add: { $0.addIDTokenDidChangeListener($1) }, remove: { $0.removeIDTokenDidChangeListener($1) })
        }
    }

    /// An iteration of `authStateChanges` or `idTokenChanges`: a listener feeding a stream.
    public struct ListenerIterator: AsyncIteratorProtocol {
        private var iterator: AsyncStream<User?>.Iterator

        init(
            auth: Auth, add: (Auth, @escaping (Auth, User?) -> Void) -> any NSObjectProtocol,
            remove: @escaping @Sendable (Auth, any NSObjectProtocol) -> Void
        ) {
            let (stream, continuation) = AsyncStream<User?>.makeStream()
            let handle = Callback(function: add(auth) { _, user in continuation.yield(user) })
            continuation.onTermination = { _ in remove(auth, handle.function) }
            iterator = stream.makeAsyncIterator()
        }

        /// The next user, waiting for the next change.
        public mutating func next() async -> User?? { await iterator.next() }
    }
}

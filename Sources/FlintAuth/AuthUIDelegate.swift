/// What presents app-verification challenges, as FirebaseAuth's `AuthUIDelegate`.
///
/// FlintAuth has no UI of its own and does not run app verification yet, so the protocol has no requirements: a
/// later version will hand the conforming type the challenge URL to present. Passing `nil` is always fine.
public protocol AuthUIDelegate: AnyObject, Sendable {}

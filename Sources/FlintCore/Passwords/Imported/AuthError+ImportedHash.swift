/// What `accounts:batchCreate` answers for hash parameters it refuses (HTTP 400).
///
/// `INVALID_HASH_ROUNDS` (rounds out of range) and `INVALID_HASH_PARAMETER` (a `STANDARD_SCRYPT` parameter missing or
/// wrong) are the strings Firebase has been seen to answer. The others follow the names of the Admin SDKs' error
/// codes (`auth/invalid-hash-algorithm`, ...) and a third-party recording of production (`EMPTY_HASH_KEY`); Firebase
/// does not document them.
extension AuthError {
    /// No `hashAlgorithm` while users carry a `passwordHash`.
    package static let missingHashAlgorithm = AuthError(code: "MISSING_HASH_ALGORITHM")
    /// A `hashAlgorithm` that is not one of Firebase's.
    package static let invalidHashAlgorithm = AuthError(code: "INVALID_HASH_ALGORITHM")
    /// `rounds` outside the algorithm's range.
    package static let invalidHashRounds = AuthError(code: "INVALID_HASH_ROUNDS")
    /// A `SCRYPT` `memoryCost` outside 1...14.
    package static let invalidHashMemoryCost = AuthError(code: "INVALID_HASH_MEMORY_COST")
    /// No `signerKey` (or an empty one) for `SCRYPT` or an `HMAC_*` algorithm.
    package static let emptyHashKey = AuthError(code: "EMPTY_HASH_KEY")
    /// A `STANDARD_SCRYPT` parameter missing or out of range.
    package static let invalidHashParameter = AuthError(code: "INVALID_HASH_PARAMETER")
}

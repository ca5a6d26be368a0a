extension AuthError {
    /// ``status`` under a second name: the server's `HTTPResponseError` conformance declares its own `status` (an
    /// `HTTPResponse.Status`), which hides this one inside that module.
    package var httpStatusCode: Int { status }
}

// `import FirebaseAuth` in an app brings in FlintAuth, so code written for FirebaseAuth (including qualified names
// such as `FirebaseAuth.User`) compiles unchanged against a Flint server.
@_exported import FlintAuth

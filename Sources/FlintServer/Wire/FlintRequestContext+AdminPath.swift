import FlintCore
import Hummingbird

extension FlintRequestContext {
    /// The `v1/projects/{project}/...` forms are the Admin SDKs': operator only, and for this server's project.
    func checkAdminPath(projectID: String) throws(AuthError) {
        guard let project = parameters.get("project") else { return }
        try requireAdmin()
        guard project == projectID else { throw AuthError.projectNotFound }
    }
}

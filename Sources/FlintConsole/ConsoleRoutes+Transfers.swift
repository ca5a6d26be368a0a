import FlintCore
import FlintServer
import FlintStore
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Users — import and export (`/console/import`): an upload in `firebase auth:export`'s formats imported in the
/// background by the code `flint users import` runs (``ImportRun``), its page following the job, and the export
/// download that `flint users export` writes (``UserExport``), streamed a page of accounts at a time. Both audited as
/// `ADMIN_ACTION`s; importing needs the admin role, exporting only a session (as the admin API's `downloadAccount` takes
/// a read-scoped credential).
extension ConsoleRoutes {
    /// Users written per transaction of a console import: small enough that live sign-ins wait little for the writer.
    static let importBatchSize = 1000

    func transfers(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        return try await transfersPage(caller, [:])
    }

    /// The page with `data` (a refusal and the form's values when an upload was refused), listing the newest jobs
    /// into the page's tenant, of every node.
    private func transfersPage(_ caller: ConsoleCaller, _ data: [String: Any], status: HTTPResponse.Status = .ok) async throws -> Response {
        var data = data
        let now = flow.node.clock.now()
        data["jobs"] = try await flow.node.store.read { try await $0.importJobs(tenant: .scoped, limit: ConsoleImportJobs.listed) }.map {
            ConsoleImportJobs.data($0, now: now)
        }
        data["limit"] = ConsoleTransfers.size(imports.uploadLimit)
        data["algorithms"] = (["none"] + ConsoleTransfers.algorithms).map { name -> [String: Any] in
            [
                "value": name, "label": name == "none" ? "None (users with a password hash are refused)" : name,
                "selected": (data["hashAlgo"] as? String ?? "none") == name,
            ]
        }
        return pages.page("transfers", title: "Users — import and export", data, caller: caller, status: status)
    }

    func importUsers(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard caller.canWrite else { return pages.message("Refused", "Your role (read) may only read.", caller: caller, status: .forbidden) }
        let upload: ConsoleUpload
        do {
            upload = try await ConsoleUpload.read(request, limit: imports.uploadLimit, directory: imports.directory)
        } catch let refusal as ConsoleUpload.Refusal {
            var page = try await transfersPage(caller, ["error": refusal.description], status: refusal.status)
            if refusal.status == .contentTooLarge {
                // The rest of the body is not read: the connection cannot carry another request.
                context.closeConnectionAfterResponse()
                page.headers[.connection] = "close"
            }
            return page
        }
        guard let sent = upload.fields["csrf"], constantTimeEquals(Array(sent.utf8), Array(caller.csrf.utf8)) else {
            if let file = upload.file { unlink(file.path) }
            return csrfRefused(caller)
        }
        let form = upload.fields
        guard let file = upload.file else {
            return try await transfersPage(caller, ConsoleTransfers.echo(form, error: "Choose a file to import."), status: .badRequest)
        }
        do {
            let settings = try ConsoleTransfers.settings(form, fileName: file.name)
            let size = ConsoleTransfers.size(of: file.path)
            let now = flow.node.clock.now()
            let job = ImportJobRecord(
                id: Hex.encode(flow.node.random.bytes(12)), operatorEmail: caller.email, fileName: file.name, format: settings.format.rawValue,
                size: Int64(size), startedAt: now, tenant: .scoped)
            guard imports.reserve() else {
                throw ConsoleUpload.Refusal(description: "An import is running on this node: wait for it to finish, then send the file again.")
            }
            let origin = AuditOrigin.console(ip: context.clientIP, actor: caller.email)
            let detail: [String: JSONValue] = [
                "action": "import", "via": "console", "job": .string(job.id), "file": .string(file.name),
                "format": .string(settings.format.rawValue), "bytes": .number(Double(size)), "existing": .string(settings.existingName),
            ]
            do {
                try await AuditOrigin.$current.withValue(origin) {
                    try await flow.node.store.write { tx in
                        try await tx.insertImportJob(job)
                        try await tx.audit(.adminAction, uid: nil, at: now, detail)
                    }
                }
            } catch {
                imports.release()
                throw error
            }
            runImport(job, path: file.path, settings: settings, origin: origin)
            return ConsolePages.redirect("/console/import/\(job.id)")
        } catch let refusal as ConsoleUpload.Refusal {
            unlink(file.path)
            return try await transfersPage(caller, ConsoleTransfers.echo(form, error: refusal.description), status: .badRequest)
        } catch {
            unlink(file.path)
            throw error
        }
    }

    /// Imports the file at `path` in the background as `job` (``follow(_:node:origin:_:)``), then removes it.
    private func runImport(_ job: ImportJobRecord, path: String, settings: ConsoleTransfers.Settings, origin: AuditOrigin) {
        let node = flow.node
        let run = ImportRun(
            importer: UserImporter(store: node.store, clock: node.clock), algorithm: settings.algorithm, batchSize: Self.importBatchSize,
            existing: settings.existing, writers: 1)
        let format = settings.format
        imports.launch {
            defer { unlink(path) }
            await Self.follow(job, node: node, origin: origin) { summary, progress in
                try await run.file(path, format: format, summary: &summary, progress: progress)
            }
        }
    }

    /// Runs `importing` as `job`: its progress written to the store after each batch (the job's heartbeat), and its
    /// end — done, failed, or interrupted when the task was cancelled (the node's shutdown) or the job is no longer
    /// running in the store — written with the `importFinished` audit event, in one transaction.
    static func follow(
        _ job: ImportJobRecord, node: Node, origin: AuditOrigin,
        _ importing: (_ summary: inout ImportSummary, _ progress: ImportRun.Progress) async throws -> Void
    ) async {
        var summary = ImportSummary(file: job.fileName, format: job.format)
        var offset = 0
        var (status, stopped) = (ImportJobStatus.done, String?.none)
        do {
            try await AuditOrigin.$current.withValue(origin) {
                try await importing(&summary) { summary, read, last in
                    offset = read
                    guard !last else { return }
                    let progress = ConsoleImportJobs.record(job, summary, offset: read, at: node.clock.now())
                    guard try await node.store.write({ try await $0.updateImportJob(progress) }) else { throw ConsoleImportJobs.Interrupted() }
                }
            }
        } catch is CancellationError, is ConsoleImportJobs.Interrupted {
            (status, stopped) = (.interrupted, "The import was interrupted: its node stopped.")
        } catch {
            (status, stopped) = (.failed, "The import stopped: \(error)")
        }
        let end = ConsoleImportJobs.record(job, summary, offset: offset, status: status, error: stopped, at: node.clock.now())
        let detail: [String: JSONValue] = [
            "action": "importFinished", "via": "console", "job": .string(job.id), "file": .string(job.fileName), "status": .string(status.rawValue),
            "read": .number(Double(summary.read)), "imported": .number(Double(summary.imported)), "skipped": .number(Double(summary.skipped)),
            "failed": .number(Double(summary.failed)),
        ]
        // In a task of its own: a cancelled one (the shutdown's) may have its store calls refused. Should this write
        // fail, the job's heartbeat stands still and it reads interrupted after `staleAfter`.
        await Task {
            try? await AuditOrigin.$current.withValue(origin) {
                try await node.store.write { tx in
                    _ = try await tx.updateImportJob(end)
                    try await tx.audit(.adminAction, uid: nil, at: end.heartbeatAt, detail)
                }
            }
        }.value
    }

    func importJob(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let id = context.parameters.get("job") ?? ""
        // A job is shown in its own tenant only.
        guard let job = try await flow.node.store.read({ try await $0.importJob(id: id) }), job.tenant == .scoped else {
            return pages.message(
                "Import", "This import is unknown: imports are kept \(ConsoleImportJobs.retention.components.seconds / 86400) days.",
                link: ("/console/import", "Import and export"), caller: caller,
                status: .notFound)
        }
        let data = ConsoleImportJobs.data(job, now: flow.node.clock.now())
        if ConsoleForm.query("fragment", in: request) == "1" { return pages.fragment("importJob", data) }
        return pages.page("importStatus", title: "Users — import \(job.fileName)", data, caller: caller, policy: ConsolePages.scriptPolicy)
    }

    func exportUsers(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard let form = try await checkedForm(request, csrf: caller.csrf) else { return csrfRefused(caller) }
        let format = ExportFormat(rawValue: form["format"] ?? "") ?? .json
        let node = flow.node
        let now = node.clock.now()
        let origin = AuditOrigin.console(ip: context.clientIP, actor: caller.email)
        await node.recordAudit(
            origin.event(.adminAction, uid: nil, at: now, ["action": "export", "via": "console", "format": .string(format.rawValue)]))
        let store = node.store
        // The body is written after the handler returns: it runs in the page's tenant again.
        let body = ResponseBody { writer in
            try await AuditOrigin.$current.withValue(origin) {
                _ = try await UserExport(format: format).run(from: store) { text in try await writer.write(ByteBuffer(string: text)) }
            }
            try await writer.finish(nil)
        }
        let scope = TenantID.scoped.isDefault ? "" : "\(TenantID.scoped.rawValue)-"
        let name = "flint-users-\(scope)\(RFC3339.format(now).prefix(10)).\(format.rawValue)"
        let headers: HTTPFields = [
            .contentType: format == .json ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
            .contentDisposition: "attachment; filename=\"\(name)\"",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }
}

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
        return transfersPage(caller, [:])
    }

    /// The page with `data` (a refusal and the form's values when an upload was refused).
    private func transfersPage(_ caller: ConsoleCaller, _ data: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        var data = data
        data["jobs"] = imports.recent.map(jobData)
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
            var page = transfersPage(caller, ["error": refusal.description], status: refusal.status)
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
            return transfersPage(caller, ConsoleTransfers.echo(form, error: "Choose a file to import."), status: .badRequest)
        }
        do {
            let settings = try ConsoleTransfers.settings(form, fileName: file.name)
            let size = ConsoleTransfers.size(of: file.path)
            let id = Hex.encode(flow.node.random.bytes(12))
            let now = flow.node.clock.now()
            let job = ConsoleImportJobs.Job(
                id: id, operatorEmail: caller.email, fileName: file.name, format: settings.format, size: size, started: now,
                summary: ImportSummary(file: file.name, format: settings.format.rawValue))
            guard imports.start(job) else {
                throw ConsoleUpload.Refusal(description: "An import is running on this node: wait for it to finish, then send the file again.")
            }
            let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
            let detail: [String: JSONValue] = [
                "action": "import", "via": "console", "file": .string(file.name), "format": .string(settings.format.rawValue),
                "bytes": .number(Double(size)), "existing": .string(settings.existingName),
            ]
            await flow.node.recordAudit(origin.event(.adminAction, uid: nil, at: now, detail))
            runImport(job, path: file.path, settings: settings, origin: origin)
            return ConsolePages.redirect("/console/import/\(id)")
        } catch let refusal as ConsoleUpload.Refusal {
            unlink(file.path)
            return transfersPage(caller, ConsoleTransfers.echo(form, error: refusal.description), status: .badRequest)
        } catch {
            unlink(file.path)
            throw error
        }
    }

    /// Imports the file at `path` in the background (then removes it), noting the progress in ``imports`` and the
    /// outcome in the audit log.
    private func runImport(_ job: ConsoleImportJobs.Job, path: String, settings: ConsoleTransfers.Settings, origin: AuditOrigin) {
        let (node, imports) = (flow.node, imports)
        let run = ImportRun(
            importer: UserImporter(store: node.store, clock: node.clock), algorithm: settings.algorithm, batchSize: Self.importBatchSize,
            existing: settings.existing, writers: 1)
        Task {
            defer { unlink(path) }
            var summary = job.summary
            var stopped: String?
            do {
                try await AuditOrigin.$current.withValue(origin) {
                    try await run.file(path, format: job.format, summary: &summary) { summary, offset, _ in
                        imports.update(job.id, summary: summary, offset: offset)
                    }
                }
            } catch {
                stopped = "The import stopped: \(error)"
            }
            imports.finish(job.id, summary: summary, error: stopped, at: node.clock.now())
            let detail: [String: JSONValue] = [
                "action": "importFinished", "via": "console", "file": .string(job.fileName), "read": .number(Double(summary.read)),
                "imported": .number(Double(summary.imported)), "skipped": .number(Double(summary.skipped)),
                "failed": .number(Double(summary.failed)),
            ]
            await node.recordAudit(origin.event(.adminAction, uid: nil, at: node.clock.now(), detail))
        }
    }

    func importJob(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard let id = context.parameters.get("job"), let job = imports.job(id) else {
            return pages.message(
                "Import", "This import is unknown here: imports are kept by the node that ran them, until it restarts.",
                link: ("/console/import", "Import and export"), caller: caller, status: .notFound)
        }
        let data = jobData(job)
        if ConsoleForm.query("fragment", in: request) == "1" { return pages.fragment("importJob", data) }
        return pages.page("importStatus", title: "Users — import \(job.fileName)", data, caller: caller, policy: ConsolePages.scriptPolicy)
    }

    /// A job's page data: progress while it runs, the report when it is done.
    private func jobData(_ job: ConsoleImportJobs.Job) -> [String: Any] {
        let s = job.summary
        var data: [String: Any] = [
            "id": job.id, "file": job.fileName, "format": job.format.rawValue, "operator": job.operatorEmail, "running": job.running,
            "started": RFC3339.format(job.started), "size": job.size, "offset": min(job.offset, job.size),
            "percent": job.size > 0 ? min(job.offset, job.size) * 100 / job.size : 100,
            "read": s.read, "imported": s.imported, "skipped": s.skipped, "failed": s.failed,
            "failures": s.failures.map { f -> [String: Any] in
                ["row": f.index + 1, "line": f.line, "localId": f.localId ?? "", "message": f.message]
            },
            "hasFailures": !s.failures.isEmpty,
        ]
        if s.failuresNotListed > 0 { data["notListed"] = s.failuresNotListed }
        if let stopped = s.stoppedAt { data["stoppedAt"] = stopped }
        if let error = job.error { data["error"] = error }
        if let finished = job.finished { data["finished"] = RFC3339.format(finished) }
        return data
    }

    func exportUsers(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        guard let form = try await checkedForm(request, csrf: caller.csrf) else { return csrfRefused(caller) }
        let format = ExportFormat(rawValue: form["format"] ?? "") ?? .json
        let node = flow.node
        let now = node.clock.now()
        let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
        await node.recordAudit(
            origin.event(.adminAction, uid: nil, at: now, ["action": "export", "via": "console", "format": .string(format.rawValue)]))
        let store = node.store
        let body = ResponseBody { writer in
            _ = try await UserExport(format: format).run(from: store) { text in try await writer.write(ByteBuffer(string: text)) }
            try await writer.finish(nil)
        }
        let name = "flint-users-\(RFC3339.format(now).prefix(10)).\(format.rawValue)"
        let headers: HTTPFields = [
            .contentType: format == .json ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
            .contentDisposition: "attachment; filename=\"\(name)\"",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }
}

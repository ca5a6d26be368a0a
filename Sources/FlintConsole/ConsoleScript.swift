/// The console's one script, served by Flint at `/console/templates.js` and loaded by the templates page and an
/// import's page only (the only pages whose Content-Security-Policy allows a script, and then only one from the
/// console's origin). On an import's page it asks for the job's part (`?fragment=1`) every second while the import
/// runs and puts it in place (without it, the page has a Refresh link). On the templates page, the live preview.
/// When the operator stops typing for 300 ms, the editor's fields (with its CSRF token) go to
/// `POST /console/templates/preview` with `fragment=1`, and the answer, HTML rendered and escaped by the server,
/// replaces the preview; an answer older than the one shown is dropped. Without it the Preview button posts the same
/// fields and the server answers the whole page.
enum ConsoleScript {
    static let path = "/console/templates.js"

    static let text = """
        "use strict";
        (function () {
          var job = document.getElementById("import-job");
          if (!job) { return; }
          function poll() {
            var part = job.querySelector("[data-job]");
            if (!part || !part.hasAttribute("data-running")) { return; }
            fetch("/console/import/" + encodeURIComponent(part.getAttribute("data-job")) + "?fragment=1", { credentials: "same-origin" })
              .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
              .then(function (html) { job.innerHTML = html; setTimeout(poll, 1000); })
              .catch(function () { setTimeout(poll, 5000); });
          }
          setTimeout(poll, 1000);
        })();
        (function () {
          var form = document.getElementById("template-editor");
          var preview = document.getElementById("preview");
          if (!form || !preview) { return; }
          var timer = null;
          var sent = 0;
          var shown = 0;
          function refresh() {
            var body = new URLSearchParams(new FormData(form));
            body.set("fragment", "1");
            var id = ++sent;
            preview.setAttribute("aria-busy", "true");
            fetch("/console/templates/preview", { method: "POST", body: body, credentials: "same-origin" })
              .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
              .then(function (html) {
                if (id < shown) { return; }
                shown = id;
                preview.innerHTML = html;
                preview.setAttribute("data-preview", String(id));
              })
              .catch(function () {})
              .then(function () { if (id === sent) { preview.removeAttribute("aria-busy"); } });
          }
          form.addEventListener("input", function () {
            clearTimeout(timer);
            timer = setTimeout(refresh, 300);
          });
        })();
        """
}

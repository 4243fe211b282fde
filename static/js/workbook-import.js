/* The workbook import page (templates/scoring/workbook_import.html): instead of one request
   holding hundreds of files, the chosen files go to the page's own address a few at a time
   (form[data-batch] per request, with part=rows), the <progress> counts the files done
   ("n of N files", read out through its aria-live text) and each batch's report rows are added
   to the report table as they come back. A batch the server refuses or cannot take (an error
   status, no network, a session that ended) adds one refused row per file of that batch, with the
   reason, and the next batch goes on. The texts come from the form's data-* attributes, in the
   page's language. Without JavaScript the form posts every file at once, as before. The content
   security policy allows no inline script: this file is loaded by the page. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-workbook-import]");
  if (!form || !window.fetch || !window.FormData) { return; }
  var input = form.querySelector("input[type=file]");
  var button = form.querySelector("button[type=submit]");
  var box = document.getElementById("import-progress");
  var bar = document.getElementById("import-progress-bar");
  var label = document.getElementById("import-progress-text");
  var report = document.getElementById("import-report");
  var rows = document.getElementById("import-report-rows");
  if (!input || !box || !bar || !label || !report || !rows) { return; }
  var size = Math.max(1, Math.min(5, parseInt(form.getAttribute("data-batch"), 10) || 3));

  function text(key, values) {
    var out = form.getAttribute(key) || "";
    Object.keys(values).forEach(function (name) { out = out.split("{" + name + "}").join(String(values[name])); });
    return out;
  }
  function progress(done, total) {
    bar.max = total;
    bar.value = done;
    label.textContent = total === 1 ? text("data-progress-one", {done: done})
                                    : text("data-progress-text", {done: done, total: total});
  }
  function refusedRows(files, reason) {
    files.forEach(function (file) {
      var tr = document.createElement("tr");
      var name = document.createElement("td");
      name.textContent = file.name;
      var status = document.createElement("td");
      var badge = document.createElement("span");
      badge.className = "badge status-refused";
      badge.textContent = form.getAttribute("data-refused-text") || "";
      status.appendChild(badge);
      var details = document.createElement("td");
      var list = document.createElement("ul");
      var item = document.createElement("li");
      item.className = "error";
      item.textContent = reason;
      list.appendChild(item);
      details.appendChild(list);
      tr.append(name, status, details);
      rows.appendChild(tr);
    });
  }
  function send(batch, token) {
    var data = new FormData();
    data.append("part", "rows");
    batch.forEach(function (file) { data.append("files", file, file.name); });
    return fetch(form.action || window.location.href, {
      method: "POST", body: data, credentials: "same-origin",
      headers: {"X-CSRFToken": token, "Accept": "text/html"},
    }).then(function (response) {
      if (response.redirected) {  // to the login page: the session has ended
        refusedRows(batch, text("data-signed-out-text", {}));
        return null;
      }
      if (!response.ok) {
        refusedRows(batch, text("data-failed-text", {status: response.status}));
        return null;
      }
      return response.text().then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        rows.appendChild(holder.content);
      }, function () {
        refusedRows(batch, text("data-unreachable-text", {}));
      });
    }, function () {
      refusedRows(batch, text("data-unreachable-text", {}));
    });
  }

  form.addEventListener("submit", function (event) {
    var files = Array.prototype.slice.call(input.files || []);
    if (!files.length) { return; }  // the browser's own check (required), or the server's answer
    event.preventDefault();
    var tokenInput = form.querySelector("input[name=csrfmiddlewaretoken]");
    var token = tokenInput ? tokenInput.value : "";
    var old = document.getElementById("files-error");
    if (old) { old.remove(); input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); }
    if (button) { button.disabled = true; }
    form.setAttribute("aria-busy", "true");
    rows.replaceChildren();
    report.hidden = false;
    box.hidden = false;
    progress(0, files.length);
    var start = 0;
    function next() {
      if (start >= files.length) {
        form.removeAttribute("aria-busy");
        if (button) { button.disabled = false; }
        return;
      }
      var batch = files.slice(start, start + size);
      start += batch.length;
      function after() {
        progress(start, files.length);
        next();
      }
      send(batch, token).then(after, after);
    }
    next();
  });
})();

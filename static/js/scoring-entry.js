// Result entry: live totals per seat (territories, armies, objective and extra points) and the
// board's total against 164. Plain JS, served locally; the server checks everything again.
//
// A draft of what is typed stays in the browser (localStorage) until the result is saved: a
// reload or a phone's pull-to-refresh in the middle of 42 army fields loses nothing. A draft is
// keyed by tournament, game, table, result version and kind of form; a draft of an older
// version is dropped (the version was saved, or someone else saved a newer one meanwhile).
(function () {
  "use strict";
  var PREFIX = "risiko-result-draft:";

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }  // private mode may refuse
  }

  // Drop this table's drafts of any version but ``keep`` (none when ``keep`` is null).
  function dropDrafts(table, keep) {
    var store = storage();
    if (!store) return;
    for (var i = store.length - 1; i >= 0; i--) {
      var key = store.key(i);
      if (key && key.indexOf(PREFIX + table + ":") === 0 && (keep === null || key.indexOf(keep) !== 0)) {
        store.removeItem(key);
      }
    }
  }

  // The table's page after a save: the saved version's drafts are done with.
  document.querySelectorAll("[data-result-drafts-of]").forEach(function (el) {
    dropDrafts(el.getAttribute("data-result-drafts-of"), el.getAttribute("data-result-draft-keep"));
  });

  var form = document.getElementById("result-form");
  if (!form) return;
  var cardsEl = document.getElementById("objective-cards");
  var cards = cardsEl ? JSON.parse(cardsEl.textContent) : {};
  var totalOut = document.getElementById("live-total");

  function num(v) { var n = parseInt(v, 10); return isNaN(n) ? 0 : n; }

  function update() {
    var rows = form.querySelectorAll("tr[data-seat]");
    var total = 0;
    if (form.querySelector(".territory")) {
      var per = {};
      rows.forEach(function (r) {
        var sel = r.querySelector("select.objective");
        per[r.dataset.seat] = { count: 0, armies: 0, obj: 0, extra: 0, card: sel && cards[sel.value] ? cards[sel.value] : [] };
      });
      form.querySelectorAll(".territory").forEach(function (t) {
        var picked = t.querySelector("input[type=radio]:checked");
        if (!picked || !per[picked.value]) return;
        var s = per[picked.value], value = num(t.dataset.value);
        s.count += 1; s.armies += num(t.querySelector("input.army").value); total += value;
        if (s.card.indexOf(t.dataset.name) >= 0) s.obj += value; else s.extra += value;
      });
      rows.forEach(function (r) {
        var s = per[r.dataset.seat];
        ["count", "armies", "obj", "extra"].forEach(function (k) {
          var cell = r.querySelector('[data-live="' + k + '"]');
          if (cell) cell.textContent = s[k];
        });
        var cap = num(form.dataset.cap);
        var armiesCell = r.querySelector('[data-live="armies"]');
        if (armiesCell) armiesCell.classList.toggle("over", cap > 0 && s.armies > cap);
      });
    } else {
      rows.forEach(function (r) {
        var o = r.querySelector(".short-obj"), e = r.querySelector(".short-extra");
        if (o) total += num(o.value);
        if (e) total += num(e.value);
      });
    }
    if (totalOut) {
      totalOut.textContent = total;
      totalOut.classList.toggle("ok", total === num(form.dataset.total));
    }
  }
  function fields() {
    return form.querySelectorAll("input[name], select[name], textarea[name]");
  }

  function snapshot() {
    var typed = {};
    fields().forEach(function (f) {
      if (f.type === "hidden" || f.type === "file") return;
      if (f.type === "radio") { if (f.checked) typed[f.name] = f.value; }
      else if (f.type === "checkbox") typed[f.name] = f.checked ? f.value : "";
      else typed[f.name] = f.value;
    });
    return typed;
  }

  function restore(typed) {
    fields().forEach(function (f) {
      if (f.type === "hidden" || f.type === "file" || !(f.name in typed)) {
        if (f.type === "radio" && !(f.name in typed)) f.checked = false;
        return;
      }
      if (f.type === "radio") f.checked = typed[f.name] === f.value;
      else if (f.type === "checkbox") f.checked = typed[f.name] === f.value;
      else f.value = typed[f.name];
    });
  }

  var draftKey = form.getAttribute("data-draft-key");
  var store = storage();
  if (draftKey && store) {
    var table = form.getAttribute("data-draft-table");
    dropDrafts(table, draftKey.slice(0, draftKey.lastIndexOf(":") + 1));
    var saved = store.getItem(draftKey);
    if (saved && form.getAttribute("data-draft-restore") === "1") {
      try {
        restore(JSON.parse(saved).typed || {});
        var note = document.getElementById("draft-restored");
        if (note) note.hidden = false;
      } catch (e) { store.removeItem(draftKey); }
    }
    var keep = function () {
      try { store.setItem(draftKey, JSON.stringify({ typed: snapshot(), at: Date.now() })); } catch (e) { /* full */ }
    };
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    var discard = document.getElementById("draft-discard");
    if (discard) {
      discard.addEventListener("click", function () {
        store.removeItem(draftKey);
        window.location.reload();
      });
    }
  }

  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();

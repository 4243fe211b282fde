// Result entry: live totals per seat (territories, armies, objective and extra points) and the
// board's total against 164. Plain JS, served locally; the server checks everything again.
(function () {
  "use strict";
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
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();

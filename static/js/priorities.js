// The compose form's priorities (K-TABLES): choosing a priority for a place MOVES it there and the
// others shift to make room, at once on the page. The server arranges the same way
// (tables.seating.arrange_priorities), so the form works without this script too.
(function () {
  "use strict";
  var form = document.getElementById("compose-form");
  if (!form) return;
  var selects = Array.prototype.slice.call(form.querySelectorAll("select[name^='priority_']"));
  var before = form.querySelector("input[name='priorities_before']");
  var shown = selects.map(function (s) { return s.value; });

  function arrange(chosen, prior) {
    var slots = chosen.map(function () { return null; }), placed = {};
    chosen.forEach(function (key, i) {
      if (key && prior[i] !== key && !placed[key]) { slots[i] = key; placed[key] = true; }
    });
    var dropped = {};
    chosen.forEach(function (key, i) { if (!key && prior[i]) dropped[prior[i]] = true; });
    var rest = [];
    prior.concat(chosen).forEach(function (key) {
      if (key && !placed[key] && !dropped[key] && rest.indexOf(key) < 0) rest.push(key);
    });
    rest.forEach(function (key) {
      var at = slots.indexOf(null);
      if (at < 0) slots.push(key); else slots[at] = key;
    });
    return slots.filter(function (key) { return key; });
  }

  selects.forEach(function (select, i) {
    select.addEventListener("change", function () {
      var chosen = shown.slice();
      chosen[i] = select.value;
      var order = arrange(chosen, shown);
      selects.forEach(function (s, j) { s.value = order[j] || ""; });
      shown = selects.map(function (s) { return s.value; });
      if (before) before.value = shown.filter(function (k) { return k; }).join(",");
    });
  });
})();

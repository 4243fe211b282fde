/* Small behaviours that used to be inline on* attributes: the content security policy
   (common/security.py) allows no inline script, so pages mark elements with data attributes.
   - <select data-autosubmit>: submit its form when the choice changes (language picker);
   - <button data-print>: open the print dialog;
   - #refusal (base.html): an htmx action the server refused is answered into it (common/htmx.py);
     here it is emptied when a new action starts, and says so when the server fails (5xx) or
     cannot be reached, in the page's language (its data-* texts);
   - <button data-copy="text">: copy the text (an invitation link) to the clipboard;
   - <input data-value-from="#id">: takes that element's value when its form is submitted
     (the check-in page's "everyone shown" sends the search typed meanwhile);
   - [data-keep-selection]: its polling refresh waits while a checkbox in it is ticked.
   - a part of the page an htmx poll replaces keeps where it was scrolled to (its scroll boxes
     with an id, and the window): a periodic refresh never throws a reader on a phone back to
     the left edge of a long table; a <details> with an id stays open or closed as its reader
     left it. The focus (and a field's caret) htmx itself gives back to
     the new element with the same id, so a control inside a polled part needs a stable id. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el && el.matches && el.matches("[data-autosubmit]") && el.form) {
      el.form.submit();
    }
  });
  var kept = null;
  function boxes(root) {
    var found = root.matches && root.matches(".scroll[id], [data-keep-scroll][id]") ? [root] : [];
    return found.concat(Array.prototype.slice.call(root.querySelectorAll(".scroll[id], [data-keep-scroll][id]")));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) { return; }
    kept = {x: window.scrollX, y: window.scrollY, boxes: {}, open: {}};
    boxes(target).forEach(function (el) { kept.boxes[el.id] = [el.scrollLeft, el.scrollTop]; });
    target.querySelectorAll("details[id]").forEach(function (el) { kept.open[el.id] = el.open; });
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!kept) { return; }
    var state = kept;
    kept = null;
    Object.keys(state.boxes).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { el.scrollLeft = state.boxes[id][0]; el.scrollTop = state.boxes[id][1]; }
    });
    Object.keys(state.open).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { el.open = state.open[id]; }
    });
    if (window.scrollX !== state.x || window.scrollY !== state.y) { window.scrollTo(state.x, state.y); }
  });
  document.addEventListener("click", function (event) {
    var el = event.target && event.target.closest ? event.target.closest("[data-print]") : null;
    if (el) {
      event.preventDefault();
      window.print();
      return;
    }
    var copy = event.target && event.target.closest ? event.target.closest("[data-copy]") : null;
    if (copy && navigator.clipboard) {
      event.preventDefault();
      navigator.clipboard.writeText(copy.getAttribute("data-copy")).then(function () {
        copy.setAttribute("data-copied", "");
      }, function () {});
    }
  });
  function refusalArea() { return document.getElementById("refusal"); }
  function say(key) {
    var area = refusalArea();
    if (area) {
      var p = document.createElement("p");
      p.className = "refusal";
      p.textContent = area.getAttribute(key) || "";
      area.replaceChildren(p);
    }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.querySelectorAll) { return; }
    form.querySelectorAll("input[data-value-from]").forEach(function (input) {
      var source = document.querySelector(input.getAttribute("data-value-from"));
      if (source) { input.value = source.value; }
    });
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-keep-selection")
        && elt.querySelector("input[type=checkbox]:checked")) {
      event.preventDefault();
      return;
    }
    var area = refusalArea();
    // a poll (hx-trigger="every …") leaves a refusal on screen; a person's action clears it
    var trigger = event.detail && event.detail.elt ? event.detail.elt.getAttribute("hx-trigger") || "" : "";
    if (area && trigger.indexOf("every") === -1) { area.replaceChildren(); }
  });
  document.addEventListener("htmx:responseError", function () { say("data-server-error"); });
  document.addEventListener("htmx:sendError", function () { say("data-offline"); });
})();

/* Table clocks (E-TIME): a countdown from the SERVER's time, no dependency.
 *
 * Each element rendered by templates/tables/_clock.html carries the deadline and the server's
 * "now" (epoch seconds) when the page was made. We never read the phone's wall clock: elapsed
 * time is measured with performance.now() (monotonic), so a phone whose clock is wrong, or is
 * changed meanwhile, still shows the right time. Elements swapped in by htmx bring a fresh
 * server time. When a countdown reaches zero the element gets "clock--expired" and the event
 * "clock:expired" bubbles (pages may poll with hx-trigger="clock:expired from:body").
 */
(function () {
  "use strict";
  if (window.RisikoClock) { return; }  // the partial may include this script more than once

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h > 0 ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
  }

  function setup(el) {
    if (el._clock) { return; }
    var deadline = parseFloat(el.getAttribute("data-deadline"));
    var serverNow = parseFloat(el.getAttribute("data-server-now"));
    el._clock = {
      deadline: deadline,
      pausedAt: parseFloat(el.getAttribute("data-paused-at")),
      serverNow: serverNow,
      loadedAt: window.performance && performance.now ? performance.now() : 0,
      fired: false
    };
  }

  function tick(el) {
    setup(el);
    var c = el._clock, state = el.getAttribute("data-state");
    var text = el.querySelector("[data-clock-text]") || el;
    if (state === "not_started" || state === "expired" || isNaN(c.deadline)) { return; }
    var left;
    if (state === "paused" && !isNaN(c.pausedAt)) {
      left = c.deadline - c.pausedAt;
      text.textContent = format(left);
      return;
    }
    var elapsed = ((window.performance && performance.now ? performance.now() : 0) - c.loadedAt) / 1000;
    left = c.deadline - (c.serverNow + elapsed);
    if (left <= 0) {
      text.textContent = el.getAttribute("data-text-expired") || "0:00";
      el.classList.add("clock--expired");
      if (!c.fired) {
        c.fired = true;
        el.dispatchEvent(new CustomEvent("clock:expired", { bubbles: true }));
      }
      return;
    }
    text.textContent = format(left);
    el.classList.toggle("clock--last-minutes", left < 600);
  }

  function tickAll() {
    var els = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < els.length; i++) { tick(els[i]); }
  }

  window.RisikoClock = { format: format, tickAll: tickAll };
  document.addEventListener("DOMContentLoaded", tickAll);
  document.addEventListener("htmx:load", tickAll);
  setInterval(tickAll, 1000);
  tickAll();
})();

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

  // One format all the way down: h:mm:ss (1:29:52 … 0:01:17 … 0:00:00), so the clock never
  // changes shape under a reader's eyes when the last hour begins.
  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h + ":" + pad(m) + ":" + pad(s);
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

  // A page answered with "304 Not Modified" (common/live.py) keeps the server time it was first
  // made at: ask the server's time once (/time), and count from it when it is known.
  var synced = null;
  function sync() {
    if (synced !== null || !window.fetch || !document.querySelector("[data-clock]")) { return; }
    synced = false;
    var t0 = performance.now();
    fetch("/time", { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        var t1 = performance.now();
        synced = { server: data.now + (t1 - t0) / 2000, at: t1 };
        tickAll();
      })
      .catch(function () { synced = null; });
  }

  function serverTime(c) {
    var now = window.performance && performance.now ? performance.now() : 0;
    if (synced) { return synced.server + (now - synced.at) / 1000; }
    return c.serverNow + (now - c.loadedAt) / 1000;
  }

  function tick(el) {
    setup(el);
    var c = el._clock, state = el.getAttribute("data-state");
    var text = el.querySelector("[data-clock-text]") || el;
    // a closed game's clock ("stopped") stands still, whatever its deadline says
    if (state === "not_started" || state === "expired" || state === "stopped" || isNaN(c.deadline)) { return; }
    var left;
    if (state === "paused" && !isNaN(c.pausedAt)) {
      left = c.deadline - c.pausedAt;
      text.textContent = format(left);
      return;
    }
    left = c.deadline - serverTime(c);
    if (left <= 0) {
      text.textContent = el.getAttribute("data-text-expired") || "0:00:00";
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
  document.addEventListener("DOMContentLoaded", function () { sync(); tickAll(); });
  document.addEventListener("htmx:load", tickAll);
  setInterval(tickAll, 1000);
  sync();
  tickAll();
})();

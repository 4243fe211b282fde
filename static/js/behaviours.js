/* Small behaviours that used to be inline on* attributes: the content security policy
   (config/security.py) allows no inline script, so pages mark elements with data attributes.
   - <select data-autosubmit>: submit its form when the choice changes (language picker);
   - <button data-print>: open the print dialog. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el && el.matches && el.matches("[data-autosubmit]") && el.form) {
      el.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var el = event.target && event.target.closest ? event.target.closest("[data-print]") : null;
    if (el) {
      event.preventDefault();
      window.print();
    }
  });
})();

/* Every form shows that it was sent and cannot be sent twice (issue 11).
 *
 * Once a form is submitted, its submit buttons are disabled and marked busy (aria-busy, and the
 * pressed button says "Saving…", or "Searching…" for a search form, or its data-busy-label),
 * and the form is aria-busy until the next page comes. The buttons are disabled only after the
 * browser has read the form, so the pressed button's name and value are still sent. An htmx form
 * gets its buttons back when its request ends; a page restored from the back-forward cache gets
 * them back too. Without this script (progressive enhancement) forms post as before. An external
 * file, so the Content-Security-Policy needs no nonce for it.
 */
(function () {
  "use strict";

  var BUTTONS = 'button[type="submit"], button:not([type]), input[type="submit"]';

  function buttonsOf(form) {
    var inside = Array.prototype.slice.call(form.querySelectorAll(BUTTONS));
    var outside = form.id
      ? Array.prototype.slice.call(document.querySelectorAll('[form="' + form.id + '"]'))
      : [];
    return inside.concat(outside.filter(function (el) { return el.matches(BUTTONS); }));
  }

  function busyLabel(form, button) {
    if (button.dataset.busyLabel) return button.dataset.busyLabel;
    return (form.method || "get").toLowerCase() === "get" ? "Searching…" : "Saving…";
  }

  function setLabel(button, text) {
    if (button.tagName === "INPUT") {
      button.value = text;
    } else {
      button.textContent = text;
    }
  }

  function markBusy(form, pressed) {
    form.setAttribute("aria-busy", "true");
    buttonsOf(form).forEach(function (button) {
      if (button.disabled) return;
      button.dataset.idleLabel = button.tagName === "INPUT" ? button.value : button.textContent;
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.dataset.sentBy = "outfall";
      if (button === pressed) setLabel(button, busyLabel(form, button));
    });
  }

  function markIdle(form) {
    form.removeAttribute("aria-busy");
    delete form.dataset.sending;
    buttonsOf(form).forEach(function (button) {
      if (button.dataset.sentBy !== "outfall") return;
      button.disabled = false;
      button.removeAttribute("aria-busy");
      setLabel(button, button.dataset.idleLabel);
      delete button.dataset.sentBy;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute("data-no-busy")) return;
    var htmx = form.hasAttribute("hx-post") || form.hasAttribute("hx-get");
    if (event.defaultPrevented && !htmx) return;
    if (form.dataset.sending === "1") {
      event.preventDefault();
      return;
    }
    form.dataset.sending = "1";
    var pressed = event.submitter || null;
    window.setTimeout(function () { markBusy(form, pressed); }, 0);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target && event.target.closest ? event.target.closest("form") : null;
    if (form) markIdle(form);
  });

  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    Array.prototype.forEach.call(document.querySelectorAll("form[data-sending]"), markIdle);
  });
})();

/* outfall — data tables that fit the screen (WCAG 2.1 1.4.10 reflow, 2.1.1 keyboard).
   Each table.data is put in a box that scrolls sideways on its own (role="region", named by the
   table's caption), so a wide table never widens the page and its words are not broken to fit.
   The box takes the keyboard focus (tabindex="0") only when it does scroll and holds nothing
   focusable itself; otherwise Tab reaches its links and the browser scrolls them into view.
   On a phone the stylesheet stacks each row's cells; every cell is given its column's heading
   (data-label) so the stacked cell still says what it is.
   Without this script the stylesheet lets the table's words wrap anywhere instead. */
(function () {
  "use strict";
  function focusable(box) {
    var scrolls = box.scrollWidth > box.clientWidth + 1;
    var inside = box.querySelector("a[href], button, input, select, textarea, [tabindex]");
    if (scrolls && !inside) { box.setAttribute("tabindex", "0"); } else { box.removeAttribute("tabindex"); }
  }
  function label(table) {
    var rows = table.tHead ? table.tHead.rows : [];
    if (rows.length !== 1) { return; }
    var names = [];
    Array.prototype.forEach.call(rows[0].cells, function (th) {
      for (var i = 0; i < th.colSpan; i++) { names.push(th.textContent.trim().replace(/\s+/g, " ")); }
    });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        var column = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          if (cell.colSpan === 1 && names[column]) { cell.setAttribute("data-label", names[column]); }
          column += cell.colSpan;
        });
      });
    });
  }
  function wrap(root) {
    var tables = (root.querySelectorAll ? root : document).querySelectorAll("table.data");
    Array.prototype.forEach.call(tables, function (table) {
      if (table.parentElement && table.parentElement.classList.contains("table-scroll")) { return; }
      var box = document.createElement("div");
      var caption = table.querySelector("caption");
      box.className = "table-scroll";
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", caption ? caption.textContent.trim().replace(/\s+/g, " ") : "Table");
      table.parentNode.insertBefore(box, table);
      box.appendChild(table);
      label(table);
      focusable(box);
    });
  }
  function refit() { Array.prototype.forEach.call(document.querySelectorAll(".table-scroll"), focusable); }
  document.addEventListener("DOMContentLoaded", function () { wrap(document); });
  document.addEventListener("htmx:load", function (e) { wrap(e.target); });
  window.addEventListener("resize", refit);
})();

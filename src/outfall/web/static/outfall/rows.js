/* Rows of a form the person may add and remove (the decision's conditions). A list marked
   data-rows holds items marked data-row; "Add" copies the last item emptied, "Remove" takes one
   out, and the inputs are numbered again in order (condition_1_text, condition_2_text, ...).
   Without this script the page offers its blank rows and blank rows are ignored. */
(function () {
  "use strict";
  function renumber(list) {
    list.querySelectorAll("[data-row]").forEach(function (row, i) {
      var n = String(i + 1);
      row.querySelectorAll("[name], [for], [id]").forEach(function (el) {
        ["name", "id", "for"].forEach(function (attr) {
          var value = el.getAttribute(attr);
          if (value) { el.setAttribute(attr, value.replace(/condition_\d+_/, "condition_" + n + "_")); }
        });
      });
      row.querySelectorAll("label").forEach(function (label) {
        label.textContent = label.textContent.replace(/Condition \d+/, "Condition " + n);
      });
      row.querySelectorAll("[data-remove-row]").forEach(function (b) { b.textContent = "Remove condition " + n; });
    });
  }
  document.querySelectorAll("[data-rows]").forEach(function (list) {
    var form = list.closest("form");
    var add = form.querySelector("[data-add-row]");
    function wire(row) {
      var remove = row.querySelector("[data-remove-row]");
      remove.hidden = false;
      remove.addEventListener("click", function () {
        if (list.querySelectorAll("[data-row]").length > 1) {
          var next = row.nextElementSibling || row.previousElementSibling;
          row.remove();
          renumber(list);
          if (next) { next.querySelector("textarea").focus(); }
        } else {
          row.querySelector("textarea").value = "";
        }
      });
    }
    list.querySelectorAll("[data-row]").forEach(wire);
    add.hidden = false;
    add.addEventListener("click", function () {
      var rows = list.querySelectorAll("[data-row]");
      var copy = rows[rows.length - 1].cloneNode(true);
      copy.querySelector("textarea").value = "";
      copy.querySelector("select").selectedIndex = 0;
      copy.querySelectorAll(".errorlist").forEach(function (e) { e.remove(); });
      list.appendChild(copy);
      wire(copy);
      renumber(list);
      copy.querySelector("textarea").focus();
    });
  });
})();

/**
 * The report's own inline JavaScript: static code that never contains data
 * (data travels in a `type="application/json"` element and is read with
 * `JSON.parse`), so a Content-Security-Policy hash can allow exactly it.
 */

/**
 * Draws every chart from the specs element with vega-embed (SVG renderer, no
 * action menu: its links lead to the online editor). The specs are sized for
 * a paper column; on screen each SVG is shown 1.6 times larger (its viewBox
 * keeps it sharp), never wider than the page.
 */
export const EMBED_SCRIPT = `(function () {
  "use strict";
  var holder = document.getElementById("chart-specs");
  if (!holder || typeof vegaEmbed !== "function") return;
  var charts = JSON.parse(holder.textContent);
  charts.forEach(function (chart) {
    var el = document.getElementById("chart-" + chart.name);
    if (!el) return;
    var options = { actions: false, renderer: "svg", defaultStyle: false };
    // Interpreted expressions: the page's policy does not allow Function().
    if (window.vegaExpressionInterpreter) {
      options.ast = true;
      options.expr = window.vegaExpressionInterpreter;
    }
    vegaEmbed(el, chart.spec, options).then(function () {
      var svg = el.querySelector("svg");
      var width = svg && parseFloat(svg.getAttribute("width"));
      if (width) {
        svg.style.width = Math.round(width * 1.6) + "px";
        svg.style.height = "auto";
      }
      el.setAttribute("data-rendered", "true");
    }).catch(function (error) {
      el.textContent = "This chart could not be drawn: " + error.message;
      console.error(error);
    });
  });
})();`;

/**
 * Sortable tables: a click (or Enter) on a header sorts the body rows by
 * that column, numbers by their \`data-sort\` value, text by its content;
 * a second click reverses. Without JavaScript the table reads as printed.
 */
export const SORT_SCRIPT = `(function () {
  "use strict";
  function key(cell) {
    var v = cell.getAttribute("data-sort");
    return v === null ? cell.textContent.trim() : v;
  }
  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    var xn = a !== "" && !isNaN(x) && isFinite(a), yn = b !== "" && !isNaN(y) && isFinite(b);
    if (xn && yn) return x - y;
    if (xn !== yn) return xn ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function sort(table, column, th) {
    var descending = th.getAttribute("aria-sort") === "ascending";
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row._order = i; });
    rows.sort(function (r1, r2) {
      var c = compare(key(r1.cells[column]), key(r2.cells[column]));
      return (descending ? -c : c) || r1._order - r2._order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.tabIndex = 0;
      th.title = "sort";
      th.addEventListener("click", function () { sort(table, column, th); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(table, column, th); });
    });
  });
})();`;

/**
 * In-page links into a collapsed section (the headline's "Left out" points at the exclusions inside a closed
 * `<details>`): open every `<details>` around the link's target, on load and whenever the fragment changes, so the
 * browser can scroll to it. Without JavaScript the section stays closed, one click away.
 */
export const OPEN_TARGET_SCRIPT = `(function () {
  "use strict";
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var node = el; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();`;

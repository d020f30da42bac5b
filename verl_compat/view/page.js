(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var body = document.getElementById("detail-body");
  var pick = document.getElementById("pick");
  if (!pick) { document.body.setAttribute("data-ready", "1"); return; }
  function fmt(n) {
    var sign = n < 0 ? "-" : "", a = Math.abs(n), units = [["GiB", 1073741824], ["MiB", 1048576], ["KiB", 1024]];
    for (var i = 0; i < units.length; i++) if (a >= units[i][1]) return sign + (a / units[i][1]).toFixed(2) + " " + units[i][0];
    return sign + a + " B";
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function stack(id) {
    var frames = data.stacks[id] || [];
    var summary = el("summary", {}, [el("code", {}, [frames[0] || ""])]);
    var list = el("ol", {}, frames.slice(1).map(function (f) { return el("li", {}, [f]); }));
    return el("details", {"class": "stack"}, [summary, list]);
  }
  function show(index) {
    var s = data.snapshots[index];
    if (!s) return;
    pick.value = String(index);
    document.querySelectorAll("#steps-table td.selected").forEach(function (td) { td.classList.remove("selected"); });
    var cell = document.querySelector('#steps-table td[data-id="' + index + '"]');
    if (cell) cell.classList.add("selected");
    body.textContent = "";
    body.appendChild(el("h3", {"id": "detail-title"}, [s.label + ", rank " + s.rank]));
    body.appendChild(el("p", {}, ["peak allocated " + fmt(s.peak) + ", reserved then " + fmt(s.reserved) +
      ", fragmentation " + fmt(s.frag) + "; held at the end " + fmt(s.end) + " (" + s.events + " trace entries). File: ",
      el("code", {}, [s.path])]));
    body.appendChild(el("h3", {}, ["Top allocations at the peak, by stack"]));
    var top = el("table", {"id": "top-table"}, [el("thead", {}, [el("tr", {}, [el("th", {}, ["bytes"]), el("th", {}, ["count"]), el("th", {}, ["allocated from"])])])]);
    var tbody = el("tbody");
    s.top.forEach(function (t) {
      tbody.appendChild(el("tr", {}, [el("td", {"class": "num"}, [fmt(t[1])]), el("td", {"class": "num"}, [String(t[2])]), el("td", {}, [stack(t[0])])]));
    });
    top.appendChild(tbody);
    body.appendChild(top);
    if (s.prev === null) {
      body.appendChild(el("p", {"class": "note", "id": "diff-none"}, ["No previous step for this rank to compare with."]));
      return;
    }
    body.appendChild(el("h3", {}, ["What changed since " + s.prev + ", by stack"]));
    var diff = el("table", {"id": "diff-table"}, [el("thead", {}, [el("tr", {}, [el("th", {}, ["held at step end"]), el("th", {}, ["at the peak"]), el("th", {}, ["allocated from"])])])]);
    var dbody = el("tbody");
    s.diff.forEach(function (d) {
      dbody.appendChild(el("tr", {}, [
        el("td", {"class": "num " + (d[1] > 0 ? "grow-pos" : "grow-neg")}, [(d[1] > 0 ? "+" : "") + fmt(d[1])]),
        el("td", {"class": "num"}, [(d[2] > 0 ? "+" : "") + fmt(d[2])]),
        el("td", {}, [stack(d[0])])]));
    });
    diff.appendChild(dbody);
    body.appendChild(diff);
  }
  document.querySelectorAll("#steps-table td.cell").forEach(function (td) {
    td.addEventListener("click", function () { show(Number(td.getAttribute("data-id"))); });
    td.addEventListener("keydown", function (e) { if (e.key === "Enter") show(Number(td.getAttribute("data-id"))); });
  });
  pick.addEventListener("change", function () { show(Number(pick.value)); });
  if (data.start !== null) show(data.start);
  document.body.setAttribute("data-ready", "1");
})();

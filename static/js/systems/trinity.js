/* The Trinity Code: drag a token on the range-band board to another band of its row (the GM's board).
   Tapping a band works without this script: each band is a button posting trinity.set_band. */
(function () {
  "use strict";
  var drag = null;

  function cellAt(x, y, pair) {
    var el = document.elementFromPoint(x, y);
    var cell = el && el.closest(".tc-cell");
    return cell && cell.dataset.pair === pair ? cell : null;
  }

  function mark(cell) {
    if (drag.over && drag.over !== cell) drag.over.classList.remove("drop");
    drag.over = cell;
    if (cell) cell.classList.add("drop");
  }

  function place(e) {
    drag.token.style.left = e.clientX + "px";
    drag.token.style.top = e.clientY + "px";
  }

  document.addEventListener("pointerdown", function (e) {
    var token = e.target.closest(".tc-token[data-drag]");
    if (!token || e.button > 0) return;
    e.preventDefault();
    drag = { token: token, pair: token.dataset.drag, home: token.closest(".tc-cell"), over: null };
    token.setPointerCapture && token.setPointerCapture(e.pointerId);
    token.classList.add("dragging");
    place(e);
  });

  document.addEventListener("pointermove", function (e) {
    if (!drag) return;
    place(e);
    var cell = cellAt(e.clientX, e.clientY, drag.pair);
    mark(cell && cell !== drag.home ? cell : null);
  });

  function drop(e, cancelled) {
    if (!drag) return;
    var target = cancelled ? null : drag.over;
    drag.token.classList.remove("dragging");
    drag.token.style.left = drag.token.style.top = "";
    if (drag.over) drag.over.classList.remove("drop");
    drag = null;
    var button = target && target.querySelector(".tc-cell-btn");
    if (button) button.click();
  }
  document.addEventListener("pointerup", function (e) { drop(e, false); });
  document.addEventListener("pointercancel", function (e) { drop(e, true); });
})();

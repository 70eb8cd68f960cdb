// TOTE: keep dice someone is typing when a live block is redrawn under them, and buzz the phone when it
// becomes this character's moment (declare, resolve or answer).
(function () {
  "use strict";
  var kept = null;
  var was = false;

  function isTote(el) { return el && el.id && el.id.indexOf("tote-") === 0; }

  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    if (!isTote(target)) return;
    var focus = document.activeElement;
    kept = { id: target.id, dice: {} };
    target.querySelectorAll("form[aria-label] input[name=dice]").forEach(function (input) {
      if (input.value) kept.dice[input.form.getAttribute("aria-label")] = { value: input.value, focus: input === focus };
    });
  });

  document.addEventListener("htmx:oobAfterSwap", function () {
    if (kept) {
      var fresh = document.getElementById(kept.id);
      Object.keys(kept.dice).forEach(function (label) {
        var form = fresh && fresh.querySelector('form[aria-label="' + CSS.escape(label) + '"]');
        var input = form && form.querySelector("input[name=dice]");
        if (input && !input.value) {
          input.value = kept.dice[label].value;
          if (kept.dice[label].focus) input.focus();
        }
      });
      kept = null;
    }
    buzz();
  });

  function buzz() {
    var now = !!document.querySelector("#tote-turn[data-my-turn]");
    if (now && !was && navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) {
      navigator.vibrate([80, 60, 80]);
    }
    was = now;
  }
  document.addEventListener("DOMContentLoaded", function () {
    was = !!document.querySelector("#tote-turn[data-my-turn]");
  });
})();

// TOTE: buzz the phone when it becomes this character's moment (declare, resolve or answer). Dice someone
// is typing survive a push by themselves: live blocks morph (static/js/fray.js).
(function () {
  "use strict";
  var was = false;

  function buzz() {
    var now = !!document.querySelector("#tote-turn[data-my-turn]");
    if (now && !was && navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) {
      navigator.vibrate([80, 60, 80]);
    }
    was = now;
  }
  document.addEventListener("htmx:oobAfterSwap", buzz);
  document.addEventListener("DOMContentLoaded", function () {
    was = !!document.querySelector("#tote-turn[data-my-turn]");
  });
})();

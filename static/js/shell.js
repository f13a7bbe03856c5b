/* The header's menu on a phone: the Menu button opens and closes the navigation, and
   Escape closes it. Without this script the navigation simply stays open. */
(function () {
  "use strict";

  var header = document.getElementById("shell");
  var button = document.getElementById("menu-button");
  if (!header || !button) { return; }

  function show(open) {
    header.setAttribute("data-menu", open ? "open" : "closed");
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  show(false);
  button.addEventListener("click", function () {
    show(button.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      show(false);
      button.focus();
    }
  });
}());

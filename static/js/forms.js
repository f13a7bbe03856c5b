/* Forms: when a page comes back with errors, the focus goes to the first field in error
   (the error summary at the top lists them all); a summary's link moves the focus to its
   field and shows the field's label with it. */
(function () {
  "use strict";

  function focusField(field) {
    var box = field.closest(".field") || field;
    box.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  }

  function start() {
    var first = document.querySelector("main [aria-invalid='true']");
    if (first) {
      focusField(first);
    } else {
      var summary = document.getElementById("error-summary");
      if (summary) { summary.focus(); }
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest(".error-summary a[href^='#']");
    if (!link) { return; }
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) { return; }
    event.preventDefault();
    focusField(field);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());

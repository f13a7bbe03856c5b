/* The Import page's progress bar: while the worker checks or imports a file, ask the
   upload's status address once a second and move the bar; once that step has ended, open
   the page again, which then shows the check's errors or the confirm button, or what
   arrived (or the line that stopped the import). */
(function () {
  "use strict";

  var running = document.getElementById("import-running");
  if (!running) { return; }
  var bar = document.getElementById("import-progress");
  var text = document.getElementById("import-progress-text");
  var statusUrl = running.dataset.statusUrl;
  var pageUrl = running.dataset.pageUrl;
  var state = running.dataset.state;
  var format = new Intl.NumberFormat(document.documentElement.lang || undefined);

  function show(status) {
    bar.max = Math.max(status.total, 1);
    bar.value = status.done;
    bar.textContent = status.percent + "%";
    text.textContent = format.format(status.done) + " of " + format.format(status.total) + " records";
  }

  function poll() {
    fetch(statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (answer) {
        if (!answer.ok) { throw new Error("status " + answer.status); }
        return answer.json();
      })
      .then(function (status) {
        show(status);
        if (status.state === state) {
          window.setTimeout(poll, 1000);
        } else {
          window.location.assign(pageUrl);
        }
      })
      .catch(function () {
        window.setTimeout(poll, 3000);
      });
  }

  window.setTimeout(poll, 500);
})();

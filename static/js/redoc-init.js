/* Starts Redoc on the description named by the container's data-spec-url. */
(function () {
  "use strict";
  var container = document.getElementById("redoc-container");
  Redoc.init(container.dataset.specUrl, {}, container);
})();

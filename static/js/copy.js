/* Copy buttons: <button data-copy="ID"> copies the text (or the value) of the element ID,
   then shows the element named by data-copied (or writes into data-status). */
(function () {
  "use strict";

  function selectText(element) {
    if (typeof element.select === "function") {
      element.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copy(button) {
    var source = document.getElementById(button.dataset.copy);
    if (!source) { return; }
    var text = "value" in source ? source.value : source.textContent;
    var copied = button.dataset.copied && document.getElementById(button.dataset.copied);
    var status = button.dataset.status && document.getElementById(button.dataset.status);
    var done = function () {
      if (copied) { copied.hidden = false; }
      if (status) { status.textContent = "Copied."; }
    };
    var manual = function () {
      selectText(source);
      try {
        if (document.execCommand("copy")) { done(); return; }
      } catch (error) { /* fall through */ }
      if (status) { status.textContent = "Select the token and copy it."; }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, manual);
    } else {
      manual();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (button) { copy(button); }
  });
})();

/* The EOD form: when the day picked was filed already, say that filing it again replaces
   that report (the days filed are in the page, #eod-filed-days), and name the button so. */
(function () {
  "use strict";

  var data = document.getElementById("eod-filed-days");
  var day = document.getElementById("id_date");
  var notice = document.getElementById("eod-replaces");
  var button = document.getElementById("file");
  if (!data || !day || !notice || !button) { return; }
  var filed = JSON.parse(data.textContent);

  function show() {
    var words = filed[day.value];
    notice.hidden = !words;
    notice.textContent = words || "";
    button.textContent = words ? "Replace the report" : "File";
  }

  day.addEventListener("change", show);
  day.addEventListener("input", show);
}());

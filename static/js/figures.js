// The figure pages' script. The period picker applies a choice as soon as it is made
// (without a script, its noscript Show button sends the form). The charts are drawn with
// uPlot from the JSON each chart's page carries (a <script type="application/json"> next
// to it), with a tooltip that shows the values under the pointer, written as the page
// writes them; the same numbers are in the table under each chart.
(function () {
  "use strict";

  var COLOURS = ["#2c5cc5", "#067647", "#b54708", "#6941c6"];
  var NARROW = 520;

  function pickerApplyOnChange(form) {
    var range = form.querySelector("#range");
    var from = form.querySelector("#from");
    var to = form.querySelector("#to");
    if (!range || !from || !to) { return; }
    function apply() {
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    }
    // The dates are asked for only when a custom range is picked (the sentence under the
    // picker says which days are shown); without a script they are always there.
    var dates = form.querySelector(".custom-dates");
    if (dates) { dates.hidden = range.value !== "custom"; }
    range.addEventListener("change", function () {
      if (range.value === "custom") {
        if (dates) { dates.hidden = false; }
        from.focus();
      } else {
        apply();
      }
    });
    [from, to].forEach(function (input) {
      input.addEventListener("change", function () {
        range.value = "custom";
        if (from.value && to.value) { apply(); }
      });
    });
  }

  var picker = document.getElementById("period-picker");
  if (picker) { pickerApplyOnChange(picker); }

  if (typeof uPlot === "undefined") { return; }

  function dayTimestamp(day) {
    return Date.parse(day + "T12:00:00Z") / 1000;
  }

  // The values of the point under the pointer, in a box over the chart (uPlot's hooks).
  function tooltipPlugin(element, chart) {
    var tip;
    function line(label, text, colour) {
      var row = document.createElement("div");
      if (colour) {
        var swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = colour;
        row.appendChild(swatch);
      }
      row.appendChild(document.createTextNode(label + ": " + text));
      return row;
    }
    return {
      hooks: {
        init: function (u) {
          tip = document.createElement("div");
          tip.className = "chart-tip";
          tip.id = element.id + "-tip";
          tip.setAttribute("role", "status");
          tip.hidden = true;
          u.over.appendChild(tip);
          u.over.addEventListener("mouseleave", function () { tip.hidden = true; });
        },
        setCursor: function (u) {
          var index = u.cursor.idx;
          if (index === null || index === undefined || u.cursor.left < 0) {
            tip.hidden = true;
            return;
          }
          while (tip.firstChild) { tip.removeChild(tip.firstChild); }
          // The point's day as the server writes it (the table under the chart shows the
          // same words): never a date this browser works out in its own time zone.
          var title = document.createElement("strong");
          title.textContent = chart.points[index];
          tip.appendChild(title);
          chart.series.forEach(function (series, n) {
            tip.appendChild(line(series.label, series.texts[index], COLOURS[n % COLOURS.length]));
          });
          tip.hidden = false;
          var left = u.cursor.left + 12;
          if (left + tip.offsetWidth > u.over.clientWidth) {
            left = Math.max(0, u.cursor.left - tip.offsetWidth - 12);
          }
          tip.style.left = left + "px";
          tip.style.top = Math.max(0, u.cursor.top - tip.offsetHeight - 8) + "px";
        },
      },
    };
  }

  function draw(element) {
    var source = document.getElementById(element.dataset.source);
    if (!source) { return; }
    var chart = JSON.parse(source.textContent);
    var bars = element.dataset.kind === "bars";
    var xs = bars
      ? chart.labels.map(function (_, index) { return index; })
      : chart.labels.map(dayTimestamp);
    function width() { return Math.max(element.clientWidth, 200); }
    var series = [{}].concat(chart.series.map(function (line, index) {
      var colour = COLOURS[index % COLOURS.length];
      var options = { label: line.label, stroke: colour, width: 2 };
      if (bars) {
        options.fill = colour + "66";
        options.paths = uPlot.paths.bars({ size: [0.6, 80] });
        options.points = { show: false };
      }
      return options;
    }));
    var axes = [{}, { size: 60 }];
    if (!bars) {
      // The axis writes dates as the page does: 26 Oct, or Oct 2026 for months.
      var format = uPlot.fmtDate(chart.interval === "month" ? "{MMM} {YYYY}" : "{D} {MMM}");
      axes[0] = {
        values: function (_, ticks) {
          return ticks.map(function (t) {
            return format(uPlot.tzDate(new Date(t * 1e3), "Etc/UTC"));
          });
        },
      };
    }
    if (bars) {
      var narrow = width() < NARROW;
      axes[0] = {
        splits: function () { return xs; },
        values: function (_, ticks) { return ticks.map(function (t) { return chart.labels[t]; }); },
        // Stage names side by side would run together on a phone: slanted, they fit.
        rotate: narrow ? -40 : 0,
        size: narrow ? 80 : 40,
        font: narrow ? "11px system-ui, sans-serif" : "12px system-ui, sans-serif",
      };
    }
    var plot = new uPlot({
      width: width(),
      height: 240,
      // The dates are days of the workspace's calendar, placed at noon UTC: read in UTC.
      tzDate: function (ts) { return uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"); },
      scales: { x: { time: !bars, range: bars ? [-0.5, xs.length - 0.5] : undefined } },
      series: series,
      axes: axes,
      legend: { live: false },
      plugins: chart.points ? [tooltipPlugin(element, chart)] : [],
    }, [xs].concat(chart.series.map(function (line) { return line.values; })), element);
    window.addEventListener("resize", function () {
      plot.setSize({ width: width(), height: 240 });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".chart[data-source]"), draw);
})();

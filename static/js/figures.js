// Draws the figure pages' charts with uPlot from the JSON each chart's page carries
// (a <script type="application/json"> next to it); the same numbers are in the table
// under each chart. Changing a date in the period picker selects "Custom range".
(function () {
  "use strict";

  var COLOURS = ["#2c5cc5", "#067647", "#b54708", "#6941c6"];

  var range = document.getElementById("range");
  ["from", "to"].forEach(function (id) {
    var input = document.getElementById(id);
    if (input && range) {
      input.addEventListener("change", function () { range.value = "custom"; });
    }
  });

  if (typeof uPlot === "undefined") { return; }

  function dayTimestamp(day) {
    return Date.parse(day + "T12:00:00Z") / 1000;
  }

  function draw(element) {
    var source = document.getElementById(element.dataset.source);
    if (!source) { return; }
    var chart = JSON.parse(source.textContent);
    var bars = element.dataset.kind === "bars";
    var xs = bars
      ? chart.labels.map(function (_, index) { return index; })
      : chart.labels.map(dayTimestamp);
    var width = Math.max(element.clientWidth, 260);
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
    if (bars) {
      axes[0] = {
        splits: function () { return xs; },
        values: function (_, ticks) { return ticks.map(function (t) { return chart.labels[t]; }); },
      };
    }
    var plot = new uPlot({
      width: width,
      height: 240,
      scales: { x: { time: !bars, range: bars ? [-0.5, xs.length - 0.5] : undefined } },
      series: series,
      axes: axes,
      legend: { live: false },
    }, [xs].concat(chart.series.map(function (line) { return line.values; })), element);
    window.addEventListener("resize", function () {
      plot.setSize({ width: Math.max(element.clientWidth, 260), height: 240 });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".chart[data-source]"), draw);
})();

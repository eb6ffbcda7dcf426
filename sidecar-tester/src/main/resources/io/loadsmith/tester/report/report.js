/* loadsmith report: draws the charts from the JSON block #report-data with ECharts (inlined above). */
(function () {
  'use strict';
  var PALETTE = ['#4363d8', '#e6194b', '#2f9e44', '#f58231', '#911eb4', '#1098ad', '#d6336c', '#9a6324', '#469990', '#808000'];
  var CORRECTED = '#d9480f', CORRECTED_LIGHT = '#ffa8a8', SERVICE = '#1c7ed6', SERVICE_LIGHT = '#a5d8ff';
  var STALL = '#fa5252', PAUSE = '#5f3dc4';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = [];
  var runIndex = {};
  data.runs.forEach(function (r) { runIndex[r.name] = r.index; });

  function colorOf(name, fallback) {
    var i = runIndex.hasOwnProperty(name) ? runIndex[name] : fallback;
    return PALETTE[i % PALETTE.length];
  }
  function fmt(v) {
    if (v === null || v === undefined) return '\u2014';
    var a = Math.abs(v);
    return a === 0 ? '0' : a < 0.1 ? v.toFixed(4) : a < 1 ? v.toFixed(3) : a < 10 ? v.toFixed(2) : a < 100 ? v.toFixed(1) : v.toFixed(0);
  }
  function short(v) {
    return String(+v.toFixed(4));
  }
  function ninesLabel(x) {
    var p = 100 * (1 - 1 / x);
    var decimals = Math.max(0, Math.round(Math.log10(x)) - 2);
    return p.toFixed(decimals) + '%';
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function base(extra) {
    var o = {
      animation: false,
      textStyle: {fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif'},
      grid: {left: 64, right: 24, top: 44, bottom: 52, containLabel: false},
      tooltip: {trigger: 'item', confine: true},
      legend: {type: 'scroll', top: 4, left: 'center'}
    };
    for (var k in extra) o[k] = extra[k];
    return o;
  }
  var pending = 0;
  function draw(id, option) {
    var el = document.getElementById(id);
    if (!el) return;
    // draw every point at once (no progressive frames), so that "finished" means the whole chart is there
    (option.series || []).forEach(function (series) { series.progressive = 0; });
    var c = echarts.init(el, null, {renderer: 'canvas'});
    pending++;
    var done = false;
    c.on('finished', function () {
      if (!done) { done = true; pending--; announce(); }
    });
    c.setOption(option);
    charts.push(c);
  }
  var drawingDone = false;
  function announce() {
    if (!drawingDone || pending > 0 || (window.loadsmithReport && window.loadsmithReport.ready)) return;
    window.loadsmithReport = {ready: true, charts: charts.length};
    document.documentElement.setAttribute('data-charts-rendered', String(charts.length));
  }
  function axisName(name, gap) {
    return {name: name, nameLocation: 'middle', nameGap: gap || 30};
  }
  function withAxis(axis, extra) {
    for (var k in extra) axis[k] = extra[k];
    return axis;
  }

  // A replayed plan's windows differ in length: a dashed line where each ends, named by the pause it replays
  // (its tooltip); windows ending at about the same place share one label, so that labels do not overprint
  function replayedWindows(windows) {
    return {name: 'replayed windows (' + windows.length + ')', type: 'line', data: [], color: STALL,
            markLine: {symbol: 'none', lineStyle: {color: STALL, type: 'dashed', width: 1},
                       label: {position: 'insideEndTop', fontSize: 10, color: '#c92a2a'},
                       tooltip: {show: true, formatter: function (p) { return esc(p.name) + ', ' + fmt(p.value) + ' ms'; }},
                       data: windows.map(function (w) {
                         return {name: w.name, xAxis: w.endMs, label: {show: w.label !== '', formatter: w.label}};
                       })}};
  }

  // Stall-aligned sends and the scatter below it
  if (data.aligned) {
    var a = data.aligned;
    var shade = {silent: true, itemStyle: {color: 'rgba(250, 82, 82, 0.13)'},
                 label: {show: true, position: 'insideTop', color: '#c92a2a', formatter: 'stall'},
                 data: [[{xAxis: 0}, {xAxis: a.stallMs}]]};
    var lines = a.series.map(function (s, i) {
      return {name: s.run + (s.stallsMet >= 0 ? ' (' + s.stallsMet + ' stalls)' : ''), type: 'line', step: 'middle', showSymbol: false,
              lineStyle: {width: 2}, color: colorOf(s.run, i), data: s.points, markArea: i === 0 ? shade : undefined};
    });
    if (lines.length === 0) lines.push({type: 'line', data: [], markArea: shade});
    if (a.windows) lines.push(replayedWindows(a.windows));
    draw('chart-aligned', base({
      tooltip: {trigger: 'axis', confine: true, valueFormatter: function (v) { return fmt(v); }},
      xAxis: withAxis(axisName('time from stall start (ms)'), {type: 'value', min: a.fromMs, max: a.toMs}),
      yAxis: withAxis(axisName('sends per ' + short(a.binMs) + ' ms bin', 44), {type: 'value', min: 0, axisLine: {show: true, onZero: false}}),
      series: lines
    }));
    var dots = a.scatter.map(function (s, i) {
      return {name: s.run, type: 'scatter', symbolSize: 4, large: s.points.length > 2000, color: colorOf(s.run, i),
              itemStyle: {opacity: 0.6}, data: s.points, markArea: i === 0 ? shade : undefined};
    });
    if (dots.length > 0) {
      draw('chart-aligned-scatter', base({
        tooltip: {trigger: 'item', confine: true, formatter: function (p) {
          return esc(p.seriesName) + '<br>sent at ' + fmt(p.value[0]) + ' ms, corrected ' + fmt(p.value[1]) + ' ms';
        }},
        xAxis: withAxis(axisName('send time from stall start (ms)'), {type: 'value', min: a.fromMs, max: a.toMs}),
        yAxis: withAxis(axisName('corrected latency (ms)', 44), {type: 'value', min: 0, axisLine: {show: true, onZero: false}}),
        series: dots
      }));
    }
  }

  // Experiment dot plots: a log axis when the values span more than a decade; outliers drawn as squares
  if (data.experiment) {
    var arms = data.experiment.arms, metric = data.experiment.metric;
    ['corrected', 'service'].forEach(function (kind) {
      var log = data.experiment[kind + 'Log'];
      var series = [true, false].map(function (on) {
        return {name: on ? 'stall on' : 'stall off', type: 'scatter', symbolSize: 10, xAxisIndex: 1,
                color: on ? '#e03131' : '#495057',
                itemStyle: on ? {opacity: 0.85} : {color: '#fff', borderColor: '#495057', borderWidth: 2},
                data: data.experiment[kind].filter(function (d) { return d.stall === on; }).map(function (d) {
                  var dot = {value: [d.x, d.y], run: d.run, round: d.round, outlier: d.outlier};
                  if (d.outlier) {
                    dot.symbol = 'rect';
                    dot.symbolSize = 16;
                    dot.itemStyle = {color: on ? '#e03131' : '#fff', borderColor: '#000', borderWidth: 3, opacity: 1};
                    dot.label = {show: true, position: 'right', color: '#000', fontWeight: 'bold', formatter: 'outlier r' + d.round};
                  }
                  return dot;
                })};
      });
      draw('chart-experiment-' + kind, base({
        title: {text: metric + ' ' + kind + ' (ms' + (log ? ', log scale' : '') + ')', left: 8, top: 4, textStyle: {fontSize: 13}},
        legend: {top: 4, right: 8},
        tooltip: {trigger: 'item', confine: true, formatter: function (p) {
          return esc(p.data.run) + '<br>round ' + p.data.round + ', ' + p.seriesName + (p.data.outlier ? ', <b>outlier</b>' : '')
              + '<br>' + metric + ' ' + kind + ' ' + fmt(p.value[1]) + ' ms';
        }},
        // a category axis carries the arm names; the dots sit on a hidden value axis where arm i spans [i-0.5, i+0.5]
        xAxis: [{type: 'category', data: arms, boundaryGap: true, axisTick: {show: false}, axisLabel: {fontSize: 13, fontWeight: 'bold'}},
                {type: 'value', min: -0.5, max: arms.length - 0.5, show: false}],
        yAxis: withAxis(axisName(log ? 'ms (log scale)' : 'ms', 44), log
            ? {type: 'log', logBase: 10, axisLine: {onZero: false}, axisLabel: {formatter: function (v) { return short(v); }}}
            : {type: 'value', min: 0, axisLine: {onZero: false}}),
        series: series
      }));
    });
  }

  // Percentile spectrum
  var spectrumSeries = [];
  data.runs.forEach(function (r) {
    if (!r.spectrum) return;
    ['corrected', 'service'].forEach(function (kind) {
      if (!r.spectrum[kind]) return;
      spectrumSeries.push({name: r.name + ' ' + kind, type: 'line', showSymbol: false, color: colorOf(r.name, r.index),
                           lineStyle: {width: 2, type: kind === 'service' ? 'dashed' : 'solid'},
                           data: r.spectrum[kind].map(function (p) { return [p[0], p[1], p[2]]; })});
    });
  });
  if (spectrumSeries.length > 0) {
    draw('chart-spectrum', base({
      tooltip: {trigger: 'item', confine: true, formatter: function (p) {
        return esc(p.seriesName) + '<br>p' + p.value[2].toFixed(4).replace(/\.?0+$/, '') + ': ' + fmt(p.value[1]) + ' ms';
      }},
      xAxis: withAxis(axisName('percentile'), {type: 'log', logBase: 10, min: 1, axisLabel: {formatter: ninesLabel}}),
      yAxis: withAxis(axisName('latency (ms)', 44), {type: 'value', min: 0}),
      series: spectrumSeries
    }));
  }

  // Sends around the start of the service pauses (observed, not injected): a line at the start, no band
  if (data.pauseAligned) {
    var pa = data.pauseAligned;
    var start = {silent: true, symbol: 'none', lineStyle: {color: PAUSE, type: 'dashed', width: 1.5},
                 label: {show: true, position: 'insideEndTop', color: PAUSE, formatter: 'pause start'}, data: [{xAxis: 0}]};
    var pauseLines = pa.series.map(function (s, i) {
      return {name: s.run + ' (' + s.pausesMet + ' pauses)', type: 'line', step: 'middle', showSymbol: false,
              lineStyle: {width: 2}, color: colorOf(s.run, i), data: s.points, markLine: i === 0 ? start : undefined};
    });
    draw('chart-pause-aligned', base({
      tooltip: {trigger: 'axis', confine: true, valueFormatter: function (v) { return fmt(v); }},
      xAxis: withAxis(axisName('time from pause start (ms)'), {type: 'value', min: pa.fromMs, max: pa.toMs}),
      yAxis: withAxis(axisName('sends per ' + short(pa.binMs) + ' ms bin', 44), {type: 'value', min: 0, axisLine: {show: true, onZero: false}}),
      series: pauseLines
    }));
  }

  // Windows on a run's timeline: injected stalls shaded red, service pauses violet, each named in its tooltip
  function windowSeries(name, color, areas, label) {
    return {name: name, type: 'line', data: [], color: color,
            markArea: {itemStyle: {color: color, opacity: 0.22}, emphasis: {itemStyle: {opacity: 0.5}},
                       tooltip: {show: true, formatter: function (p) { return esc(p.name); }},
                       data: areas.map(function (w) {
                         return [{name: label(w), xAxis: w[0]}, {xAxis: Math.max(w[1], w[0] + 0.001)}];
                       })}};
  }

  // Latency over time, one small chart per run
  data.runs.forEach(function (r) {
    if (!r.timeline) return;
    function col(i) { return r.timeline.map(function (p) { return [p[0], p[i]]; }); }
    var windows = [];
    if (r.stalls) {
      windows.push(windowSeries('injected stall', STALL, r.stalls, function (w) {
        return (w[2] ? w[2] : 'injected stall') + ', ' + fmt((w[1] - w[0]) * 1000) + ' ms';
      }));
    }
    if (r.pauses) {
      windows.push(windowSeries('service pause', PAUSE, r.pauses, function (w) {
        return 'service pause, ' + fmt((w[1] - w[0]) * 1000) + ' ms: ' + w[2];
      }));
    }
    draw('chart-timeline-' + r.index, base({
      grid: {left: 52, right: 12, top: 14, bottom: 62},
      legend: {bottom: 0, left: 'center', itemWidth: 14, itemGap: 8, textStyle: {fontSize: 11}},
      tooltip: {trigger: 'axis', confine: true, valueFormatter: function (v) { return fmt(v) + ' ms'; }},
      xAxis: withAxis(axisName('second of the run', 22), {type: 'value', min: 'dataMin', max: 'dataMax'}),
      yAxis: withAxis(axisName('ms', 36), {type: 'value', min: 0}),
      series: [
        {name: 'corrected p99', type: 'line', showSymbol: false, connectNulls: false, color: CORRECTED, lineStyle: {width: 2}, data: col(4)},
        {name: 'corrected p50', type: 'line', showSymbol: false, color: CORRECTED_LIGHT, lineStyle: {width: 1.5}, data: col(3)},
        {name: 'service p99', type: 'line', showSymbol: false, color: SERVICE, lineStyle: {width: 2}, data: col(2)},
        {name: 'service p50', type: 'line', showSymbol: false, color: SERVICE_LIGHT, lineStyle: {width: 1.5}, data: col(1)}
      ].concat(windows)
    }));
  });

  window.addEventListener('resize', function () { charts.forEach(function (c) { c.resize(); }); });
  // the page is ready once every chart has said it finished drawing (at once when there is none)
  drawingDone = true;
  announce();
})();

/**
 * "Test your browser": the page a browser opens to play the selected cases with its own WebSocket
 * client, as the original's `test_browser.html` does, through the fuzzing server's own endpoints:
 * `/getCaseCount`, then `/runCase?case=N&agent=A` for each case (every message echoed back, binary as
 * an ArrayBuffer), then `/updateReports?agent=A`. The fuzzing server serves it at `/` and
 * `/test_browser.html` (pages.ts); `wstest`'s web port at `/test_browser.html`.
 *
 * The URL may carry `agent` (the agent's name; by default the one the original derives from the user
 * agent), `cases` (case ids, comma-separated: only those, by `casetuple`), `first` (the index to
 * start at, when the cases are counted: where `wsgate run --browser` relaunches a browser after the
 * one before stopped), `wsuri` (the fuzzing server's URL) and `autorun=1` (start at once: what a
 * headless browser needs). The page shows its
 * progress, and marks its state on `<body data-state>` (`ready`, `running`, `done`, `failed`) and in
 * its title, for whoever watches it; once done it links to the reports.
 */

/** What the server tells the page. */
export interface BrowserPageConfig {
  /** The fuzzing server's port when the page is served from another (wstest's web port); null: the page's own origin. */
  readonly wsPort: number | null;
  /** Where the reports' index is, from the page (null: not served). */
  readonly reportsHref: string | null;
}

/**
 * The agent name the original's page derives from a user agent string: "Chrome/156.0.0.0",
 * "Firefox/153.0-20100101" (Firefox's token with Gecko's date), "Safari/605.1.15" (WebKit), "MSIE
 * 10.0", else "unknown". Runs in the browser too (its source is put in the page).
 */
export function agentFromUserAgent(ua: string): string {
  const token = (name: string, stop: string): string => {
    const i = ua.indexOf(name);
    let j = ua.indexOf(stop, i);
    if (j < 0) j = ua.length;
    return ua.slice(i, j);
  };
  if (ua.indexOf('Chrome') > -1) return token('Chrome', ' ');
  if (ua.indexOf('Firefox') > -1) {
    const firefox = token('Firefox', ' ');
    const g = ua.indexOf('Gecko/');
    let end = ua.indexOf(' ', g);
    if (end < 0) end = ua.length;
    const gecko = g < 0 ? '' : ua.slice(g + 'Gecko/'.length, end).trim();
    return gecko === '' ? firefox : `${firefox}-${gecko}`;
  }
  if (ua.indexOf('Safari') > -1) return token('Safari', ' ');
  if (ua.indexOf('MSIE') > -1) return token('MSIE', ';');
  return 'unknown';
}

/** The page's script: it runs in the browser, as a classic script (no modules). */
function script(config: BrowserPageConfig): string {
  return `
'use strict';
var CONFIG = ${JSON.stringify(config).replace(/</g, '\\u003c')};
var agentFromUserAgent = ${agentFromUserAgent.toString()};
var params = new URLSearchParams(window.location.search);
function $(id) { return document.getElementById(id); }
function defaultUri() {
  var secure = window.location.protocol === 'https:';
  var host = CONFIG.wsPort === null ? window.location.host : window.location.hostname + ':' + CONFIG.wsPort;
  return (secure ? 'wss://' : 'ws://') + host;
}
function setState(state, text) {
  document.body.setAttribute('data-state', state);
  $('status').textContent = text;
  document.title = text + ' - wsgate';
}
function connect(path, onmessage, onclose) {
  var ws;
  try { ws = new WebSocket($('wsuri').value.replace(/\\/+$/, '') + path); } catch (e) { setState('failed', 'Cannot open ' + path + ': ' + e.message); return; }
  ws.binaryType = 'arraybuffer';
  ws.onmessage = function (e) { onmessage(ws, e.data); };
  ws.onclose = function (e) { onclose(e); };
}
function finish(agent) {
  setState('running', 'Updating the reports');
  connect('/updateReports?agent=' + encodeURIComponent(agent), function () {}, function () {
    var link = $('reports');
    if (CONFIG.reportsHref !== null) { link.href = CONFIG.reportsHref; link.hidden = false; }
    setState('done', 'Done: ' + $('progress').value + ' cases played as ' + agent);
  });
}
function play(agent, ids, count, first) {
  var n = first - 1;
  $('progress').max = count;
  $('progress').value = n;
  function next() {
    if (n >= count) return finish(agent);
    n += 1;
    var which = ids === null ? 'case=' + n : 'casetuple=' + encodeURIComponent(ids[n - 1]);
    setState('running', 'Case ' + n + ' of ' + count + (ids === null ? '' : ' (' + ids[n - 1] + ')'));
    connect('/runCase?' + which + '&agent=' + encodeURIComponent(agent), function (ws, data) { ws.send(data); }, function () {
      $('progress').value = n;
      next();
    });
  }
  next();
}
function start() {
  var agent = $('agent').value.trim() || agentFromUserAgent(navigator.userAgent);
  $('agent').value = agent;
  var ids = $('cases').value.split(',').map(function (s) { return s.trim(); }).filter(function (s) { return s !== ''; });
  $('reports').hidden = true;
  $('progress').value = 0;
  if (ids.length > 0) return play(agent, ids, ids.length, 1);
  var count = null;
  setState('running', 'Asking how many cases there are');
  connect('/getCaseCount', function (ws, data) { count = Number(JSON.parse(data)); }, function () {
    if (count === null || !(count >= 0)) return setState('failed', 'The fuzzing server did not say how many cases it has (' + $('wsuri').value + '/getCaseCount)');
    var first = Math.floor(Number(params.get('first')));
    play(agent, null, count, first >= 1 ? first : 1);
  });
}
window.addEventListener('load', function () {
  $('wsuri').value = params.get('wsuri') || defaultUri();
  $('agent').value = params.get('agent') || '';
  $('agent').placeholder = agentFromUserAgent(navigator.userAgent);
  $('cases').value = params.get('cases') || '';
  $('ua').textContent = navigator.userAgent;
  $('start').addEventListener('click', start);
  $('update').addEventListener('click', function () { finish($('agent').value.trim() || agentFromUserAgent(navigator.userAgent)); });
  setState('ready', 'Ready');
  if (params.get('autorun') === '1' || params.get('autorun') === 'true') start();
});
`;
}

/** The page, whole. */
export function browserPage(config: BrowserPageConfig): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test your browser - wsgate</title>
<link rel="icon" href="data:,">
<style>
body { font-family: system-ui, sans-serif; color: #222; margin: 2em; max-width: 48em; }
label { display: block; margin-top: 0.8em; }
input[type=text] { width: 100%; box-sizing: border-box; padding: 0.3em; }
progress { width: 100%; height: 1.2em; margin-top: 1em; }
#ua { font-size: 0.8em; color: #555; }
</style>
</head>
<body data-state="loading">
<h1>Test your browser</h1>
<p>This page plays the fuzzing server's cases with this browser's own WebSocket client and writes the reports with the browser as the agent. wsgate, an RFC 6455 conformance gate in the manner of Autobahn|Testsuite.</p>
<label>Fuzzing server <input type="text" id="wsuri"></label>
<label>Agent <input type="text" id="agent"></label>
<div id="ua"></div>
<label>Cases (ids, comma-separated; empty: every selected case) <input type="text" id="cases"></label>
<p><button id="start">Start</button> <button id="update">Update the reports</button></p>
<progress id="progress" value="0" max="1"></progress>
<p id="status">Loading</p>
<p><a id="reports" hidden>The reports</a></p>
<script>${script(config)}</script>
</body>
</html>
`;
}

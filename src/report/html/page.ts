/** The frame of every HTML report page: doctype, viewport, the shared style sheet. */
import { escapeHtml as esc } from '../escape.js';

const CSS_COMMON = `
:root { --ok: #1f7a3a; --ok-bg: #dcf3e3; --ns: #7a5a00; --ns-bg: #fff1c2; --fail: #a3161b; --fail-bg: #fbdcdc;
  --info: #1d4f91; --info-bg: #dde8f8; --almost: #8a4b00; --almost-bg: #ffe3c4; --muted: #5f6670; --line: #d9dde3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1c2026; background: #f6f7f9; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
header.bar { background: #20252d; color: #e8eaed; padding: 10px 24px; font-weight: 600; letter-spacing: .02em; }
header.bar a { color: #9cc3ff; text-decoration: none; margin-right: 1em; }
h1 { font-size: 1.45em; margin: .6em 0 .3em; }
h2 { font-size: 1.2em; margin: 1.6em 0 .5em; padding-bottom: .2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.02em; margin: 1.2em 0 .4em; }
section { margin-bottom: 1em; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #eef0f3; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { margin: 0; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.case_ok { background: var(--ok-bg); color: var(--ok); }
.case_non_strict { background: var(--ns-bg); color: var(--ns); }
.case_failed { background: var(--fail-bg); color: var(--fail); }
.case_info { background: var(--info-bg); color: var(--info); }
.case_almost { background: var(--almost-bg); color: var(--almost); }
.case_unimplemented { background: #ececec; color: #555; }
.case_missing { background: #fafafa; color: #8a9099; font-style: italic; }
`;

/** A whole page: `css` is the page's own style after the shared one. */
export function page(title: string, css: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS_COMMON}${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

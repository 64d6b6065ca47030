/** Escaping for the HTML reports: peer-controlled text (agent, headers, payloads, reasons) must stay text. */

const HTML_SPECIAL: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Characters HTML forbids or hides (C0 except TAB/LF/CR, DEL, C1, lone surrogates, U+FFFE/U+FFFF):
// shown as visible escapes so a hostile byte can neither break the page nor vanish unseen.
const HTML_INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|\p{Cs}/gu;

/** Escapes text for HTML element content or a quoted attribute value. */
export function escapeHtml(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => HTML_SPECIAL[c] ?? c)
    .replace(HTML_INVISIBLE, (c) => {
      const cp = c.codePointAt(0) ?? 0;
      return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    });
}

/** Renders an Autobahn description/expectation: everything escaped, then its `<br>` line breaks restored. */
export function htmlFragment(s: string): string {
  return escapeHtml(s).replace(/&lt;br\s*\/?&gt;/gi, '<br>');
}

/** Plain text of an Autobahn HTML fragment: `<br>` → newline, other tags dropped, basic entities decoded. */
export function fragmentToText(s: string): string {
  return s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|apos|amp);/g, (_m, e: string) => (e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'amp' ? '&' : "'"));
}

/**
 * A requirement a case tests, as the RFCs state it in our own words: the section, a short paraphrase
 * of what it asks of the peer, and the subject a failure is grouped under. Autobahn's cases and
 * groups 14-16 have theirs in one table by id prefix (explain/requirements.ts); the robustness
 * profile's cases declare their own (robustness/).
 */
export interface Requirement {
  /** Stable key, for grouping failures by cause ("utf8-invalid"). */
  key: string;
  /** Where it is written ("RFC 6455 §8.1, §7.4.1"). */
  rfc: string;
  /** What it asks of the peer, in our words. */
  text: string;
  /** The subject, as a noun phrase a cause title starts with ("invalid UTF-8 in a text message"). */
  subject: string;
  /** Why the NON-STRICT outcome is allowed but not the strict behaviour, for the cases that have one. */
  nonStrict?: string;
  /** Why the case only informs (INFORMATIONAL): what the RFC leaves open. */
  informational?: string;
}

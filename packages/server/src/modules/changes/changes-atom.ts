/**
 * Atom 1.0 (RFC 4287) written by hand: a feed of a few dozen entries is a page of XML, and every
 * text is escaped here (decision 056). Ids are tag URIs (RFC 4151) that name the change's cursor, so
 * an entry keeps its id in the global and the per-measurand feed and whatever the site's address.
 */

export interface AtomEntry {
  id: string;
  title: string;
  updated: Date;
  /** Where a reader goes: the measurand's (or the reference's) page. */
  link: string;
  category: string;
  summary: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  /** The page the feed is about (HTML). */
  alternate: string;
  /** The feed's own address. */
  self: string;
  author: string;
  rights: string;
  entries: AtomEntry[];
}

/** When a feed has no entry yet: a fixed date, so an empty feed's bytes (and ETag) never move. */
const EMPTY_FEED_UPDATED = new Date('2026-01-01T00:00:00Z');

// XML 1.0 allows tab, newline, carriage return and everything from U+0020 but the surrogates, U+FFFE and U+FFFF.
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text or attribute value as XML: the five special characters escaped, characters XML forbids left out. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function renderAtom(feed: AtomFeed): string {
  const e = escapeXml;
  const updated = feed.entries.reduce<Date | null>(
    (latest, entry) => (latest === null || entry.updated > latest ? entry.updated : latest),
    null,
  );
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${e(feed.id)}</id>`,
    `  <title>${e(feed.title)}</title>`,
    `  <updated>${stamp(updated ?? EMPTY_FEED_UPDATED)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${e(feed.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${e(feed.alternate)}"/>`,
    `  <author><name>${e(feed.author)}</name></author>`,
    `  <rights>${e(feed.rights)}</rights>`,
    '  <generator>bvdb</generator>',
  ];
  for (const entry of feed.entries) {
    lines.push(
      '  <entry>',
      `    <id>${e(entry.id)}</id>`,
      `    <title>${e(entry.title)}</title>`,
      `    <updated>${stamp(entry.updated)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${e(entry.link)}"/>`,
      `    <category term="${e(entry.category)}"/>`,
      `    <summary>${e(entry.summary)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

import sanitizeHtml from 'sanitize-html';

/**
 * The one gate for outside HTML (CMS pages, Markdown): an allow-list of harmless tags and
 * attributes. Scripts, event handlers, `javascript:` URLs, styles and foreign iframes never pass;
 * links to other sites open in a new tab without access to this page.
 */
export function sanitiseHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'p',
      'br',
      'hr',
      'blockquote',
      'pre',
      'code',
      'em',
      'strong',
      'b',
      'i',
      'u',
      's',
      'sub',
      'sup',
      'small',
      'mark',
      'abbr',
      'cite',
      'q',
      'ul',
      'ol',
      'li',
      'dl',
      'dt',
      'dd',
      'a',
      'img',
      'figure',
      'figcaption',
      'table',
      'thead',
      'tbody',
      'tfoot',
      'tr',
      'th',
      'td',
      'caption',
      'span',
      'div',
      'section',
      'article',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      th: ['scope', 'colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
      abbr: ['title'],
      // No `id`: an element id from outside could shadow a global or a form field of the page
      // (DOM clobbering) or collide with the app's own ids.
      '*': ['lang'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['https', 'data'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        const external = /^https?:\/\//i.test(href);
        return {
          tagName,
          attribs: external
            ? { ...attribs, target: '_blank', rel: 'noopener noreferrer' }
            : { ...attribs, rel: 'noopener' },
        };
      },
    },
  });
}

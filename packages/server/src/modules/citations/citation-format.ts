import type { CitationFormat } from '@bvdb/contract';

// What the request's thread needs of a citation file, apart from the parser (citation-parse.ts,
// which loads citation-js and runs in its worker thread): loaded at every start (issue 44.5).

/** Which format a file is in, from its content (the file name may lie or be missing). */
export function detectFormat(text: string): CitationFormat | undefined {
  if (/^\s*@[A-Za-z]+\s*[{(]/m.test(text)) return 'bibtex';
  if (/^TY {2}- /m.test(text)) return 'ris';
  if (/^PMID- ?\d+/m.test(text)) return 'nbib';
  return undefined;
}

export class CitationFileError extends Error {}

export const NOT_A_CITATION_FILE =
  'This is not a RIS, BibTeX or PubMed (.nbib) file: no "TY  - ", "@article{" or "PMID- " line was found';

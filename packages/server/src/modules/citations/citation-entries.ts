import { normaliseDoi, ReferenceBodySchema, type CitationEntry, type CitationFormat } from '@bvdb/contract';
import { parseCitationFile, type ParsedCitation } from './citation-parse.js';

/** An entry as the parsing thread hands it over: the form's fields and what breaks its rules. */
export type ReadCitation = Pick<CitationEntry, 'reference' | 'pmid' | 'problems'>;

const pubmedLink = (pmid: string) => `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;

/** A parsed citation in the fields of the reference form (addresses built from the DOI and PMID). */
function bodyOf(c: ParsedCitation): CitationEntry['reference'] {
  return {
    title: c.title,
    author: c.author,
    journal: c.journal,
    volume: c.volume,
    pages: c.pages,
    year_of_publication: c.year_of_publication,
    pubmed_link: c.pmid ? pubmedLink(c.pmid) : null,
    doi: c.doi,
    link: c.doi ? `https://doi.org/${normaliseDoi(c.doi)}` : null,
  };
}

/**
 * A citation file's entries with the form's validation messages: the CPU-heavy part of a preview
 * (parsing, then one schema check an entry), run in the parsing thread. Duplicates need the
 * database and are found by the service.
 */
export async function readCitationEntries(
  text: string,
  format: CitationFormat,
): Promise<{ format: CitationFormat; entries: ReadCitation[] }> {
  const parsed = await parseCitationFile(text, format);
  return {
    format: parsed.format,
    entries: parsed.citations.map((c) => {
      const reference = bodyOf(c);
      const check = ReferenceBodySchema.safeParse(reference);
      const problems = check.success
        ? []
        : check.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      return { reference, pmid: c.pmid, problems };
    }),
  };
}

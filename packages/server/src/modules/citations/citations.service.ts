import {
  normaliseDoi,
  type CitationEntry,
  type CitationFormat,
  type Reference,
  type ReferenceBody,
} from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { listReferenceKeys } from '../references/index.js';
import { ReferenceWriteService } from '../references/index.js';
import { refuseTooManyEntries } from './citation-count.js';
import { detectFormat, NOT_A_CITATION_FILE } from './citation-format.js';
import { parseCitationFileOffThread } from './citation-parse-pool.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;

const pmidOfLink = (link: string | null) => (link ? (/(\d{4,9})\/?$/.exec(link.trim())?.[1] ?? null) : null);
const titleKey = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** What already exists, keyed three ways: duplicates are found by DOI, PubMed id, then title. */
async function existingKeys(db: Deps['db']) {
  const rows = await listReferenceKeys(db);
  const keys = {
    doi: new Map<string, number>(),
    pmid: new Map<string, number>(),
    title: new Map<string, number>(),
  };
  for (const r of rows) {
    if (r.doi) keys.doi.set(normaliseDoi(r.doi).toLowerCase(), r.id);
    const pmid = pmidOfLink(r.pubmedLink);
    if (pmid) keys.pmid.set(pmid, r.id);
    keys.title.set(titleKey(r.title), r.id);
  }
  return keys;
}

function keysOf(body: Pick<ReferenceBody, 'doi' | 'pubmed_link' | 'title'>) {
  return {
    doi: body.doi ? normaliseDoi(body.doi).toLowerCase() : null,
    pmid: pmidOfLink(body.pubmed_link ?? null),
    title: body.title ? titleKey(body.title) : null,
  };
}

/** Reads a citation file and says, entry by entry, what is wrong and what repeats. Saves nothing. */
export async function previewCitations(
  deps: Deps,
  text: string,
  format?: CitationFormat,
): Promise<{ format: CitationFormat; entries: CitationEntry[] }> {
  const detected = format ?? detectFormat(text);
  if (!detected) {
    throw new AppError('bad_request', NOT_A_CITATION_FILE, {
      fields: [{ path: 'text', message: NOT_A_CITATION_FILE }],
    });
  }
  // Counted before parsing, on this thread (one regular expression); parsed on another.
  refuseTooManyEntries(text, detected);
  const parsed = await parseCitationFileOffThread(text, detected);
  if (parsed.entries.length === 0) {
    throw new AppError('bad_request', `No reference was found in this ${parsed.format} file`);
  }
  const existing = await existingKeys(deps.db);
  const seen = {
    doi: new Map<string, number>(),
    pmid: new Map<string, number>(),
    title: new Map<string, number>(),
  };
  const entries = parsed.entries.map(({ reference, pmid, problems }, i): CitationEntry => {
    const keys = keysOf(reference);
    let duplicate: CitationEntry['duplicate'] = null;
    for (const by of ['doi', 'pmid', 'title'] as const) {
      const key = keys[by];
      if (!key) continue;
      const id = existing[by].get(key);
      const earlier = seen[by].get(key);
      if (id !== undefined || earlier !== undefined) {
        duplicate = { by, reference_id: id ?? null, entry: id === undefined ? earlier! : null };
        break;
      }
    }
    for (const by of ['doi', 'pmid', 'title'] as const) {
      const key = keys[by];
      if (key && !seen[by].has(key)) seen[by].set(key, i + 1);
    }
    return { entry: i + 1, reference, pmid, problems, duplicate };
  });
  return { format: parsed.format, entries };
}

/** Creates the chosen references in one transaction; refuses all if one repeats an existing one. */
export async function createCitationReferences(
  deps: Deps,
  bodies: ReferenceBody[],
  userId: number,
): Promise<Reference[]> {
  const existing = await existingKeys(deps.db);
  const seen = { doi: new Set<string>(), pmid: new Set<string>(), title: new Set<string>() };
  const fields: { path: string; message: string }[] = [];
  bodies.forEach((body, i) => {
    const keys = keysOf(body);
    for (const by of ['doi', 'pmid', 'title'] as const) {
      const key = keys[by];
      if (!key) continue;
      const id = existing[by].get(key);
      const label = { doi: 'DOI', pmid: 'PubMed id', title: 'title' }[by];
      if (id !== undefined) {
        fields.push({
          path: `references.${i}.${by === 'pmid' ? 'pubmed_link' : by}`,
          message: `Reference ${i + 1}: reference ${id} has the same ${label}`,
        });
        break;
      }
      if (seen[by].has(key)) {
        fields.push({
          path: `references.${i}.${by === 'pmid' ? 'pubmed_link' : by}`,
          message: `Reference ${i + 1}: an earlier one has the same ${label}`,
        });
        break;
      }
    }
    for (const by of ['doi', 'pmid', 'title'] as const) if (keys[by]) seen[by].add(keys[by]);
  });
  if (fields.length > 0) {
    throw new AppError('conflict', `${fields[0]!.message}; nothing was created`, { fields });
  }
  return new ReferenceWriteService(deps).createMany(bodies, userId);
}

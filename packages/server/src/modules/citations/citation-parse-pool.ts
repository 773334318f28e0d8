import type { CitationFormat } from '@bvdb/contract';
import { WorkerPool } from '../../lib/worker-pool.js';
import type { readCitationEntries } from './citation-entries.js';

type Parsed = Awaited<ReturnType<typeof readCitationEntries>>;

/**
 * One thread (two on a larger machine) parses citation files; a file past the entry cap never
 * gets here. The time and heap limits are far above what 2,000 entries need (about 2 s, 100 MB).
 */
const pool = new WorkerPool<{ text: string; format: CitationFormat }, Parsed>({
  from: import.meta.url,
  file: './citation-parse.thread.js',
  timeoutMs: 20_000,
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
  tooLong: {
    code: 'bad_request',
    message: 'The file took too long to read (over 20 s): split it into smaller files.',
  },
  tooLarge: {
    code: 'bad_request',
    message: 'The file needs too much memory to read: split it into smaller files.',
  },
  busy: 'Citation files are being read for other users; try again in a few seconds.',
});

/** A RIS, BibTeX or MEDLINE file's entries, parsed and checked in a worker thread. */
export const parseCitationFileOffThread = (text: string, format: CitationFormat): Promise<Parsed> =>
  pool.run({ text, format });

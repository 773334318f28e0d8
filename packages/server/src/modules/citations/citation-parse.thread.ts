import type { CitationFormat } from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';
import { answerTasks } from '../../lib/worker-task.js';
import { readCitationEntries } from './citation-entries.js';
import { CitationFileError } from './citation-parse.js';

/** A citation-parsing thread: citation-js and the form's checks hold the CPU here, not the event loop. */
answerTasks(async ({ text, format }: { text: string; format: CitationFormat }) => {
  try {
    return await readCitationEntries(text, format);
  } catch (err) {
    if (!(err instanceof CitationFileError)) throw err;
    throw new AppError('bad_request', err.message, { fields: [{ path: 'text', message: err.message }] });
  }
});

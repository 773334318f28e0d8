import { answerTasks } from '../../lib/worker-task.js';
import { verdictThreadTask, type VerdictThreadTask } from './change-verdict-in-thread.js';

/**
 * A change-verdict thread (decision 092): UCUM (loaded here on first use, never on the event loop),
 * reading a batch, and judging it and writing its answer.
 */
answerTasks<VerdictThreadTask, unknown>(verdictThreadTask);

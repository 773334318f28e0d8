import { answerTasks } from '../../lib/worker-task.js';
import { runIndirectTask } from './indirect-run.js';

/** An indirect-estimate thread: reading the extract, pairing, the methods and the presenter run here. */
answerTasks(runIndirectTask);

import { answerTasks } from '../../lib/worker-task.js';
import { runEstimationTask } from './estimation-run.js';

/** An estimation thread: parsing the file or rows, the whole pipeline and the presenter run here. */
answerTasks(runEstimationTask);

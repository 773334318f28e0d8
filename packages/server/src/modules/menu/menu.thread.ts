import { answerTasks } from '../../lib/worker-task.js';
import { readMenuTask } from './menu-read.js';

/** A menu thread: reading the CSV, workbook or JSON body runs here. */
answerTasks(readMenuTask);

import { answerTasks } from '../../../lib/worker-task.js';
import { parseStatsRows } from './stats-rows.js';
import { runMetacalculation, type StatsTask } from './stats.service.js';

/** A statistics-pool thread: the CPU-heavy part of the endpoint (CSV/row parsing, the bootstrap). */
answerTasks((task: StatsTask) => runMetacalculation(parseStatsRows(task.body), task.seed));

import { answerTasks } from '../../lib/worker-task.js';
import { readMenuTask, type MenuReadTask } from './menu-read.js';
import { makeMenuSheetTask, type MenuSheetTask } from './menu-sheet-in-thread.js';

/**
 * A menu thread: reading the CSV, workbook or JSON body, and making the sheet of lines matched on
 * the event loop (the formulas, presenting, the contract's check and JSON; decision 068).
 */
answerTasks<MenuReadTask | MenuSheetTask, unknown>((task) =>
  task.kind === 'sheet' ? makeMenuSheetTask(task) : readMenuTask(task),
);

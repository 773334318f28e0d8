/**
 * Work a process runs beside its requests (decision 048): the recompute's worker and the upkeep on
 * timers. Each lives beside the module it serves and is exported by that module's face; main.ts
 * starts the list in order and stops it in reverse (decision 077).
 */
export interface BackgroundTask {
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

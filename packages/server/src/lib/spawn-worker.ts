import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread on `file` (named as built, `./x.thread.js`), beside the module at `from`
 * (its `import.meta.url`). Built code runs the .js file; tests and `npm run dev` run the TypeScript
 * source through tsx, with the workspace packages read from their sources (`--conditions=source`).
 */
export function spawnWorker(from: string, file: string, options: WorkerOptions = {}): Worker {
  const url = new URL(file, from);
  if (from.endsWith('.js')) return new Worker(url, options);
  const target = JSON.stringify(url.href.replace(/\.js$/, '.ts'));
  return new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${target}); })`, {
    ...options,
    eval: true,
    execArgv: [...(options.execArgv ?? []), '--conditions=source'],
  });
}

// A CPU profile of this process around one part of a bench (`node:inspector` sampling, as
// `--cpu-prof` but without the seeding in it): written as a .cpuprofile (Chrome DevTools opens it)
// and summed by function, self time, so a bench can say where its event loop went.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Starts sampling every `intervalUs` µs; the returned function stops, writes `file` and gives the top
 * `top` functions by self time.
 */
export async function startCpuProfile(
  file: string,
  top = 25,
  intervalUs = 200,
): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    return summarise(profile, top);
  };
}

const keyOf = (n: ProfileNode) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
};

/** Self and total (self and callees) time by function (name, file and line), from each sample's time delta. */
function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const key = keyOf(byId.get(id)!);
    self.set(key, (self.get(key) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(byId.get(at)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  });
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
  return [
    `profile: ${(total / 1000).toFixed(0)} ms sampled; self time:`,
    ...list(self),
    'total time (with callees):',
    ...list(inclusive),
  ].join('\n');
}

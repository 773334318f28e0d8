import { runSimulationStudy, scenarios } from './src/indirect/simulation.ts';
const sc = scenarios();
const r = runSimulationStudy(sc);
const names = Object.keys(r.errors);
for (let i = 0; i < sc.length; i++) {
  const s = sc[i]!;
  const es = names.map((n) => r.errors[n]![i]!);
  if (es.some((e) => Math.abs(e) > 0.2)) console.log(JSON.stringify(s), es.map((e) => e.toFixed(2)).join(' '));
}

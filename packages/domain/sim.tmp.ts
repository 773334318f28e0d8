import { runSimulationStudy } from './src/indirect/simulation.ts';
const t0 = process.cpuUsage().user;
for (const r of runSimulationStudy().rows) console.log(r.method.padEnd(52), r.recovered, '/', r.scenarios, 'published', r.published, 'median |err|', r.medianError.toFixed(3), 'worst', r.worstError.toFixed(3));
console.log(((process.cpuUsage().user - t0) / 1e6).toFixed(1), 's cpu');

// The simulation study of issue 46: 128 seeded scenarios of 5,000 patients (Tan et al., Clin Chem Lab
// Med 2022's design as bvdb reconstructs it, docs/domain/indirect-bv.md), each method's CVI counted
// as recovered when within ±20 % of the true CVI, printed beside the published counts.
// Run after building the package:
//   npx tsc -b packages/domain/tsconfig.build.json && node packages/domain/bench/indirect-simulation.mjs [seed]
import { DEFAULT_SIMULATION_DESIGN, runSimulationStudy, SIMULATION_GRID } from '../dist/index.js';

const seed = Number(process.argv[2] ?? 2022);
const d = DEFAULT_SIMULATION_DESIGN;
console.log(
  `grid: d ${SIMULATION_GRID.d.join('/')} %, CVi ${SIMULATION_GRID.cvi.join('/')} %, f ${SIMULATION_GRID.f.join('/')}, e ${SIMULATION_GRID.e.join('/')};`,
  `${d.patients} patients, CVG ${d.cvg} %, CVA ${d.cva} %, seed ${seed}\n`,
);
const t = process.cpuUsage().user;
const { rows } = runSimulationStudy(undefined, seed);
console.log('| method | within ±20 % | published (Tan 2022) | median abs. error | worst abs. error |');
console.log('|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.method} | ${r.recovered}/${r.scenarios} | ${r.published === null ? '—' : `${r.published}/128`} | ${(100 * r.medianError).toFixed(1)} % | ${(100 * r.worstError).toFixed(1)} % |`,
  );
console.log(`\n${((process.cpuUsage().user - t) / 1e6).toFixed(1)} s CPU`);

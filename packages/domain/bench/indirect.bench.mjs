// Times the indirect estimate (issue 46) on 100,000 routine results: 20,000 patients × 5 results a
// week apart, 10 % of them pathological, with sex, age and setting (8 strata), all three methods and
// 500 bootstrap resamples, CVA given. Reports CPU and wall time (the machine may be shared).
// Run after building the package:
//   npx tsc -b packages/domain/tsconfig.build.json && node packages/domain/bench/indirect.bench.mjs
import { performance } from 'node:perf_hooks';
import { DEFAULT_INDIRECT_OPTIONS, estimateIndirect, mulberry32 } from '../dist/index.js';

const rng = mulberry32(46);
const z = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
const settings = ['inpatient', 'outpatient', 'primary_care'];
const rows = [];
for (let p = 0; p < 20000; p++) {
  const setPoint = 100 * Math.exp(0.2 * z());
  const sd = p % 10 === 0 ? 0.3 : 0.06;
  for (let k = 0; k < 5; k++)
    rows.push({
      patient: `p${p}`,
      time: Date.UTC(2024, 0, 1) + k * 7 * 86_400_000,
      value: setPoint * Math.exp(sd * z()),
      sex: p % 2 ? 'male' : 'female',
      age: (p * 7) % 90,
      setting: settings[p % 3],
    });
}
const bare = rows.map(({ patient, time, value }) => ({ patient, time, value }));
console.log('| input | results | pairs | strata | CPU s | wall s |');
console.log('|---|---|---|---|---|---|');
for (const [label, input] of [
  ['no sex/age/setting', bare],
  ['with sex, age, setting', rows],
]) {
  const cpu = process.cpuUsage().user;
  const wall = performance.now();
  const est = estimateIndirect(input, { ...DEFAULT_INDIRECT_OPTIONS, cva: 2 });
  console.log(
    `| ${label} | ${input.length} | ${est.all.pairing.pairs} | ${est.strata.length} | ${((process.cpuUsage().user - cpu) / 1e6).toFixed(2)} | ${((performance.now() - wall) / 1000).toFixed(2)} |`,
  );
}

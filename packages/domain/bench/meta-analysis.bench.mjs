// Times one meta-analysis (bootstrap included above 10 studies) for 10, 100 and 1,000 studies.
// Run after building the package: node packages/domain/bench/meta-analysis.bench.mjs
import { performance } from 'node:perf_hooks';
import { metaAnalyse, mulberry32 } from '../dist/index.js';

function studies(n, seed) {
  const r = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const cv = 3 + r() * 20;
    const half = 0.5 + r() * 4;
    return {
      id: `s${i}`,
      include: true,
      score: ['A', 'B', 'C'][i % 3],
      cv,
      ciLower: cv - half,
      ciUpper: cv + half,
    };
  });
}

console.log('| studies | mean ms per meta-analysis | ops/s |');
console.log('|---|---|---|');
for (const n of [10, 100, 1000]) {
  const rows = studies(n, n);
  const warm = Math.max(20, Math.floor(2000 / n));
  for (let i = 0; i < warm; i++) metaAnalyse(rows);
  const iterations = Math.max(50, Math.floor(20000 / n));
  const t = performance.now();
  for (let i = 0; i < iterations; i++) metaAnalyse(rows);
  const ms = (performance.now() - t) / iterations;
  console.log(`| ${n} | ${ms.toFixed(3)} | ${Math.round(1000 / ms)} |`);
}

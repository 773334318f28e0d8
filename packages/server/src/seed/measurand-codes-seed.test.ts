import fs from 'node:fs';
import { CODE_SYSTEM_URIS, codeProblem, codeSystemOf, MATRICES } from '@bvdb/domain';
import { describe, expect, it } from 'vitest';
import { matrixIdFor, readCsvObjects } from './demo-data.js';

// The demo's codes (issue 45.2): each one stated by a public source, none from memory.

const csv = (name: string) =>
  readCsvObjects(fs.readFileSync(new URL(`../../seed-data/${name}`, import.meta.url), 'utf8'));
const codes = csv('measurand_codes_seed.csv');
const studies = csv('bv_studies_seed.csv');

const matrixId = (name: string) => MATRICES.find((m) => m.name === name)?.id;
const SERUM_PLASMA = matrixId('Serum/plasma')!;
const WHOLE_BLOOD = matrixId('Whole blood')!;
/**
 * What a code's matrix covers among the demo's own: serum/plasma both, whole blood its EDTA tubes;
 * a plasma code (NPU's "P", decision 093) the serum datasets too, as LOINC's "Serum or Plasma" does.
 */
const COVERS: Record<number, number[]> = {
  [SERUM_PLASMA]: [matrixId('Serum')!, matrixId('Plasma')!, SERUM_PLASMA],
  [matrixId('Plasma')!]: [matrixId('Serum')!, matrixId('Plasma')!, SERUM_PLASMA],
  [WHOLE_BLOOD]: [WHOLE_BLOOD, matrixId('Whole Blood EDTA')!],
};

/** The matrices a demo measurand has datasets in, as the seed files them. */
const demoMatrices = new Map<string, Set<number>>();
for (const s of studies) {
  const set = demoMatrices.get(s.measurand!) ?? new Set<number>();
  set.add(matrixIdFor(s.matrix ?? '', s.measurand!));
  demoMatrices.set(s.measurand!, set);
}

describe('the demo measurands’ codes (seed-data/measurand_codes_seed.csv)', () => {
  it('has the columns the seed reads, and codes', () => {
    expect(Object.keys(codes[0]!)).toEqual([
      'system',
      'code',
      'display',
      'measurand',
      'matrix',
      'ucum_unit',
      'source',
    ]);
    expect(codes.length).toBeGreaterThanOrEqual(40);
  });

  it.each(codes.map((r) => [`${r.code} (${r.measurand})`, r] as const))(
    '%s: a known system, a well-formed code (LOINC’s check digit), an http(s) source',
    (_, r) => {
      const system = codeSystemOf(r.system!);
      expect(system && CODE_SYSTEM_URIS.includes(system)).toBe(true);
      expect(r.system).toBe(system);
      expect(codeProblem(system!, r.code!)).toBeUndefined();
      expect(r.source).toMatch(/\S/);
      expect(r.source).toMatch(/https?:\/\/\S+/);
      // A LOINC code's source names the code it states.
      expect(r.source).toContain(r.code);
    },
  );

  it.each(codes.map((r) => [`${r.code} (${r.measurand}, ${r.matrix})`, r] as const))(
    '%s: the measurand and a matrix it has datasets in are in the demo data',
    (_, r) => {
      const has = demoMatrices.get(r.measurand!);
      expect(has, `no demo measurand ${r.measurand}`).toBeDefined();
      const id = matrixId(r.matrix!);
      expect(id, `no matrix ${r.matrix}`).toBeDefined();
      const covered = COVERS[id!] ?? [id!];
      expect([...has!].some((m) => covered.includes(m))).toBe(true);
    },
  );

  it('has NPU codes too, each stated by its source with its scale (decision 093)', () => {
    const npu = codes.filter((r) => r.system === 'http://npu-terminology.org');
    expect(npu.length).toBeGreaterThanOrEqual(30);
    // Two scales of one quantity are two codes, never merged: urate in µmol/L and in mmol/L.
    const urate = npu.filter((r) => r.measurand === 'Urate (uric acid)');
    expect(urate.map((r) => [r.code, r.ucum_unit])).toEqual([
      ['NPU09356', 'umol/L'],
      ['NPU03688', 'mmol/L'],
    ]);
  });

  it('no code twice, whatever its measurand', () => {
    const keys = codes.map((r) => `${r.system}|${r.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

import { mulberry32 } from '@bvdb/domain';

/**
 * A laboratory extract made up from a seed (tests, the bench, the browser journey's file): patients
 * with their own set point (CVG 20 %), results around it with a known CVI and CVA, 2–6 results each
 * 1–40 days apart, sex, age and setting. The same seed gives the same bytes.
 */
export interface ExtractFixture {
  patients: number;
  seed?: number;
  cvi?: number;
  cva?: number;
  mean?: number;
  unit?: string;
  /** Results per patient: from 2 up to this many. */
  maxResults?: number;
}

export const FIXTURE_HEADER = ['Patient ID', 'Collected', 'Result', 'Unit', 'Sex', 'Age', 'Setting'];
const SETTINGS = ['inpatient', 'outpatient', 'primary care'];

/** The rows of the extract (without the header). */
export function fixtureRows(f: ExtractFixture): string[][] {
  const rng = mulberry32(f.seed ?? 46);
  const normal = () => {
    const u = Math.max(rng(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
  };
  const cvi = (f.cvi ?? 6) / 100;
  const cva = (f.cva ?? 2) / 100;
  const mean = f.mean ?? 5;
  const unit = f.unit ?? 'mmol/L';
  const start = Date.UTC(2024, 0, 1, 7, 0);
  const rows: string[][] = [];
  for (let p = 0; p < f.patients; p++) {
    const id = `P-${String(p + 1).padStart(6, '0')}`;
    const setPoint = mean * Math.exp(0.2 * normal());
    const n = 2 + Math.floor(rng() * ((f.maxResults ?? 4) - 1));
    const sex = p % 2 === 0 ? 'F' : 'M';
    const age = String(18 + Math.floor(rng() * 70));
    const setting = SETTINGS[p % 3]!;
    let t = start + Math.floor(rng() * 300) * 86_400_000 + Math.floor(rng() * 600) * 60_000;
    for (let k = 0; k < n; k++) {
      const value = setPoint * (1 + cvi * normal()) * (1 + cva * normal());
      const when = new Date(t).toISOString().slice(0, 16).replace('T', ' ');
      rows.push([id, when, value.toFixed(2), unit, sex, age, setting]);
      t += (1 + Math.floor(rng() * 40)) * 86_400_000 + Math.floor(rng() * 240) * 60_000;
    }
  }
  return rows;
}

/** The extract as CSV text (comma-separated, a header row). */
export function fixtureCsv(f: ExtractFixture, header = FIXTURE_HEADER): string {
  return [header, ...fixtureRows(f)].map((r) => r.join(',')).join('\n') + '\n';
}

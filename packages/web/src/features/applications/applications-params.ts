import { APS_LEVEL_NAMES, type ApsLevelName } from '@bvdb/domain';

/** What the summary table is computed at; kept in the page's URL (and so in a shared link). */
export interface ApplicationsParams {
  level: ApsLevelName;
  probability: number;
  cva: number | null;
  matrices: 'displayed' | 'all';
  /**
   * A population (issue 47.3): `facet.<name>` → its values, normalised as the API does (lower case,
   * comma-separated, deduplicated, sorted); empty for the global estimates.
   */
  population: Record<string, string>;
}

/**
 * The population facets, in the API's order: the domain's `FACETS` written out, for the first load
 * (importing them brought the domain's facet module into the page's; a test keeps the two equal).
 */
export const POPULATION_FACETS = [
  'sex',
  'age',
  'state',
  'disease',
  'ethnicity',
  'interval',
  'method',
  'matrix',
  'evidence',
] as const;

/** `facet.*` of a URL, normalised as the contract normalises them (so one population is one key). */
export function populationFromSearch(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const facet of POPULATION_FACETS) {
    const values = [
      ...new Set(
        search
          .getAll(`facet.${facet}`)
          .flatMap((v) => v.split(','))
          .map((v) => v.trim().toLowerCase())
          .filter(Boolean),
      ),
    ].sort();
    if (values.length > 0) out[facet] = values.join(',');
  }
  return out;
}

/** The probabilities offered (any other from a link is used as given when the API takes it). */
export const PROBABILITIES = [0.9, 0.95, 0.99] as const;

/**
 * The API's rules for each parameter (`ApplicationsQuerySchema` in the contract), written out so the
 * page reads its URL without zod in its first load (decision 075; the first-load budget, decision
 * 028). `applications-params.test.ts` holds them to the schema's own answers for a table of inputs.
 */
const numberIn = (raw: string, ok: (n: number) => boolean): number | undefined => {
  const n = Number(raw);
  return Number.isFinite(n) && ok(n) ? n : undefined;
};
const oneOf = <T extends string>(values: readonly T[], raw: string): T | undefined =>
  (values as readonly string[]).includes(raw) ? (raw as T) : undefined;

const RULES = {
  level: (raw: string) => oneOf(APS_LEVEL_NAMES, raw),
  probability: (raw: string) => numberIn(raw, (n) => n > 0.5 && n < 1),
  cva: (raw: string) => numberIn(raw, (n) => n >= 0 && n <= 100),
  matrices: (raw: string) => oneOf(['displayed', 'all'] as const, raw),
};

/** One parameter, by the API's rule for it; undefined when absent or refused. */
function field<K extends keyof typeof RULES>(name: K, raw: string | null): ReturnType<(typeof RULES)[K]> {
  if (raw === null || raw === '') return undefined as ReturnType<(typeof RULES)[K]>;
  return RULES[name](raw) as ReturnType<(typeof RULES)[K]>;
}

/**
 * The parameters from the URL, each checked by the API's own schema: one that the API would refuse
 * falls back to its default rather than breaking the page.
 */
export function paramsFromSearch(search: URLSearchParams): ApplicationsParams {
  return {
    level: field('level', search.get('level')) ?? 'desirable',
    probability: field('probability', search.get('probability')) ?? 0.95,
    cva: field('cva', search.get('cva')) ?? null,
    matrices: field('matrices', search.get('matrices')) ?? 'displayed',
    population: populationFromSearch(search),
  };
}

/** The URL's search for these parameters: defaults left out. */
export function searchOf(p: ApplicationsParams): URLSearchParams {
  const s = new URLSearchParams();
  if (p.level !== 'desirable') s.set('level', p.level);
  if (p.probability !== 0.95) s.set('probability', String(p.probability));
  if (p.cva !== null) s.set('cva', String(p.cva));
  if (p.matrices !== 'displayed') s.set('matrices', p.matrices);
  for (const [facet, values] of Object.entries(p.population)) s.set(`facet.${facet}`, values);
  return s;
}

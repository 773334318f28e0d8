import { ApplicationsQuerySchema } from '@bvdb/contract';
import type { ApsLevelName } from '@bvdb/domain';
import type { z } from 'zod';

/** What the summary table is computed at; kept in the page's URL (and so in a shared link). */
export interface ApplicationsParams {
  level: ApsLevelName;
  probability: number;
  cva: number | null;
  matrices: 'displayed' | 'all';
}

/** The probabilities offered (any other from a link is used as given when the API takes it). */
export const PROBABILITIES = [0.9, 0.95, 0.99] as const;

type Query = z.infer<typeof ApplicationsQuerySchema>;
const shape = ApplicationsQuerySchema.shape;

/** One parameter, by the API's own schema for it; undefined when absent or refused. */
function field<K extends keyof Query>(name: K, raw: string | null): Query[K] | undefined {
  if (raw === null || raw === '') return undefined;
  const parsed = (shape[name] as z.ZodType).safeParse(raw);
  return parsed.success ? (parsed.data as Query[K]) : undefined;
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
  };
}

/** The URL's search for these parameters: defaults left out. */
export function searchOf(p: ApplicationsParams): URLSearchParams {
  const s = new URLSearchParams();
  if (p.level !== 'desirable') s.set('level', p.level);
  if (p.probability !== 0.95) s.set('probability', String(p.probability));
  if (p.cva !== null) s.set('cva', String(p.cva));
  if (p.matrices !== 'displayed') s.set('matrices', p.matrices);
  return s;
}

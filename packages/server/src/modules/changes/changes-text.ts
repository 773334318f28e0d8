import type { Change, EstimateVersion } from '@bvdb/contract';
import { formatMetaValue } from '@bvdb/domain';

/** Names an entry's title needs, looked up once per feed. */
export interface ChangeNames {
  measurand: (id: number) => string | undefined;
  reference: (id: number) => string | undefined;
  /** An estimate's stored name ("Creatinine - Serum - CVI"), from its versions. */
  estimate: (change: Change) => string | undefined;
}

const VERB = {
  dataset: { created: 'published', changed: 'changed', withdrawn: 'withdrawn' },
  reference: { created: 'added', changed: 'changed', withdrawn: 'withdrawn' },
  measurand: { created: 'added', changed: 'changed', withdrawn: 'withdrawn' },
} as const;

/** "Serum" reads "serum" inside a sentence; "CSF" stays as it is. */
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);

/**
 * A result's name is "{measurand} - {matrix or consolidation} - {CVI|CVG}" (meta-recompute): the
 * title reads "Creatinine, serum" and "CVI".
 */
export function estimateLabel(name: string): { subject: string; type: string } {
  const parts = name.split(' - ');
  if (parts.length < 3) return { subject: name, type: '' };
  const type = parts.pop()!;
  const matrix = parts.pop()!;
  return { subject: `${parts.join(' - ')}, ${lowerFirst(matrix)}`, type };
}

const percent = (v: number | null) => `${formatMetaValue(v)} %`;

function describeVersion(v: EstimateVersion): string {
  if (v.withdrawn) return 'not shown';
  const limits =
    v.limits === null
      ? ''
      : `, ${v.limits === 'ci' ? '95 % CI' : 'range'} ${formatMetaValue(v.lower)}–${formatMetaValue(v.upper)} %`;
  return `${percent(v.median)}${limits}, ${v.number_used} ${v.number_used === 1 ? 'study' : 'studies'}`;
}

/** The entry's title, e.g. "Creatinine, serum: CVI 4.5 % → 4.7 % (version 3)". */
export function changeTitle(c: Change, names: ChangeNames): string {
  if (c.entity === 'estimate') {
    const label =
      names.estimate(c) ??
      (c.measurand_id === undefined ? undefined : names.measurand(c.measurand_id)) ??
      `Estimate ${c.id}`;
    const { subject, type } = estimateLabel(label);
    const head = type ? `${subject}: ${type}` : subject;
    const version = c.version === undefined ? '' : ` (version ${c.version})`;
    if (c.action === 'withdrawn' || !c.to) return `${head} withdrawn${version}`;
    if (c.action === 'changed' && c.from && !c.from.withdrawn) {
      return `${head} ${percent(c.from.median)} → ${percent(c.to.median)}${version}`;
    }
    return `${head} ${percent(c.to.median)}${version}`;
  }
  const verb = VERB[c.entity][c.action];
  if (c.entity === 'reference') {
    const title = names.reference(c.id);
    return `Reference ${c.id} ${verb}${title ? `: ${shorten(title)}` : ''}`;
  }
  const measurand =
    (c.measurand_id === undefined ? undefined : names.measurand(c.measurand_id)) ??
    `Measurand ${c.measurand_id ?? c.id}`;
  return c.entity === 'dataset' ? `${measurand}: dataset ${c.id} ${verb}` : `${measurand}: measurand ${verb}`;
}

/** The entry's summary: an estimate's new and previous values, or what happened in words. */
export function changeSummary(c: Change, names: ChangeNames): string {
  if (c.entity === 'estimate') {
    const now = c.to ? describeVersion(c.to) : 'not shown';
    const before = c.from ? `; before: ${describeVersion(c.from)}` : '';
    const cause = c.to ? ` Cause: ${c.to.cause.kind} (${c.to.cause.role}).` : '';
    return `Now: ${now}${before}.${cause}`;
  }
  return `${changeTitle(c, names)}.`;
}

const shorten = (s: string) => (s.length > 120 ? `${s.slice(0, 119)}…` : s);

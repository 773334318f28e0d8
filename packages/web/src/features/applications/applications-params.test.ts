import { ApplicationsQuerySchema } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { applicationsQueryString } from './api/get-applications';
import { paramsFromSearch, POPULATION_FACETS, searchOf } from './applications-params';

describe('the summary table parameters in the URL', () => {
  it('defaults: nothing in the URL, nothing in the API query', () => {
    const p = paramsFromSearch(new URLSearchParams(''));
    expect(p).toEqual({
      level: 'desirable',
      probability: 0.95,
      cva: null,
      matrices: 'displayed',
      population: {},
    });
    expect(searchOf(p).toString()).toBe('');
    expect(Object.values(applicationsQueryString(p)).every((v) => v === undefined)).toBe(true);
  });
  it('round trip of every parameter', () => {
    const p = paramsFromSearch(new URLSearchParams('level=optimal&probability=0.99&cva=3.5&matrices=all'));
    expect(p).toEqual({ level: 'optimal', probability: 0.99, cva: 3.5, matrices: 'all', population: {} });
    expect(paramsFromSearch(searchOf(p))).toEqual(p);
    expect(applicationsQueryString(p)).toEqual({
      level: 'optimal',
      probability: 0.99,
      cva: 3.5,
      matrices: 'all',
    });
  });
  it('a value the API would refuse falls back to its default', () => {
    expect(paramsFromSearch(new URLSearchParams('level=best&probability=2&cva=-1&matrices=x'))).toEqual({
      level: 'desirable',
      probability: 0.95,
      cva: null,
      matrices: 'displayed',
      population: {},
    });
  });
  it('keeps every facet the API knows in the URL, the evidence class among them (issue 47.4)', async () => {
    const { FACETS } = await import('@bvdb/domain');
    expect([...POPULATION_FACETS]).toEqual([...FACETS]);
    const p = paramsFromSearch(new URLSearchParams('facet.evidence=direct-bayesian'));
    expect(p.population).toEqual({ evidence: 'direct-bayesian' });
    expect(applicationsQueryString(p)).toMatchObject({ 'facet.evidence': 'direct-bayesian' });
  });

  it('a population (issue 47.3): facet.* normalised as the contract does, round trip, and in the API query', async () => {
    const { FacetQuerySchema } = await import('@bvdb/contract');
    const search = new URLSearchParams(
      'facet.state=Healthy,athletes&facet.state=athletes&facet.sex=MALES&facet.nope=x',
    );
    const p = paramsFromSearch(search);
    expect(p.population).toEqual({ sex: 'males', state: 'athletes,healthy' });
    expect(paramsFromSearch(searchOf(p))).toEqual(p);
    const query = applicationsQueryString(p);
    expect(query).toMatchObject({ 'facet.sex': 'males', 'facet.state': 'athletes,healthy' });
    // The contract reads the same URL to the same values.
    const parsed = FacetQuerySchema.parse(
      Object.fromEntries(['facet.sex', 'facet.state'].map((k) => [k, search.getAll(k)])),
    );
    expect(parsed['facet.sex']?.join(',')).toBe(p.population.sex);
    expect(parsed['facet.state']?.join(',')).toBe(p.population.state);
  });
  it("reads each parameter as the API's own schema does (written out to keep zod out of the first load)", () => {
    const inputs: Record<string, string[]> = {
      level: ['minimum', 'desirable', 'optimal', 'Optimal', 'best', ' optimal', '0', 'null'],
      probability: [
        '0.9',
        '0.95',
        '0.99',
        '0.5',
        '0.50001',
        '1',
        '0.999999',
        '1e-1',
        '.9',
        ' 0.9 ',
        'x',
        'Infinity',
        '-0.9',
        '0x1',
        '9e-1',
      ],
      cva: ['0', '100', '100.0001', '-0', '-1', '3.5', ' 3.5', '3,5', 'NaN', 'Infinity', '1e2', '0b11', ' '],
      matrices: ['displayed', 'all', 'ALL', 'some', ''],
    };
    const shape = ApplicationsQuerySchema.shape;
    for (const [name, values] of Object.entries(inputs))
      for (const raw of values) {
        const schema = shape[name as keyof typeof shape];
        const parsed = raw === '' ? undefined : schema.safeParse(raw);
        const expected = parsed?.success ? parsed.data : undefined;
        const fromUrl = paramsFromSearch(new URLSearchParams({ [name]: raw }));
        const defaults = { level: 'desirable', probability: 0.95, cva: null, matrices: 'displayed' } as const;
        const wanted = expected ?? defaults[name as keyof typeof defaults];
        expect(fromUrl[name as keyof typeof fromUrl], `${name}=${JSON.stringify(raw)}`).toBe(wanted);
      }
  });
});

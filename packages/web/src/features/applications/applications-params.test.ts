import { describe, expect, it } from 'vitest';
import { applicationsQueryString } from './api/get-applications';
import { paramsFromSearch, searchOf } from './applications-params';

describe('the summary table parameters in the URL', () => {
  it('defaults: nothing in the URL, nothing in the API query', () => {
    const p = paramsFromSearch(new URLSearchParams(''));
    expect(p).toEqual({ level: 'desirable', probability: 0.95, cva: null, matrices: 'displayed' });
    expect(searchOf(p).toString()).toBe('');
    expect(Object.values(applicationsQueryString(p)).every((v) => v === undefined)).toBe(true);
  });
  it('round trip of every parameter', () => {
    const p = paramsFromSearch(new URLSearchParams('level=optimal&probability=0.99&cva=3.5&matrices=all'));
    expect(p).toEqual({ level: 'optimal', probability: 0.99, cva: 3.5, matrices: 'all' });
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
    });
  });
});

import { describe, expect, it } from 'vitest';
import { pageUrlOf } from './web-app.js';

describe('page cache keys', () => {
  it.each([
    ['/analytes/12', '/analytes/12'],
    ['/analytes/12?utm_source=news&fbclid=x', '/analytes/12'],
    ['/references?search=bio&page=2&_=1700000000', '/references?page=2&search=bio'],
    ['/references?page=2&search=bio', '/references?page=2&search=bio'],
    ['/search?query=creatinine&nocache=1', '/search?query=creatinine'],
    ['/meta_jobs?consolidated=3&meta=4', '/meta_jobs?consolidated=3&meta=4'],
    // The summary table (issue 32): what it is computed at is part of the page; the name filter is not.
    [
      '/applications?probability=0.99&level=optimal&filter=x&cva=3&matrices=all',
      '/applications?cva=3&level=optimal&matrices=all&probability=0.99',
    ],
  ])('%s renders and is kept as %s', (url, expected) => {
    expect(pageUrlOf(url)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { matchPage } from './page-preloads.js';

describe('matchPage', () => {
  it('matches literal segments and captures params, decoded', () => {
    expect(matchPage('/analytes/:id', '/analytes/12')).toEqual({ id: '12' });
    expect(matchPage('/analytes/:id', '/analytes/12/')).toEqual({ id: '12' });
    expect(matchPage('/references/:id', '/references/a%20b')).toEqual({ id: 'a b' });
    expect(matchPage('/bv_specifications/measurand', '/bv_specifications/measurand')).toEqual({});
    expect(matchPage('/', '/')).toEqual({});
  });

  it('refuses other shapes, empty params and malformed escapes', () => {
    expect(matchPage('/analytes/:id', '/analytes')).toBeNull();
    expect(matchPage('/analytes/:id', '/analytes/1/edit')).toBeNull();
    expect(matchPage('/analytes/:id', '/references/1')).toBeNull();
    expect(matchPage('/analytes/:id', '/analytes/%E0%A4%A')).toBeNull();
    expect(matchPage('/', '/about')).toBeNull();
  });
});

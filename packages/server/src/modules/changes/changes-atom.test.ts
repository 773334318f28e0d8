import { describe, expect, it } from 'vitest';
import { escapeXml, renderAtom } from './changes-atom.js';
import { changeTitle, estimateLabel, type ChangeNames } from './changes-text.js';
import { expectWellFormed } from '../../test/well-formed-xml.js';

const names: ChangeNames = {
  measurand: (id) => (id === 1 ? 'Creatinine' : undefined),
  reference: (id) => (id === 9 ? 'Within-subject <variation> & "friends"' : undefined),
  estimate: () => 'Creatinine - Serum - CVI',
};
const version = (n: number, median: number) => ({
  version: n,
  withdrawn: false,
  median,
  lower: median - 1,
  upper: median + 1,
  limits: 'ci' as const,
  number_used: 3,
  datasets: [],
  computed_at: '2026-11-27T08:00:00.000Z',
  cause: { kind: 'dataset' as const, role: 'curator' },
});
const base = { cursor: '12', at: '2026-11-27T08:00:00.000Z', id: 5 };

describe('Atom feed text', () => {
  it('titles an estimate change as a reader says it', () => {
    expect(estimateLabel('Creatinine - Serum - CVI')).toEqual({ subject: 'Creatinine, serum', type: 'CVI' });
    expect(estimateLabel('Glucose - CSF - CVG')).toEqual({ subject: 'Glucose, CSF', type: 'CVG' });
    expect(
      changeTitle(
        {
          ...base,
          entity: 'estimate',
          action: 'changed',
          measurand_id: 1,
          estimate_id: 5,
          version: 3,
          from: version(2, 4.5),
          to: version(3, 4.7),
        },
        names,
      ),
    ).toBe('Creatinine, serum: CVI 4.5 % → 4.7 % (version 3)');
    expect(
      changeTitle(
        { ...base, entity: 'estimate', action: 'created', estimate_id: 5, version: 1, to: version(1, 4.5) },
        names,
      ),
    ).toBe('Creatinine, serum: CVI 4.5 % (version 1)');
    expect(
      changeTitle(
        {
          ...base,
          entity: 'estimate',
          action: 'withdrawn',
          estimate_id: 5,
          version: 4,
          to: { ...version(4, 0), withdrawn: true },
        },
        names,
      ),
    ).toBe('Creatinine, serum: CVI withdrawn (version 4)');
    expect(changeTitle({ ...base, entity: 'dataset', action: 'created', measurand_id: 1 }, names)).toBe(
      'Creatinine: dataset 5 published',
    );
    expect(
      changeTitle({ ...base, entity: 'measurand', id: 2, action: 'withdrawn', measurand_id: 2 }, names),
    ).toBe('Measurand 2: measurand withdrawn');
  });

  it('escapes every text and attribute and drops characters XML forbids', () => {
    expect(escapeXml(`a<b>&"c'\u0001\uFFFE`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
    const xml = renderAtom({
      id: 'tag:bvdb,2026:changes',
      title: 'Changes & more',
      alternate: '/?a=1&b=2',
      self: '/changes.atom',
      author: 'EFLM',
      rights: 'Terms <here>',
      entries: [
        {
          id: 'tag:bvdb,2026:change:12',
          title: changeTitle({ ...base, id: 9, entity: 'reference', action: 'changed' }, names),
          updated: new Date('2026-11-27T08:00:00.123Z'),
          link: '/references/9',
          category: 'reference',
          summary: 'x < y & z',
        },
      ],
    });
    expectWellFormed(xml);
    expect(xml).toContain(
      '<title>Reference 9 changed: Within-subject &lt;variation&gt; &amp; &quot;friends&quot;</title>',
    );
    expect(xml).toContain('<updated>2026-11-27T08:00:00Z</updated>');
    expect(xml).toContain('href="/?a=1&amp;b=2"');
  });

  it('an empty feed still has the elements Atom requires, with a fixed date', () => {
    const xml = renderAtom({
      id: 'tag:x,2026:y',
      title: 't',
      alternate: '/',
      self: '/s',
      author: 'a',
      rights: 'r',
      entries: [],
    });
    expectWellFormed(xml);
    for (const el of ['<id>', '<title>', '<updated>2026-01-01T00:00:00Z</updated>', '<author><name>']) {
      expect(xml).toContain(el);
    }
  });
});

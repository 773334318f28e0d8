import { describe, expect, it } from 'vitest';
import { doiUrl, pubmedUrl } from './reference-links';

describe('reference links', () => {
  it.each([
    ['10.1373/clinchem.2017.275115', 'https://doi.org/10.1373/clinchem.2017.275115'],
    ['https://doi.org/10.1/x', 'https://doi.org/10.1/x'],
    ['doi: 10.1/x', 'https://doi.org/10.1/x'],
    ['', null],
    [null, null],
    ['not a doi', null],
  ])('doi %s', (doi, url) => expect(doiUrl(doi)).toBe(url));
  it.each([
    ['28720681', 'https://pubmed.ncbi.nlm.nih.gov/28720681/'],
    ['https://pubmed.ncbi.nlm.nih.gov/1/', 'https://pubmed.ncbi.nlm.nih.gov/1/'],
    ['javascript:alert(1)', null],
    [null, null],
  ])('pubmed %s', (link, url) => expect(pubmedUrl(link)).toBe(url));
});

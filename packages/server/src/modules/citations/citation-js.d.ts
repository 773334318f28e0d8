// @citation-js ships no types: the little of it bvdb uses.
declare module '@citation-js/core' {
  export interface CslName {
    family?: string;
    given?: string;
    literal?: string;
  }
  export interface CslItem {
    title?: string;
    author?: CslName[];
    'container-title'?: string;
    'container-title-short'?: string;
    journalAbbreviation?: string;
    volume?: string | number;
    page?: string;
    issued?: { 'date-parts'?: (string | number)[][]; raw?: string };
    DOI?: string;
    PMID?: string;
    URL?: string;
    'citation-key'?: string;
  }
  export class Cite {
    static async(data: string, options?: { forceType?: string }): Promise<Cite>;
    data: CslItem[];
  }
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';

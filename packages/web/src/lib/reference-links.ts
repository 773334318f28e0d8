/** The address of a DOI (a bare "10.…" or one already written as a doi.org address). */
export function doiUrl(doi: string | null | undefined): string | null {
  const d = doi
    ?.trim()
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:\s*/i, '');
  return d && /^10\.\S+\/\S+$/.test(d) ? `https://doi.org/${d}` : null;
}

/** The PubMed page of a reference: its stored address, or one built from a bare PMID. */
export function pubmedUrl(link: string | null | undefined): string | null {
  const l = link?.trim();
  if (!l) return null;
  if (/^\d{1,9}$/.test(l)) return `https://pubmed.ncbi.nlm.nih.gov/${l}/`;
  return /^https?:\/\//i.test(l) ? l : null;
}

import {
  estimateBibtex,
  estimateCitationKey,
  estimateRis,
  formatEstimateCitation,
  type EstimateCitation,
} from '@bvdb/domain';
import { useEffect, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { copyText } from '../../lib/copy-text';

/** What the page knows of the estimate; the dialog adds the access date and the absolute permalink. */
export type CiteInput = Omit<EstimateCitation, 'accessed' | 'url'> & { path: string };

/** A download link for generated text, its object URL let go when the dialog closes. */
function useObjectUrl(text: string, type: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([text], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text, type]);
  return url;
}

/**
 * "Cite this estimate" (issue 18.3): the database citation of the home page with the estimate, its
 * matrix, N, date and permalink, to copy as text or download as RIS or BibTeX (built in the domain:
 * formatEstimateCitation, estimateRis, estimateBibtex).
 */
export default function CiteDialog({ input, onHide }: { input: CiteInput; onHide: () => void }) {
  const citation = useMemo<EstimateCitation>(() => {
    const { path, ...rest } = input;
    return { ...rest, url: new URL(path, window.location.origin).href, accessed: new Date() };
  }, [input]);
  const text = formatEstimateCitation(citation);
  const ris = useObjectUrl(estimateRis(citation), 'application/x-research-info-systems');
  const bib = useObjectUrl(estimateBibtex(citation), 'application/x-bibtex');
  const key = estimateCitationKey(citation);
  const area = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Modal show onHide={onHide} aria-labelledby="cite-title" size="lg">
      <Modal.Header closeButton>
        <Modal.Title id="cite-title" as="h2" className="h5">
          Cite this estimate
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <label htmlFor="cite-text" className="form-label small text-muted">
          Citation (Vancouver style)
        </label>
        <textarea
          id="cite-text"
          ref={area}
          className="form-control mb-2 small"
          readOnly
          rows={8}
          value={text}
          data-testid="citation-text"
        />
        <p className="small mb-2">
          Permalink:{' '}
          <a href={citation.url} data-testid="citation-permalink" className="text-break">
            {citation.url}
          </a>
        </p>
        <div className="d-flex flex-wrap gap-2 align-items-center">
          <Button
            variant="primary"
            size="sm"
            onClick={() => void copyText(text, area.current).then(setCopied)}
          >
            Copy
          </Button>
          {ris ? (
            <a className="btn btn-outline-primary btn-sm" href={ris} download={`${key}.ris`}>
              Download RIS
            </a>
          ) : null}
          {bib ? (
            <a className="btn btn-outline-primary btn-sm" href={bib} download={`${key}.bib`}>
              Download BibTeX
            </a>
          ) : null}
          <span role="status" className="small">
            {copied === true
              ? 'Copied to the clipboard'
              : copied === false
                ? 'Select the text and copy it'
                : ''}
          </span>
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

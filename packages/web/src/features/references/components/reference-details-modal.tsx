import type { Reference } from '@bvdb/contract';
import Modal from 'react-bootstrap/Modal';
import { CloseFooter } from '../../../components/close-footer';

const orNA = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? 'N/A' : v;

/** "Reference Details" (spec section 2): every citation field, with links that open safely. */
export function ReferenceDetailsModal({
  reference,
  show,
  onHide,
}: {
  reference: Reference;
  show: boolean;
  onHide: () => void;
}) {
  const r = reference;
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={`ref-modal-${r.id}`}>
      <Modal.Header closeButton>
        <Modal.Title id={`ref-modal-${r.id}`} as="h2" className="h5">
          Reference Details
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <dl className="row mb-0">
          <dt className="col-sm-4">Title</dt>
          <dd className="col-sm-8">{r.title}</dd>
          <dt className="col-sm-4">Authors</dt>
          <dd className="col-sm-8">{orNA(r.author)}</dd>
          <dt className="col-sm-4">Year of Publication</dt>
          <dd className="col-sm-8">{orNA(r.year_of_publication)}</dd>
          <dt className="col-sm-4">Pubmed Link</dt>
          <dd className="col-sm-8">
            <LinkOrNA href={r.pubmed_link} text={r.pubmed_link} />
          </dd>
          <dt className="col-sm-4">Pages</dt>
          <dd className="col-sm-8">{orNA(r.pages)}</dd>
          <dt className="col-sm-4">Volume</dt>
          <dd className="col-sm-8">{orNA(r.volume)}</dd>
          <dt className="col-sm-4">doi</dt>
          <dd className="col-sm-8">
            <LinkOrNA href={`https://doi.org/${r.doi}`} text={r.doi} />
          </dd>
          <dt className="col-sm-4">Links</dt>
          <dd className="col-sm-8">
            <LinkOrNA href={r.link} text={r.link} />
          </dd>
          <dt className="col-sm-4">Article ID</dt>
          <dd className="col-sm-8">{r.link_to_spanish_database}</dd>
          <dt className="col-sm-4">Files</dt>
          <dd className="col-sm-8">
            {r.article_file_url && r.article_file_name ? (
              <a href={r.article_file_url} download={r.article_file_name}>
                {r.article_file_name}
              </a>
            ) : r.article_url ? (
              <a href={r.article_url} target="_blank" rel="noopener noreferrer">
                {r.article_url}
              </a>
            ) : (
              'No file'
            )}
          </dd>
        </dl>
      </Modal.Body>
      <CloseFooter onClose={onHide} />
    </Modal>
  );
}

/** A link opening in a new tab, or N/A when the field is empty. */
function LinkOrNA({ href, text }: { href: string | null; text: string | null }) {
  return text && href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  ) : (
    'N/A'
  );
}

import type { Dataset } from '@bvdb/contract';
import { QUALITY_ITEMS } from '@bvdb/domain';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { CloseFooter } from '../../../components/close-footer';
import { GradeBadge } from '../../../components/dataset-badges';
import { HeaderRow } from '../../../components/header-row';
import { DEMO_NOTE } from './demo-note';

export function ScoringTable({ dataset }: { dataset: Dataset }) {
  return (
    <Table bordered size="sm">
      <caption className="caption-top">Scoring in Detail{dataset.is_demo ? ` (${DEMO_NOTE})` : ''}</caption>
      <thead>
        <HeaderRow names={['Quality item', 'Grade', 'Allowed grades']} />
      </thead>
      <tbody>
        {QUALITY_ITEMS.map((item) => (
          <tr key={item.key}>
            <th scope="row">
              QI{item.number} {item.label}
            </th>
            <td>
              <GradeBadge grade={dataset[item.key]} />
            </td>
            <td>{item.allowedGrades.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The fullscreen "Specification Details" of a dataset: its BIVAC items one by one. Its own chunk,
 * fetched on the first opening (decision 075), with react-bootstrap's Modal and its transitions.
 */
export function SpecDetailsModal({
  dataset: d,
  show,
  onHide,
}: {
  dataset: Dataset;
  show: boolean;
  onHide: () => void;
}) {
  return (
    <Modal show={show} onHide={onHide} fullscreen aria-labelledby={`spec-details-${d.id}`}>
      <Modal.Header closeButton>
        <Modal.Title id={`spec-details-${d.id}`}>Specification Details</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <ScoringTable dataset={d} />
        {d.scoring_comment ? <p className="small">{d.scoring_comment}</p> : null}
      </Modal.Body>
      <CloseFooter onClose={onHide} />
    </Modal>
  );
}

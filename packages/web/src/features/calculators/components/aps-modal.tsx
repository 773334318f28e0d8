import type { MetaRecord } from '@bvdb/contract';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ApsCalculator } from './aps-calculator';
import { CloseFooter } from '../../../components/close-footer';
import { matrixEstimatesOf } from '../../../lib/matrix-estimates';

interface Props {
  show: boolean;
  onHide: () => void;
  /** The measurand's meta-analysis records: every matrix can be chosen, the headline one first. */
  metas: MetaRecord[];
  /** The measurand's name, said under the title (several measurands share a search results page). */
  measurand?: string;
}

/** The "Analytical Performance Specification Calculation" modal of the measurand and search pages. */
export function ApsModal({ show, onHide, metas, measurand }: Props) {
  const titleId = useId();
  const { matrices, headlineKey } = matrixEstimatesOf(metas);
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton>
        <Modal.Title id={titleId}>Analytical Performance Specification Calculation</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {measurand ? <p className="fw-semibold">{measurand}</p> : null}
        {/* Mounted per opening: every opening starts again from the headline matrix's medians. */}
        {show ? <ApsCalculator matrices={matrices} defaultKey={headlineKey} /> : null}
      </Modal.Body>
      <CloseFooter onClose={onHide} />
    </Modal>
  );
}

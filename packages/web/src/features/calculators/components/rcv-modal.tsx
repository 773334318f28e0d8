import type { WorkbenchEstimate } from '@bvdb/domain';
import Modal from 'react-bootstrap/Modal';
import { CloseFooter } from '../../../components/close-footer';
import { useRcvInputs } from '../use-rcv-inputs';
import { RcvApplication } from './rcv-application';
import { RcvResults } from './rcv-calculator';
import { RcvInputsCard } from './rcv-inputs-card';
import { RcvRange } from './rcv-range';
import { ZValueTable } from './z-value-table';

/**
 * The full-screen "RCV Calculation" modal: explanation, the z / p-value table and the RCV tools. One
 * set of inputs (the measurand's CVI, CVA, probability and direction) drives both tools, so they
 * can never show two RCVs for one screen (docs/decisions/006).
 */
export function RcvModal({
  show,
  onHide,
  cvi,
  cviEstimate = null,
}: {
  show: boolean;
  onHide: () => void;
  cvi: number | null;
  /** The CVI estimate with its limits: the RCV over them is shown beside the point RCV (issue 32.5). */
  cviEstimate?: WorkbenchEstimate | null;
}) {
  return (
    <Modal show={show} onHide={onHide} fullscreen aria-labelledby="rcv-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="rcv-modal-title">RCV Calculation</Modal.Title>
      </Modal.Header>
      <Modal.Body>{show ? <RcvTools cvi={cvi} cviEstimate={cviEstimate} /> : null}</Modal.Body>
      <CloseFooter onClose={onHide} />
    </Modal>
  );
}

/** The modal's content; mounted while the modal is open, so it starts again from the measurand's CVI. */
export function RcvTools({
  cvi,
  cviEstimate = null,
}: {
  cvi: number | null;
  cviEstimate?: WorkbenchEstimate | null;
}) {
  const inputs = useRcvInputs({ initialCvi: cvi });
  return (
    <>
      <p>
        The reference change value (RCV) is the smallest change between two results of one person that is
        unlikely to be explained by analytical and within-subject biological variation alone. Because such
        variation is closer to log-normal, the RCV up and the RCV down differ. The probability is for a change
        in one stated direction (one-sided z); choose “either direction” for a two-sided z.
      </p>
      <ZValueTable />
      <RcvInputsCard inputs={inputs} />
      <RcvResults inputs={inputs} />
      <RcvRange inputs={inputs} estimate={cviEstimate} />
      <hr />
      <RcvApplication inputs={inputs} />
    </>
  );
}

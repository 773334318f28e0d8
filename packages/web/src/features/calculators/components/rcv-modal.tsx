import { Z_VALUE_TABLE } from '@bvdb/domain';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { RcvApplication } from './rcv-application';
import { RcvCalculator } from './rcv-calculator';
import { CloseFooter } from '../../../components/close-footer';
import { HeaderRow } from '../../../components/header-row';

/** The full-screen "RCV Calculation" modal: explanation, the z / p-value table and the RCV tools. */
export function RcvModal({ show, onHide, cvi }: { show: boolean; onHide: () => void; cvi: number | null }) {
  return (
    <Modal show={show} onHide={onHide} fullscreen aria-labelledby="rcv-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="rcv-modal-title">RCV Calculation</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          The reference change value (RCV) is the smallest change between two results of one person that is
          unlikely to be explained by analytical and within-subject biological variation alone. Because such
          variation is closer to log-normal, the RCV up and the RCV down differ.
        </p>
        <Table bordered size="sm" style={{ maxWidth: 480 }}>
          <caption className="caption-top">Z-value / p-value</caption>
          <thead>
            <HeaderRow names={['Z-value', 'p-value (one-sided)', 'p-value (two-sided)']} />
          </thead>
          <tbody>
            {Z_VALUE_TABLE.map((r) => (
              <tr key={r.z}>
                <td>{r.z.toFixed(2)}</td>
                <td>{r.oneSided}</td>
                <td>{r.twoSided}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <RcvCalculator initialCvi={cvi} />
        <hr />
        <RcvApplication initialCvi={cvi} />
      </Modal.Body>
      <CloseFooter onClose={onHide} />
    </Modal>
  );
}

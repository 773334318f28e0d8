import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';
import { ErrorText, Loading } from '../../../components/state-views';
import { useAgreement } from '../api/appraisal-board';

const percent = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(0)}%`);
const kappa = (v: number | null) => (v === null ? '—' : v.toFixed(2));

/** Per item, how often the first two appraisals agreed, and Cohen's kappa, over a chosen period. */
export function AgreementFigures() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const figures = useAgreement(from, to);
  return (
    <>
      <Form className="d-flex flex-wrap gap-3 mb-3" aria-label="Period" onSubmit={(e) => e.preventDefault()}>
        <Form.Group controlId="agreement-from">
          <Form.Label>From</Form.Label>
          <Form.Control type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </Form.Group>
        <Form.Group controlId="agreement-to">
          <Form.Label>To</Form.Label>
          <Form.Control type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </Form.Group>
      </Form>
      {figures.isPending ? (
        <Loading />
      ) : figures.error ? (
        <ErrorText>Error: {figures.error.message}</ErrorText>
      ) : (
        <>
          <p>
            {figures.data.rounds} dataset{figures.data.rounds === 1 ? '' : 's'} with both first appraisals in
            this period.
          </p>
          <Table striped bordered responsive size="sm" style={{ maxWidth: 760 }}>
            <caption className="caption-top">Agreement of the first two appraisals per BIVAC item</caption>
            <thead>
              <HeaderRow names={['Item', 'Pairs', 'Agreed', "Cohen's kappa"]} />
            </thead>
            <tbody>
              {figures.data.items.map((i) => (
                <tr key={i.key}>
                  <th scope="row">
                    QI{i.number} {i.label}
                  </th>
                  <td>{i.pairs}</td>
                  <td>{percent(i.agreed_share)}</td>
                  <td>{kappa(i.kappa)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <p className="small text-body-secondary">
            — : no pairs, or kappa undefined (both assessors gave one and the same grade throughout).
          </p>
        </>
      )}
    </>
  );
}

import type { Dataset } from '@bvdb/contract';
import { EVIDENCE_CLASS_LABELS, formatCi, formatFixed } from '@bvdb/domain';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { GradeBadge, IncludedBadge } from '../../../components/dataset-badges';
import { DEMO_NOTE } from './demo-note';
import { ScoringExplained } from './scoring-explained';
import { paths } from '../../../lib/paths';

// Fetched on the first opening, not with the page (decision 075).
const SpecDetailsModal = lazy(() =>
  import('./spec-details-modal').then((m) => ({ default: m.SpecDetailsModal })),
);

const estimate = (v: number | null, lo: number | null, hi: number | null) =>
  v === null ? 'N/A' : `${formatFixed(v, 2)} (${formatCi(lo)} – ${formatCi(hi)})`;

/** The dataset summary table with its "Scoring explained" popover and the Specification Details modal. */
export function DatasetSummary({ dataset: d }: { dataset: Dataset }) {
  const [show, setShow] = useState(false);
  // Mounted from its first opening on, so it closes with its animation like any modal.
  const [opened, setOpened] = useState(false);
  if (show && !opened) setOpened(true);
  const cviLo = d.reported_cvi_lower_confidence_interval ?? d.calculated_within_bv_lower_ci;
  const cviHi = d.reported_cvi_upper_confidence_interval ?? d.calculated_within_bv_upper_ci;
  const cvgLo = d.reported_cvg_lower_confidence_interval ?? d.calculated_between_bv_lower_ci;
  const cvgHi = d.reported_cvg_upper_confidence_interval ?? d.calculated_between_bv_upper_ci;
  return (
    <>
      <Table bordered responsive className="align-middle table-stack">
        <caption className="caption-top">Dataset summary</caption>
        <thead>
          <tr>
            <th scope="col">Reference</th>
            <th scope="col">Inclusion</th>
            <th scope="col">
              Total Score{' '}
              <ScoringExplained id={`scoring-${d.id}`}>
                Each dataset is appraised with the 14 items of the BIVAC checklist, graded A (best) to D. The
                total score is the worst grade of any item; a D excludes the estimates from meta-analysis.
                {d.is_demo ? <em> This is a {DEMO_NOTE}.</em> : null}
              </ScoringExplained>
            </th>
            <th scope="col">Estimates of Within Subject (± calculated CI)</th>
            <th scope="col">Estimates of Between Subject (± calculated CI)</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <Link to={paths.reference(d.reference_id)}>{d.reference_title}</Link>
            </td>
            <td data-label="Inclusion">
              <IncludedBadge value={d.include_in_meta_analysis} />
            </td>
            <td data-label="Total Score">
              {/* One grid cell on a phone, where the row is a card of label/value pairs. */}
              <span>
                <GradeBadge grade={d.total_score} />{' '}
                <Button size="sm" variant="link" onClick={() => setShow(true)}>
                  Details
                </Button>
                {opened ? (
                  <Suspense
                    fallback={
                      <span className="small text-muted" role="status">
                        Loading…
                      </span>
                    }
                  >
                    <SpecDetailsModal dataset={d} show={show} onHide={() => setShow(false)} />
                  </Suspense>
                ) : null}
              </span>
            </td>
            <td data-testid="summary-cvi" data-label="Within Subject (CVI)">
              {estimate(d.estimates_of_cvi, cviLo, cviHi)}
            </td>
            <td data-testid="summary-cvg" data-label="Between Subject (CVG)">
              {estimate(d.estimates_of_cvg, cvgLo, cvgHi)}
            </td>
          </tr>
        </tbody>
      </Table>
      {/* What kind of evidence the estimates are (issue 47.4, decision 099). */}
      <p className="small text-body-secondary" data-testid="dataset-evidence">
        Evidence: {EVIDENCE_CLASS_LABELS[d.evidence_class]}
      </p>
    </>
  );
}

import type { Dataset } from '@bvdb/contract';
import { formatCi, formatFixed } from '@bvdb/domain';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useSession } from '../../lib/session';
import { DeleteDatasetButton } from '../../features/dataset-admin/components/delete-dataset-button';
import { HistoryCard } from '../../features/audit/components/history-card';
import { datasetQuery } from '../../features/specifications/api/get-datasets';
import { yesNo } from '../../components/dataset-badges';
import { DatasetSummary } from '../../features/specifications/components/dataset-summary';

function Rows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="row mb-0">
      {rows.map(([k, v]) => (
        <div key={k} className="d-contents">
          <dt className="col-12 col-sm-6">{k}</dt>
          <dd className="col-12 col-sm-6 text-break">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const orText = (v: string | null | undefined, fallback: string) => (v && v.trim() ? v : fallback);

function details(d: Dataset): [string, ReactNode][] {
  const cviLo = d.reported_cvi_lower_confidence_interval ?? d.calculated_within_bv_lower_ci;
  const cviHi = d.reported_cvi_upper_confidence_interval ?? d.calculated_within_bv_upper_ci;
  return [
    ['Unique Identifier', d.unique_identifier],
    ['Matrix', d.matrix?.matrix_expansion ?? 'No Matrix'],
    [
      'Measurand',
      <Link key="m" to={`/analytes/${d.analyte_id}`}>
        {d.analyte_display_name}
      </Link>,
    ],
    ['Unit', `${d.unit ?? 'N/A'} / ${d.second_unit ?? 'N/A'}`],
    ['Standard Unit for Reporting of Analyte', d.standard_unit_for_reporting_of_analyte ?? 'N/A'],
    ['Overall Analytical Principle Method', d.overall_principle_method ?? 'N/A'],
    ['Number of Subjects', d.number_of_subjects ?? 'N/A'],
    ['Number of Subjects included in BV estimation', d.number_of_subjects_included_in_bv_estimation ?? 'N/A'],
    ['Ethnicity', d.ethnicity?.ethnicity_expansion ?? 'No Ethnicity Defined'],
    ['State of Well Being', d.state_of_well_being ?? 'No State of Wellbeing Defined'],
    [
      'Diseases',
      d.disease_states.length
        ? d.disease_states.map((x) => x.item_type).join(', ')
        : 'No Disease States Identified',
    ],
    ['Estimates of CVi', d.estimates_of_cvi === null ? 'N/A' : `${formatFixed(d.estimates_of_cvi, 2)}%`],
    ['Calculated Confidence Intervals of CVi', `${formatCi(cviLo)} – ${formatCi(cviHi)}`],
  ];
}

function coding(d: Dataset): [string, ReactNode][] {
  return [
    ['Healthy Population', yesNo(d.healthy)],
    ['Adult Population', yesNo(d.adult)],
    ['Weekly Samplings', yesNo(d.weekly_samplings)],
    ['Reviewed', yesNo(d.review)],
    ['Published', yesNo(d.published)],
    ['Include in Meta-Analysis', yesNo(d.include_in_meta_analysis)],
    ['Gender for Meta-Analysis', orText(d.sex_for_meta_analysis, 'N/A')],
    ['Snomed CT', orText(d.snomed_ct, 'N/A')],
    ['NPU', orText(d.npu, 'N/A')],
    ['LOINC', orText(d.loinc, 'N/A')],
    ['Comment', orText(d.comment, 'No Comment')],
  ];
}

export function DatasetPage() {
  const id = Number(useParams().id);
  const session = useSession();
  const { data, error, isPending } = useQuery(datasetQuery(id));
  if (isPending) return <Loading />;
  if (error) return <ErrorText>Error: {error.message}</ErrorText>;
  const d = data.dataset;
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <h1 className="h3 mb-0">
          {d.analyte_display_name} · {d.unique_identifier}
        </h1>
        {session.user ? (
          <div className="d-flex gap-2">
            <Link to={`/bv_specifications/${d.id}/edit`} className="btn btn-outline-secondary btn-sm">
              Edit Dataset
            </Link>
            <a href={`/bv_specifications/${d.id}/copy`} className="btn btn-outline-secondary btn-sm">
              Copy
            </a>
            <DeleteDatasetButton
              id={d.id}
              version={d.version}
              analyteId={d.analyte_id}
              label={d.unique_identifier}
            />
          </div>
        ) : null}
      </div>
      <DatasetSummary dataset={d} />
      <Row xs={1} lg={2} className="g-3">
        <Col>
          <Card>
            <Card.Header as="h2" className="h6">
              Dataset Details
            </Card.Header>
            <Card.Body>
              <Rows rows={details(d)} />
            </Card.Body>
          </Card>
        </Col>
        <Col>
          <Card>
            <Card.Header as="h2" className="h6">
              Dataset Coding
            </Card.Header>
            <Card.Body>
              <Rows rows={coding(d)} />
            </Card.Body>
          </Card>
        </Col>
      </Row>
      {session.user ? <HistoryCard entity="bv_specification" noun="dataset" id={d.id} /> : null}
    </>
  );
}

import type { Dataset } from '@bvdb/contract';
import { formatCi, formatFixed, unitSymbol } from '@bvdb/domain';
import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { yesNo } from '../../../components/dataset-badges';
import { paths } from '../../../lib/paths';

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
      <Link key="m" to={paths.analyte(d.analyte_id)}>
        {d.analyte_display_name}
      </Link>,
    ],
    // "unit / second unit" when both exist, the one unit alone, N/A without any (issue 27.10).
    [
      'Unit',
      [d.unit, d.second_unit]
        .filter((u): u is string => Boolean(u))
        .map((u) => unitSymbol(u))
        .join(' / ') || 'N/A',
    ],
    [
      'Standard Unit for Reporting of Analyte',
      d.standard_unit_for_reporting_of_analyte ? unitSymbol(d.standard_unit_for_reporting_of_analyte) : 'N/A',
    ],
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

/** The dataset's details and coding, side by side on wide screens. */
export function DatasetDetails({ dataset: d }: { dataset: Dataset }) {
  return (
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
  );
}

import {
  BVDB_VERSION,
  FHIR_JSON,
  FHIR_VERSION,
  UCUM_SYSTEM,
  V3_INTERPRETATION_SYSTEM,
  type ChangeVerdictAnswer,
  type FhirObservationInput,
} from '@bvdb/contract';

const percent = (value: number) => ({ value, unit: '%', system: UCUM_SYSTEM, code: '%' });

/** A reference to an input: by its id when it has one, else by what it says. */
const referenceTo = (o: FhirObservationInput) =>
  o.id
    ? { reference: `Observation/${o.id}` }
    : {
        display: `${o.valueQuantity.value}${o.valueQuantity.unit ? ` ${o.valueQuantity.unit}` : ''}${o.effectiveDateTime ? ` at ${o.effectiveDateTime}` : ''}`,
      };

/**
 * The comparison Observation (issue 45.6): `derivedFrom` both inputs, the % change as its value,
 * the v3 interpretation only when the change is significant, the RCV up and down as components,
 * and the estimate it was judged with (its permalink and version) as `method` and an extension.
 */
export function presentFhirComparison(
  verdict: ChangeVerdictAnswer,
  first: FhirObservationInput,
  second: FhirObservationInput,
  base: string,
) {
  const { measurand, matrix, estimate, inputs, rcv } = verdict;
  const code = verdict.interpretation.v3;
  const estimateText = `CVI ${estimate.cvi.median} % (${measurand.display_name}, ${matrix.name}${estimate.id !== null ? `, estimate ${estimate.id} version ${estimate.version}` : ''})`;
  return {
    resourceType: 'Observation' as const,
    status: 'final',
    code: {
      text: `Change of ${measurand.display_name} (${matrix.name}) between two results, judged by the reference change value`,
    },
    ...(second.subject ? { subject: second.subject } : first.subject ? { subject: first.subject } : {}),
    ...(second.effectiveDateTime ? { effectiveDateTime: second.effectiveDateTime } : {}),
    issued: new Date().toISOString(),
    valueQuantity: percent(verdict.change_pct),
    ...(code
      ? {
          interpretation: [
            { coding: [{ system: V3_INTERPRETATION_SYSTEM, code: code.code, display: code.display }] },
          ],
        }
      : {}),
    note: [
      { text: verdict.interpretation.text },
      // A population (issue 47.3): the CVI was recomputed for it, never the global estimate.
      ...(verdict.population ? [{ text: verdict.population.sentence }] : []),
      ...(inputs.converted
        ? [
            {
              text: `The second result, ${inputs.x2} ${inputs.converted.from}, was converted by UCUM to ${inputs.converted.x2} ${inputs.converted.to} (× ${inputs.converted.factor}) to be compared with the first`,
            },
          ]
        : []),
    ],
    method: {
      text: `Log-normal reference change value at probability ${inputs.probability} (z ${inputs.z.toFixed(4)}), CVA ${inputs.cva} %${inputs.cva_source === 'desirable' ? ' (desirable: 0.5·CVI, no analyticalCV given)' : ''}, ${estimateText}. ${verdict.source}`,
    },
    extension: [
      { url: `${base}/fhir/StructureDefinition/bv-estimate`, valueUri: `${base}${estimate.permalink}` },
      ...(estimate.version !== null
        ? [{ url: `${base}/fhir/StructureDefinition/bv-estimate-version`, valueInteger: estimate.version }]
        : []),
    ],
    derivedFrom: [referenceTo(first), referenceTo(second)],
    component: [
      { code: { text: 'Reference change value, up' }, valueQuantity: percent(rcv.up) },
      { code: { text: 'Reference change value, down' }, valueQuantity: percent(rcv.down) },
    ],
  };
}

/** An error as FHIR says it: an OperationOutcome with the message as its diagnostics. */
export function presentOperationOutcome(status: number, message: string) {
  const code =
    status === 404
      ? 'not-found'
      : status === 429
        ? 'throttled'
        : status >= 500
          ? 'exception'
          : status === 422
            ? 'processing'
            : 'invalid';
  return {
    resourceType: 'OperationOutcome' as const,
    issue: [
      { severity: status >= 500 ? ('fatal' as const) : ('error' as const), code, diagnostics: message },
    ],
  };
}

export function presentRcvOperationDefinition(base: string) {
  const param = (
    name: string,
    type: string,
    min: number,
    max: string,
    documentation: string,
    use = 'in',
  ) => ({
    name,
    use,
    min,
    max,
    type,
    documentation,
  });
  return {
    resourceType: 'OperationDefinition' as const,
    id: 'rcv',
    url: `${base}/fhir/OperationDefinition/rcv`,
    version: BVDB_VERSION,
    name: 'Rcv',
    title: 'Is this change real? The reference change value between two results',
    status: 'active',
    kind: 'operation',
    description:
      'Judges the change between two results of one person against the log-normal reference change value from the biological variation estimate of the test (found by its LOINC, NPU or SNOMED CT code). A population instead of the global estimate (decision 098): the URL parameters facet.sex, facet.age, facet.state, facet.disease, facet.ethnicity, facet.interval, facet.method, facet.matrix and facet.evidence (as on /api/v1/measurands/{id}/metas), e.g. $rcv?facet.sex=males; the answer says the population in a note, and an unknown value is an OperationOutcome naming the allowed ones.',
    code: 'rcv',
    resource: ['Observation'],
    system: false,
    type: true,
    instance: false,
    parameter: [
      param(
        'observation',
        'Observation',
        2,
        '2',
        'The two results: one code, one subject, one UCUM unit; ordered by effectiveDateTime',
      ),
      param(
        'analyticalCV',
        'decimal',
        0,
        '1',
        "The method's analytical CV in %; without it the desirable CVA (0.5·CVI), said in the answer",
      ),
      param(
        'probability',
        'decimal',
        0,
        '1',
        'The probability that a change called significant is real (default 0.95)',
      ),
      param(
        'direction',
        'code',
        0,
        '1',
        'either (default: two-sided z) or one (a change in one stated direction: one-sided z)',
      ),
      param(
        'matrix',
        'string',
        0,
        '1',
        "The matrix (e.g. Serum); without it the measurand's headline matrix",
      ),
      param('return', 'Observation', 1, '1', 'The comparison Observation', 'out'),
    ],
  };
}

export function presentCapabilityStatement(base: string) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active',
    date: new Date().toISOString().slice(0, 10),
    kind: 'instance',
    software: { name: 'bvdb', version: BVDB_VERSION },
    implementation: { description: 'bvdb: the biological variation database', url: `${base}/fhir` },
    fhirVersion: FHIR_VERSION,
    format: [FHIR_JSON],
    rest: [
      {
        mode: 'server',
        resource: [
          {
            type: 'Observation',
            operation: [{ name: 'rcv', definition: `${base}/fhir/OperationDefinition/rcv` }],
          },
        ],
      },
    ],
  };
}

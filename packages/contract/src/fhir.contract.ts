import { z } from 'zod';
import { FacetQuerySchema } from './facets.contract.js';
import { defineRoute } from './route.js';

/**
 * The change verdict in FHIR R4 terms (issue 45.6, decision 087): `POST /fhir/Observation/$rcv`
 * takes a `Parameters` with two `Observation`s and answers a comparison `Observation` — the pattern
 * HL7 gives since the `observation-delta` extension was deprecated. Only what the operation reads
 * is checked here; the rest of each resource is kept as sent. Errors are `OperationOutcome`s.
 */
export const FHIR_JSON = 'application/fhir+json';
export const FHIR_VERSION = '4.0.1';
export const LOINC_SYSTEM = 'http://loinc.org';
/** NPU, as the HL7 Europe laboratory report guide names it. */
export const NPU_SYSTEM = 'urn:oid:1.2.208.176.2.1';
export const SNOMED_SYSTEM = 'http://snomed.info/sct';
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const CodingSchema = z.looseObject({
  system: text(500).optional(),
  code: text(200).optional(),
  display: text(500).optional(),
});
const CodeableConceptSchema = z.looseObject({
  coding: z.array(CodingSchema).max(50, 'at most 50 codings').optional(),
  text: text(500).optional(),
});
const ReferenceSchema = z.looseObject({ reference: text(500).optional(), display: text(500).optional() });

export const FhirQuantitySchema = z.looseObject({
  value: z.number({ message: 'valueQuantity.value must be a number' }),
  unit: text(100).optional(),
  system: text(200).optional(),
  code: text(100).optional(),
});

/** An input result: its code (LOINC, NPU or SNOMED CT), its value in UCUM, when it was taken. */
export const FhirObservationInputSchema = z.looseObject({
  resourceType: z.literal('Observation', { message: 'each observation must be an Observation' }),
  id: text(64).optional(),
  code: CodeableConceptSchema,
  subject: ReferenceSchema.optional(),
  effectiveDateTime: text(40).optional(),
  valueQuantity: FhirQuantitySchema,
});
export type FhirObservationInput = z.infer<typeof FhirObservationInputSchema>;

const ParameterSchema = z.looseObject({
  name: text(100),
  resource: z.unknown().optional(),
  valueDecimal: z.number().optional(),
  valueString: text(200).optional(),
  valueCode: text(100).optional(),
});

export const FhirRcvParametersSchema = z.looseObject({
  resourceType: z.literal('Parameters', { message: 'the body must be a FHIR Parameters resource' }),
  parameter: z.array(ParameterSchema).min(1, 'parameter must not be empty').max(20, 'at most 20 parameters'),
});
export type FhirRcvParameters = z.infer<typeof FhirRcvParametersSchema>;

/** A FHIR resource as answered (checked against the R4 JSON schema in the tests). */
const ResourceSchema = z.looseObject({ resourceType: z.string() });

export const OperationOutcomeSchema = z.object({
  resourceType: z.literal('OperationOutcome'),
  issue: z.array(
    z.object({
      severity: z.enum(['fatal', 'error', 'warning', 'information']),
      code: z.string(),
      diagnostics: z.string(),
    }),
  ),
});

export const fhirRcv = defineRoute({
  method: 'POST',
  path: '/fhir/Observation/$rcv',
  summary:
    'FHIR R4 operation: is the change between two Observations real? Answers a comparison Observation (derivedFrom both, % change, v3 interpretation U/D, RCV up and down as components); every error is an OperationOutcome (400 invalid, 404 unknown code, 422 cannot be judged)',
  tags: ['fhir'],
  access: 'public',
  // A population (issue 47.3): the CVI recomputed for the facets, said in a note.
  query: FacetQuerySchema,
  body: FhirRcvParametersSchema,
  // Errors leave the server's error mapping as its JSON and become OperationOutcomes on their way
  // out (fhir.routes.ts), so only the answer is declared here.
  responses: { 200: ResourceSchema },
});

export const fhirMetadata = defineRoute({
  method: 'GET',
  path: '/fhir/metadata',
  summary: "FHIR R4 CapabilityStatement of bvdb's FHIR endpoint (the $rcv operation on Observation)",
  tags: ['fhir'],
  access: 'public',
  responses: { 200: ResourceSchema },
});

export const fhirRcvDefinition = defineRoute({
  method: 'GET',
  path: '/fhir/OperationDefinition/rcv',
  summary: 'FHIR R4 OperationDefinition of Observation/$rcv',
  tags: ['fhir'],
  access: 'public',
  responses: { 200: ResourceSchema },
});

// The crosswalk file's shape and LOINC's notice, in a module of their own: the measurand page's
// code helpers (measurand-codes.ts) are in its first load, these 500 bytes are not (decision 088).

/**
 * The notice LOINC's licence asks for wherever LOINC codes are shipped (decision 093): the crosswalk
 * file, the releases and the API answers that carry codes. The text of LOINC's notice requirement
 * (https://loinc.org/license), as HL7's terminology authority checks it in FHIR guides.
 */
export const LOINC_NOTICE =
  'This material contains content from LOINC (http://loinc.org). LOINC is copyright © Regenstrief ' +
  'Institute, Inc. and the Logical Observation Identifiers Names and Codes (LOINC) Committee and is ' +
  'available at no cost under the license at http://loinc.org/license. LOINC® is a registered United ' +
  'States trademark of Regenstrief Institute, Inc.';

/** The crosswalk file's columns, in order (issue 45.1): what it exports and what it imports. */
export const CROSSWALK_COLUMNS = [
  'system',
  'code',
  'display',
  'measurand',
  'matrix',
  'ucum_unit',
  'source',
] as const;

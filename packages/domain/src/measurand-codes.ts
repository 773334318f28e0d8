/**
 * The code systems laboratory systems name tests by (issue 45.1, decision 091), as FHIR writes
 * them: LOINC, NPU (the URI of the HL7 Europe and HL7 laboratory report guides) and SNOMED CT.
 */
export const CODE_SYSTEMS = {
  loinc: 'http://loinc.org',
  npu: 'http://npu-terminology.org',
  snomed: 'http://snomed.info/sct',
} as const;

export type CodeSystem = (typeof CODE_SYSTEMS)[keyof typeof CODE_SYSTEMS];
export const CODE_SYSTEM_URIS: readonly CodeSystem[] = Object.values(CODE_SYSTEMS);

const SHORT_NAMES: Record<string, CodeSystem> = {
  loinc: CODE_SYSTEMS.loinc,
  npu: CODE_SYSTEMS.npu,
  snomed: CODE_SYSTEMS.snomed,
  'snomed ct': CODE_SYSTEMS.snomed,
  snomedct: CODE_SYSTEMS.snomed,
  sct: CODE_SYSTEMS.snomed,
};

/** A system as written by a caller — its URI, or `LOINC`, `NPU`, `SNOMED CT` — or undefined. */
export function codeSystemOf(written: string): CodeSystem | undefined {
  const s = written.trim();
  const uri = CODE_SYSTEM_URIS.find((u) => u === s.replace(/\/$/, ''));
  return uri ?? SHORT_NAMES[s.toLowerCase()];
}

/** The short name shown beside a code. */
export function codeSystemName(system: CodeSystem): string {
  return system === CODE_SYSTEMS.loinc ? 'LOINC' : system === CODE_SYSTEMS.npu ? 'NPU' : 'SNOMED CT';
}

/**
 * LOINC's check digit (the part after the hyphen), by LOINC's mod 10 algorithm (the Luhn sum:
 * from the rightmost digit of the number, every other digit doubled and its digits added).
 */
export function loincCheckDigit(number: string): number {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    const digit = Number(number[number.length - 1 - i]);
    const d = i % 2 === 0 ? digit * 2 : digit;
    sum += d > 9 ? d - 9 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** What is wrong with a code of this system (its form, LOINC's check digit); undefined when nothing. */
export function codeProblem(system: CodeSystem, code: string): string | undefined {
  if (system === CODE_SYSTEMS.loinc) {
    const m = /^(\d{1,7})-(\d)$/.exec(code);
    if (!m) return `"${code}" is not a LOINC code (digits, a hyphen and a check digit, e.g. 2345-7)`;
    const expected = loincCheckDigit(m[1]!);
    if (expected !== Number(m[2]))
      return `"${code}" is not a LOINC code: its check digit would be ${expected}`;
    return undefined;
  }
  if (system === CODE_SYSTEMS.npu) {
    return /^[A-Z]{3}\d{5}$/.test(code)
      ? undefined
      : `"${code}" is not an NPU code (three capital letters and five digits, e.g. NPU01807)`;
  }
  return /^\d{6,18}$/.test(code) ? undefined : `"${code}" is not a SNOMED CT concept id (6 to 18 digits)`;
}

/**
 * A code as a caller writes it: `system|code` (a FHIR token; the system as a URI or its short name)
 * or the code alone (its system then unknown). Spaces around either part are ignored.
 */
export function parseCodeToken(token: string): {
  system: CodeSystem | undefined;
  code: string;
  systemWritten?: string;
} {
  const bar = token.indexOf('|');
  if (bar < 0) return { system: undefined, code: token.trim() };
  const written = token.slice(0, bar).trim();
  return { system: codeSystemOf(written), code: token.slice(bar + 1).trim(), systemWritten: written };
}

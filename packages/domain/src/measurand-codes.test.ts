import { describe, expect, it } from 'vitest';
import {
  CODE_SYSTEMS,
  codeProblem,
  codeSystemOf,
  loincCheckDigit,
  parseCodeToken,
} from './measurand-codes.js';

describe('LOINC check digits (mod 10)', () => {
  // Codes as LOINC publishes them: glucose, ALT, creatinine, sodium, HbA1c (NGSP), HbA1c (IFCC).
  it.each(['2345-7', '1742-6', '2160-0', '2951-2', '4548-4', '59261-8'])('%s is a LOINC code', (code) => {
    expect(codeProblem(CODE_SYSTEMS.loinc, code)).toBeUndefined();
  });

  it('says which check digit a mistyped code would need', () => {
    expect(codeProblem(CODE_SYSTEMS.loinc, '2345-8')).toBe(
      '"2345-8" is not a LOINC code: its check digit would be 7',
    );
    expect(loincCheckDigit('2160')).toBe(0);
  });

  it('refuses what is not a LOINC code at all', () => {
    expect(codeProblem(CODE_SYSTEMS.loinc, 'NPU01807')).toMatch(/is not a LOINC code \(digits/);
    expect(codeProblem(CODE_SYSTEMS.loinc, '2345')).toMatch(/is not a LOINC code/);
  });
});

describe('NPU and SNOMED CT forms', () => {
  it('takes NPU codes of three letters and five digits, SNOMED CT ids of digits', () => {
    expect(codeProblem(CODE_SYSTEMS.npu, 'NPU01807')).toBeUndefined();
    expect(codeProblem(CODE_SYSTEMS.npu, 'npu01807')).toMatch(/not an NPU code/);
    expect(codeProblem(CODE_SYSTEMS.snomed, '104866001')).toBeUndefined();
    expect(codeProblem(CODE_SYSTEMS.snomed, '12-3')).toMatch(/not a SNOMED CT concept id/);
  });
});

describe('codes as callers write them', () => {
  it('reads system|code with a URI or a short name, and a code alone', () => {
    expect(parseCodeToken('http://loinc.org|2345-7')).toEqual({
      system: CODE_SYSTEMS.loinc,
      code: '2345-7',
      systemWritten: 'http://loinc.org',
    });
    expect(parseCodeToken(' NPU | NPU01807 ').system).toBe(CODE_SYSTEMS.npu);
    expect(parseCodeToken('2345-7')).toEqual({ system: undefined, code: '2345-7' });
    expect(parseCodeToken('http://example.org|1').system).toBeUndefined();
  });

  it('knows the systems by URI and by name', () => {
    expect(codeSystemOf('http://snomed.info/sct/')).toBe(CODE_SYSTEMS.snomed);
    expect(codeSystemOf('SNOMED CT')).toBe(CODE_SYSTEMS.snomed);
    expect(codeSystemOf('loinc')).toBe(CODE_SYSTEMS.loinc);
    expect(codeSystemOf('ICD-10')).toBeUndefined();
  });
});

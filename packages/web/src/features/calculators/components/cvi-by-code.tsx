import { codeSystemName, codeSystemOf, formatFixed } from '@bvdb/domain';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useLookupCode } from '../api/measurand-by-code';

/**
 * A laboratory's test code (LOINC, NPU, SNOMED CT; `system|code` or the code alone) → its
 * measurand's headline CVI into the RCV tool (issue 45.7), said with the measurand and the matrix
 * it comes from; nothing is filled in when the code names no measurand or it has no CVI.
 */
export function CviByCode({ onCvi }: { onCvi: (cvi: number) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const found = useLookupCode();
  const measurand = found.data?.data[0];
  const match = found.data?.meta.code;
  const cvi = measurand?.headline?.cvi?.median ?? null;
  const system = match ? codeSystemOf(match.system) : undefined;
  return (
    <Form
      className="row g-2 align-items-end mb-3"
      onSubmit={(e) => {
        e.preventDefault();
        const code = text.trim();
        if (!code) return;
        // Filled once per answer: a CVI typed afterwards is the user's.
        found.mutate(code, {
          onSuccess: (answer) => {
            const median = answer.data[0]?.headline?.cvi?.median;
            if (median != null) onCvi(median);
          },
        });
      }}
    >
      <Form.Group className="col-8 col-md-4" controlId={`${id}-code`}>
        <Form.Label>Test code (LOINC, NPU; optional)</Form.Label>
        <Form.Control
          value={text}
          maxLength={240}
          placeholder="e.g. 2345-7 or NPU02192"
          onChange={(e) => setText(e.target.value)}
        />
      </Form.Group>
      <div className="col-4 col-md-2">
        <Button type="submit" variant="outline-primary">
          Find CVI
        </Button>
      </div>
      <p className="col-12 small mb-0" role="status" data-testid="cvi-by-code">
        {found.isIdle
          ? null
          : found.isPending
            ? 'Looking the code up…'
            : found.error
              ? found.error.message
              : measurand && match
                ? cvi !== null
                  ? `${system ? codeSystemName(system) : match.system} ${match.code} is ${measurand.display_name}: CVI ${formatFixed(cvi, 2)}% from its meta-analysis in ${measurand.headline!.matrix}, filled in below.`
                  : `${match.code} is ${measurand.display_name}, which has no CVI estimate yet: enter a CVI.`
                : null}
      </p>
    </Form>
  );
}

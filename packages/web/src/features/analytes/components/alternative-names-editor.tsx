import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError, errorText } from '../../../lib/api-client';
import { useMeasurandNames, useUpdateMeasurandNames } from '../api/measurand-names';

/**
 * A curator's field for the names a measurand goes by as laboratories write them (issue 42.1,
 * decision 083): one a line; the test menu matches lines by them. A name another measurand has is
 * refused with the server's message, and so is a change someone saved after this was read.
 */
export function AlternativeNamesEditor({ measurandId }: { measurandId: number }) {
  const names = useMeasurandNames(measurandId);
  // Kept here: the form starts afresh from each version read, and says which one it saved.
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  if (names.isPending) return <Loading />;
  if (names.error)
    return <ErrorText>Error loading the alternative names: {errorText(names.error)}</ErrorText>;
  return (
    <NamesForm
      key={names.data.version}
      measurandId={measurandId}
      version={names.data.version}
      initial={names.data.names.map((n) => n.name)}
      sources={names.data.names.filter((n) => n.source).length}
      saved={savedVersion === names.data.version}
      onSaved={setSavedVersion}
    />
  );
}

function NamesForm(props: {
  measurandId: number;
  version: number;
  initial: string[];
  sources: number;
  saved: boolean;
  onSaved: (version: number) => void;
}) {
  const [text, setText] = useState(props.initial.join('\n'));
  const update = useUpdateMeasurandNames(props.measurandId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const list = text
      .split('\n')
      .map((n) => n.trim())
      .filter(Boolean);
    update.mutate({ names: list, version: props.version }, { onSuccess: (a) => props.onSaved(a.version) });
  };
  return (
    <Form onSubmit={submit} className="mb-4" aria-labelledby="alternative-names-heading">
      <h2 className="h5" id="alternative-names-heading">
        Names laboratories use
      </h2>
      <Form.Group controlId="measurand-alternative-names" className="mb-2">
        <Form.Label>Alternative names (one a line)</Form.Label>
        <Form.Control
          as="textarea"
          rows={Math.min(10, Math.max(4, props.initial.length + 1))}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="measurand-alternative-names-help"
        />
        <Form.Text id="measurand-alternative-names-help">
          A test menu line written as one of these names is matched to this measurand. Case, accents, hyphens,
          word order, British or American spelling, plurals, &quot;total&quot;, &quot;serum&quot; and a unit
          do not matter; a name may belong to one measurand only.
          {props.sources > 0 ? ` ${props.sources} of them are seeded from a cited source.` : ''}
        </Form.Text>
      </Form.Group>
      {update.error ? (
        <Alert variant="danger" role="alert" className="py-2">
          {update.error instanceof ApiError ? update.error.message : errorText(update.error)}
        </Alert>
      ) : null}
      {props.saved && !update.error ? (
        <p role="status" className="small text-success mb-2">
          Saved.
        </p>
      ) : null}
      <Button type="submit" size="sm" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save names'}
      </Button>
    </Form>
  );
}

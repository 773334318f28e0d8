import { formatDateTimeDmy } from '@bvdb/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../../components/state-views';
import { useSession } from '../../../lib/session';
import { deleteRawDataCall, rawDataFileUrl, useRawData, uploadRawDataCall } from '../api/raw-data';
import { queryKeys, queryRoots } from '../../../lib/query-keys';

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The study's raw results kept with a dataset (issue 31.3): staff only, because the subject
 * identifiers are the study's pseudonyms. Download, replace or remove.
 */
export function RawDataCard({ datasetId }: { datasetId: number }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const raw = useRawData(datasetId);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: queryKeys.rawData(datasetId) });
      await queryClient.invalidateQueries({ queryKey: queryRoots.audit });
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const file = raw.data?.raw_data;
  return (
    <Card className="mt-3" data-testid="raw-data-card">
      <Card.Header as="h2" className="h6 mb-0">
        Raw data <span className="badge text-bg-secondary ms-1">staff only</span>
      </Card.Header>
      <Card.Body>
        <p className="small text-muted">
          The study&apos;s results this dataset was estimated from. Subject identifiers are the study&apos;s
          pseudonyms: the file is never shown to the public or put in the public export, and it is deleted
          with the dataset.
        </p>
        {raw.isPending ? (
          <Loading />
        ) : raw.error ? (
          <ErrorText>Error: {raw.error.message}</ErrorText>
        ) : file ? (
          <p className="mb-2 text-break">
            <a href={rawDataFileUrl(datasetId)} download={file.file_name}>
              {file.file_name}
            </a>{' '}
            ({size(file.bytes)}) · uploaded {formatDateTimeDmy(file.uploaded_at)}
            {file.uploaded_by ? ` by ${file.uploaded_by}` : ''}
          </p>
        ) : (
          <p className="mb-2">No raw-data file is kept with this dataset.</p>
        )}
        {problem ? <Alert variant="danger">{problem}</Alert> : null}
        <div className="d-flex flex-wrap align-items-end gap-2">
          <Form.Group controlId={inputId}>
            <Form.Label className="small mb-1">
              {file ? 'Replace with' : 'Attach'} a CSV, TSV or .xlsx file
            </Form.Label>
            <Form.Control
              type="file"
              size="sm"
              accept=".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values"
              disabled={busy}
              onChange={(e) => {
                const chosen = (e.target as HTMLInputElement).files?.[0];
                if (chosen) void act(() => uploadRawDataCall(datasetId, chosen, session.csrf_token));
                (e.target as HTMLInputElement).value = '';
              }}
            />
          </Form.Group>
          {file ? (
            <Button
              variant="outline-danger"
              size="sm"
              disabled={busy}
              onClick={() => {
                if (window.confirm(`Remove ${file.file_name} from this dataset?`))
                  void act(() => deleteRawDataCall(datasetId, session.csrf_token));
              }}
            >
              Remove raw data
            </Button>
          ) : null}
        </div>
      </Card.Body>
    </Card>
  );
}

import { ErrorText, Loading } from '../../../components/state-views';
import { useDatasetForm } from '../use-dataset-form';
import { CreateDataset } from './create-dataset';

/** The create form filled in from the dataset of the page's `:id`. */
export function CopyDataset() {
  const { id, form } = useDatasetForm();
  if (form.isPending) return <Loading />;
  if (form.error) return <ErrorText>Error: {form.error.message}</ErrorText>;
  return (
    <>
      <h1 className="h3">Copy Dataset</h1>
      <p className="text-muted">
        A copy of dataset {id} ({form.data.bv_specification.unique_identifier}). Submitting creates a new
        dataset; the original is not changed. Give the copy its own Unique Identifier: for the same reference
        and measurand it cannot be saved with the one of the original.
      </p>
      <CreateDataset from={form.data} />
    </>
  );
}

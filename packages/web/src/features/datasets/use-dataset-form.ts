import { useParams } from 'react-router';
import { useDatasetFormOf } from './api/get-dataset-form';

/** The dataset of the page's `:id`, as the form loads it. */
export function useDatasetForm() {
  const id = Number(useParams().id);
  return { id, form: useDatasetFormOf(id) };
}

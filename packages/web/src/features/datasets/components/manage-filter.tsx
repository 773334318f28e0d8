import type { Dataset } from '@bvdb/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ErrorText, Loading } from '../../../components/state-views';
import { ManageDatasetsTable } from './manage-datasets-table';

/** The filter form of a manage page: its fields, the submit button, and the datasets of the id managed. */
export function ManageFilterForm({
  className,
  chosen,
  children,
  datasets,
}: {
  className: string;
  chosen: string;
  children: ReactNode;
  datasets: (id: number) => ReactNode;
}) {
  const [managed, setManaged] = useState<number | null>(null);
  return (
    <>
      <Form
        className={className}
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) setManaged(Number(chosen));
        }}
      >
        {children}
        <Button type="submit" disabled={!chosen}>
          Manage Reference Dataset
        </Button>
      </Form>
      {managed !== null ? datasets(managed) : null}
    </>
  );
}

/** The datasets answered by a manage query, with its loading and error states. */
export function ManagedDatasets<T extends { dataset: Dataset[] }>({
  query,
  exportUrl,
  caption,
  errorText,
}: {
  query: UseQueryResult<T>;
  exportUrl: (data: T) => string;
  caption: string;
  errorText: string;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) {
    console.error(query.error);
    return <ErrorText>{errorText}</ErrorText>;
  }
  return (
    <ManageDatasetsTable datasets={query.data.dataset} exportUrl={exportUrl(query.data)} caption={caption} />
  );
}

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table';

interface Row {
  id: number;
  name: string;
}
const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  name: `Item ${String(i + 1).padStart(2, '0')}`,
}));
const columns: DataTableColumn<Row>[] = [
  { id: 'id', header: 'ID', accessorKey: 'id' },
  { id: 'name', header: 'Name', accessorKey: 'name' },
];
const bodyIds = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

describe('DataTable with the page kept by the caller', () => {
  it('shows the page it is given and asks the caller to change it', async () => {
    const onPageChange = vi.fn();
    render(
      <DataTable
        caption="Items"
        data={rows}
        columns={columns}
        pageSize={10}
        page={2}
        onPageChange={onPageChange}
      />,
    );
    expect(bodyIds()).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
    expect(screen.getByText('Current Page:').textContent).toContain('2');
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenCalledWith(3);
  });

  it('past the last page has an empty body and says so below the table', () => {
    render(
      <DataTable
        caption="Items"
        data={rows}
        columns={columns}
        pageSize={10}
        page={4}
        onPageChange={() => {}}
      />,
    );
    const table = screen.getByRole('table');
    expect(table.querySelectorAll('tbody tr')).toHaveLength(0);
    expect(screen.getByText('No results available')).toBeTruthy();
    expect(screen.getByText('Total Pages:').textContent).toContain('3');
  });

  it('shows a one-page preview as it is, then pages the whole list at the same page', () => {
    const preview = rows.slice(10, 20).reverse();
    const { rerender } = render(
      <DataTable caption="Items" data={preview} columns={columns} pageSize={10} page={2} rowCount={25} />,
    );
    expect(bodyIds()).toEqual(preview.map((r) => String(r.id)));
    expect(screen.getByText('Total Records:').textContent).toContain('25');
    rerender(<DataTable caption="Items" data={rows} columns={columns} pageSize={10} page={2} />);
    expect(bodyIds()).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
  });

  it('labels each cell by its header when it stacks on a phone', () => {
    render(<DataTable caption="Items" data={rows} columns={columns} pageSize={10} />);
    const cells = within(screen.getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['ID', 'Name']);
  });
});

/** A table header row of plain column headings, one `<th scope="col">` each. */
export function HeaderRow({ names }: { names: string[] }) {
  return (
    <tr>
      {names.map((h) => (
        <th key={h} scope="col">
          {h}
        </th>
      ))}
    </tr>
  );
}

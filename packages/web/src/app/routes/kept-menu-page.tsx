import { Link, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { useKeptMenu } from '../../features/menu/api/kept-menus';
import { KeptMenuView } from '../../features/menu/components/kept-menu-view';
import { isNotFound } from '../../lib/api-client';

/** A kept test menu opened again from its link (issue 32.4, decision 064). */
export function KeptMenuPage() {
  const id = useParams().id ?? '';
  const { data, error, isPending } = useKeptMenu(id);
  return (
    <>
      <h1 className="h3">{data?.menu.name ?? 'Your test menu, kept'}</h1>
      {isPending ? (
        <Loading text="Judging the menu on today’s data…" />
      ) : isNotFound(error) ? (
        <ErrorText>
          No kept menu has this link: it may have been deleted, or not opened for 13 months.{' '}
          <Link to="/applications/menu">Upload the menu again</Link>.
        </ErrorText>
      ) : error ? (
        <ErrorText>An error occurred while opening the menu: {error.message}</ErrorText>
      ) : (
        <KeptMenuView data={data} />
      )}
    </>
  );
}

import { useSession } from '../auth/api/get-session';

/** Administrators' screens not built yet: signed out they say "Not Authorised" like the rest. */
export function AdminPlaceholder({ title }: { title: string }) {
  const session = useSession();
  if (!session.user) return <p>Not Authorised</p>;
  return (
    <>
      <h1 className="h3">{title}</h1>
      <p>This administrators' screen is not available yet in this version.</p>
    </>
  );
}

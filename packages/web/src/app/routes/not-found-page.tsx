import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <>
      <h1 className="h3">Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to the home page</Link>.
      </p>
    </>
  );
}

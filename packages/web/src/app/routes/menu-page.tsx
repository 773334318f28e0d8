import { lazy } from 'react';
import { Link } from 'react-router';
import { AfterHydration } from '../../components/after-hydration';

// The tools come after hydration (the page's words are rendered on the server): decision 088.
const MenuTool = lazy(async () => ({
  default: (await import('../../features/menu/components/menu-tool')).MenuTool,
}));
const MyMenus = lazy(async () => ({
  default: (await import('../../features/menu/components/my-menus')).MyMenus,
}));

/** "Your test menu" (issue 32.2–3, decision 059): a laboratory's tests against BV. */
export function MenuPage() {
  return (
    <>
      <h1 className="h3">Your test menu against biological variation</h1>
      <p className="d-print-none">
        For each test of your laboratory: the APS level your CVA, bias, total error and measurement
        uncertainty meet, sigma, the RCV and the index of individuality with your CVA, and whether a
        personalised reference interval is worth offering. For every measurand at once, see{' '}
        <Link to="/applications">BV and performance specifications</Link>.
      </p>
      <AfterHydration>
        <MyMenus />
        <MenuTool />
      </AfterHydration>
    </>
  );
}

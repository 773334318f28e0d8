import { BVDB_VERSION } from '@bvdb/contract';
import { Suspense, useEffect } from 'react';
import Container from 'react-bootstrap/Container';
import { Outlet } from 'react-router';
import { Loading } from '../components/state-views';
import { markAppHydrated } from '../lib/use-hydrated';
import { DemoBanner } from './demo-banner';
import { PrintFooter } from './print-footer';
import { SiteNav } from './site-nav';

/**
 * Marks the document once React runs the page, for scripts that must not act on a server-rendered
 * page before it is interactive (the browser tests wait for it). Inside the page's Suspense
 * boundary, so it waits for the page's own code too.
 */
function AppReady() {
  useEffect(() => {
    markAppHydrated();
    document.documentElement.dataset.appReady = '';
  }, []);
  return null;
}

export function Layout() {
  return (
    <>
      <a href="#main" className="visually-hidden-focusable position-absolute top-0 start-0 p-2 bg-white z-3">
        Skip to content
      </a>
      <SiteNav />
      <DemoBanner />
      <Container as="main" id="main" fluid="lg" className="pb-5 main-min-height">
        <Suspense fallback={<Loading />}>
          <Outlet />
          <AppReady />
        </Suspense>
      </Container>
      <footer className="border-top py-3 text-center text-muted small">
        <PrintFooter />
        <span className="site-footer">
          Biological Variation Database · open-source rebuild ·{' '}
          <a href="/api/docs" className="link-secondary">
            API
          </a>{' '}
          · <span className="site-version">{`version ${BVDB_VERSION}`}</span>
        </span>
      </footer>
    </>
  );
}

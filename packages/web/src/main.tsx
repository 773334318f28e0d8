import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';

/**
 * A server-rendered page (packages/server/src/plugins/ssr.ts) is painted before the app's code is
 * even fetched: the text and the stylesheet get the whole connection, the visitor reads the page
 * and follows its links while the code arrives and React hydrates it. The server lists that code
 * (`bvdb-scripts`), so it is fetched all at once rather than one import after another. A hidden
 * tab paints nothing, so it goes at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    let observer: PerformanceObserver | undefined;
    const done = () => {
      observer?.disconnect();
      clearTimeout(fallback);
      resolve();
    };
    // Browsers without paint timing, or a paint that never comes: go anyway.
    const fallback = setTimeout(done, 1000);
    try {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().length > 0) setTimeout(done, 0);
      });
      observer.observe({ type: 'paint', buffered: true });
    } catch {
      // No paint timing here: the fallback decides.
    }
  });
}

function preloadModules(hrefs: unknown): void {
  if (!Array.isArray(hrefs)) return;
  const links = document.createDocumentFragment();
  for (const href of hrefs) {
    if (typeof href !== 'string' || !href.startsWith('/assets/')) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.append(link);
  }
  document.head.append(links);
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The app's code evaluated in steps rather than in one long task (React, the API layer with zod,
 * the navigation with its widgets, the routes, then the start), so a tap or a scroll during
 * start-up is answered in between. Our own modules or single entry points only: importing a
 * library's whole namespace here would defeat tree-shaking.
 */
async function startInSteps(): Promise<void> {
  const steps = [
    () => import('react-dom/client'),
    () => import('./lib/api-client'),
    () => import('./app/site-nav'),
    () => import('./app/routes'),
  ];
  for (const step of steps) {
    await step();
    await nextTask();
  }
  await import('./app/start');
}

const scripts = document.getElementById('bvdb-scripts');
if (scripts?.textContent) {
  void afterFirstPaint().then(() => {
    preloadModules(JSON.parse(scripts.textContent ?? '[]'));
    return startInSteps();
  });
} else {
  void import('./app/start');
}

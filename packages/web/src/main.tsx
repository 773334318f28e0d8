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

const scripts = document.getElementById('bvdb-scripts');
if (scripts?.textContent) {
  void afterFirstPaint().then(() => {
    preloadModules(JSON.parse(scripts.textContent ?? '[]'));
    return import('./app/start');
  });
} else {
  void import('./app/start');
}

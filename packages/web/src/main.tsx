import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';

/**
 * A server-rendered page (packages/server/src/plugins/ssr.ts) is painted before the app's code is
 * even fetched: the text and the stylesheet get the whole connection, the visitor reads the page
 * and follows its links while the code arrives and React hydrates it. The server lists that code
 * (`bvdb-scripts`), so it is fetched all at once rather than one import after another. A hidden
 * tab gets no frames, hence the timer.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') setTimeout(resolve, 0);
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

function preloadModules(hrefs: unknown): void {
  if (!Array.isArray(hrefs)) return;
  for (const href of hrefs) {
    if (typeof href !== 'string' || !href.startsWith('/assets/')) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
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

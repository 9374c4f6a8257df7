/** Entry point of the web app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadScreens } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The opening screen's code downloads alongside the session check, not after it (decision 016).
void preloadScreens(window.location.pathname).catch(() => undefined);

// A screen's code that fails to load after a new release replaced it: the page loads the new
// release instead (once a minute at most, so a broken release cannot reload forever).
const RELOADED_AT = 'screen-reload-at';
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  window.location.reload();
});

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

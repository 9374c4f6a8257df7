/** Entry point of the web app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadScreens } from './app/router';
import { registerServiceWorker } from './app/service-worker';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The opening screen's code downloads alongside the session check, not after it (decision 016).
void preloadScreens(window.location.pathname).catch(() => undefined);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The offline shell (decision 046); a development server has no worker to register.
if (import.meta.env.PROD) registerServiceWorker();

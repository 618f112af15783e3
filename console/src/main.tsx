import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { ApiProvider, apiClientRef, liveEventsRef } from './api/context';
import { createLiveEvents } from './api/events';
import { App } from './app';
import './styles.css';

/** The composition root: the one place that makes the APIs the components use. */
const apis = [
  [apiClientRef, createApiClient()],
  [liveEventsRef, createLiveEvents()],
] as const;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider apis={apis}>
      <App />
    </ApiProvider>
  </StrictMode>,
);

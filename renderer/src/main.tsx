import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createArborClient } from './client/arbor-client';
import { createAppStore } from './state/store';
import { AppProvider } from './app/app-context';
import { App } from './app/App';
import './styles/theme.css';
import './styles/app.css';

const client = createArborClient();
const store = createAppStore(client);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <AppProvider store={store} client={client}>
      <App />
    </AppProvider>
  </StrictMode>,
);

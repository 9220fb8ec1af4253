/** Renders a component inside AppProvider with a fresh store over a fake client. */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppProvider } from '../../../renderer/src/app/app-context';
import { createAppStore } from '../../../renderer/src/state/store';
import { createFakeClient, type FakeClient } from './fake-client';

export function renderWithStore(ui: ReactElement, client: FakeClient = createFakeClient()) {
  const store = createAppStore(client);
  const result = render(
    <AppProvider store={store} client={client}>
      {ui}
    </AppProvider>,
  );
  return { ...result, store, client };
}

import { act, cleanup, waitFor } from '@testing-library/react';
import type React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { FormatReportNote } from '../../../../renderer/src/session/FormatReportNote';
import { createFakeClient } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const report = { files: 1, lines: 10, bytes: 100, unmodelled: [{ category: 'record type' as const, name: 'brand-new', lines: 3, versions: [], first: { file: 'a.jsonl', line: 2 } }], unreadable: { count: 0, examples: [] }, tooLarge: 0 };

describe('FormatReportNote', () => {
  it('asked for the report beside a huge session first view and on every growth during an import: it waits until the whole graph is in and no import runs', async () => {
    const client = createFakeClient({ 'sessions.formatReport': () => report });
    const asked = (): number => client.calls.filter((call) => call.method === 'sessions.formatReport').length;
    const { store, rerender: rerenderBare, findByTestId } = renderWithStore(<FormatReportNote sessionId="s1" revision={1} />, client);
    const rerender = (ui: React.ReactElement): void =>
      rerenderBare(
        <AppProvider store={store} client={client}>
          {ui}
        </AppProvider>,
      );
    act(() => store.setState({ graphPartial: true, importPhase: 'running' }));
    rerender(<FormatReportNote sessionId="s1" revision={2} />);
    rerender(<FormatReportNote sessionId="s1" revision={3} />);
    act(() => store.setState({ graphPartial: false }));
    rerender(<FormatReportNote sessionId="s1" revision={4} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first render (before the state said otherwise) may have asked once; growth during the import never.
    const before = asked();
    expect(before).toBeLessThanOrEqual(1);
    act(() => store.setState({ importPhase: 'done' }));
    await waitFor(() => expect(asked()).toBe(before + 1));
    expect(await findByTestId('format-report-note')).toBeTruthy();
  });
});

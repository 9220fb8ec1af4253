import { useAppState } from '../app/app-context';

/** Shown in place of the graph when nothing is imported: the app never opens empty. */
export function DemoOffer() {
  const createDemo = useAppState((s) => s.createDemo);
  const demoStatus = useAppState((s) => s.demoStatus);
  const locations = useAppState((s) => s.importLocations);
  const runImport = useAppState((s) => s.runImport);
  return (
    <div className="first-run" data-testid="demo-offer">
      <h2>No sessions yet</h2>
      <p>
        Arbor looked for agent transcripts and found none.
        {locations.length > 0 ? ' It searched:' : ''}
      </p>
      {locations.length > 0 ? (
        <ul className="first-run__locations">
          {locations.map((l) => (
            <li key={l.path}>
              <code>{l.path}</code> <span className="muted">{l.exists ? '(empty)' : '(not found)'}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p>Create a small demo session to see how Arbor draws an agent run as a tree: prompts, tool calls, a rewind and a branch.</p>
      <div className="first-run__actions">
        <button type="button" className="primary-button" data-testid="demo-create" disabled={demoStatus === 'creating'} onClick={() => void createDemo()}>
          {demoStatus === 'creating' ? 'Creating demo…' : 'Create demo session'}
        </button>
        <button type="button" className="secondary-button" onClick={() => void runImport()}>
          Look again
        </button>
      </div>
    </div>
  );
}

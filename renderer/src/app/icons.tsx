/** Small inline icons (no icon font, no remote assets). */
export function ArborLogo() {
  return (
    <svg className="icon icon--logo" width="20" height="20" viewBox="0 0 24 24" aria-hidden>
      <circle cx="12" cy="4" r="2.4" fill="var(--arbor-kind-user)" />
      <circle cx="6" cy="13" r="2.4" fill="var(--arbor-kind-assistant)" />
      <circle cx="18" cy="13" r="2.4" fill="var(--arbor-kind-tool_call)" />
      <circle cx="18" cy="21" r="2" fill="var(--arbor-kind-thinking)" />
      <path d="M12 6.4 6 10.6M12 6.4l6 4.2M18 15.4v3.6" stroke="var(--arbor-text-muted)" strokeWidth="1.6" fill="none" strokeLinecap="round" />
    </svg>
  );
}

export function BranchIcon() {
  return (
    <svg className="icon" width="12" height="12" viewBox="0 0 16 16" aria-hidden>
      <path
        d="M5 3.5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm0 9a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm9-6.5a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0ZM3.5 5v6M12.5 7.5c0 2.5-3 3-9 3.5"
        stroke="currentColor"
        strokeWidth="1.4"
        fill="none"
      />
    </svg>
  );
}

/*
 * The session head's buttons shown as icons alone, in a graph pane too narrow for their words (each button keeps
 * its words as its aria-label and tooltip). Hidden while the words show.
 */
function HeadIcon({ children }: { readonly children: React.ReactNode }) {
  return (
    <svg className="icon head-icon" width="14" height="14" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  );
}

export function ExportIcon() {
  return (
    <HeadIcon>
      <path d="M8 2v8M4.8 6.8 8 10l3.2-3.2M2.5 11v2.5h11V11" />
    </HeadIcon>
  );
}

export function DeleteIcon() {
  return (
    <HeadIcon>
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.7 6.5v4.5M9.3 6.5v4.5" />
    </HeadIcon>
  );
}

/** The three session views: the graph alone, the conversation beside it, the conversation alone. */
export function ViewIcon({ view }: { readonly view: 'graph' | 'split' | 'conversation' }) {
  if (view === 'graph') {
    return (
      <HeadIcon>
        <circle cx="8" cy="3" r="1.6" />
        <circle cx="4" cy="12.5" r="1.6" />
        <circle cx="12" cy="12.5" r="1.6" />
        <path d="M7.2 4.4 4.6 11M8.8 4.4l2.6 6.6" />
      </HeadIcon>
    );
  }
  if (view === 'split') {
    return (
      <HeadIcon>
        <rect x="1.8" y="2.5" width="12.4" height="11" rx="1.2" />
        <path d="M8 2.5v11M10 5.5h2.5M10 8h2.5M10 10.5h2.5" />
      </HeadIcon>
    );
  }
  return (
    <HeadIcon>
      <path d="M2.5 4h11M2.5 7h8M2.5 10h11M2.5 13h6" />
    </HeadIcon>
  );
}

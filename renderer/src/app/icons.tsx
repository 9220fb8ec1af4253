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

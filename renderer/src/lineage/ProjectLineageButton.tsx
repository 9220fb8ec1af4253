/** The sessions list's project header button that opens the project's lineage view. */
import { memo } from 'react';
import { openProjectLineage } from './project-lineage-store';
import './project-lineage.css';

export const ProjectLineageButton = memo(function ProjectLineageButton({ project, name }: { readonly project: string; readonly name: string }) {
  return (
    <button
      type="button"
      className="session-group__lineage"
      data-testid="project-lineage-open"
      aria-label={`Show project lineage of ${name}`}
      title="Show project lineage: every session of this folder as one graph"
      onClick={(event) => {
        // The header folds on click: this button opens the view instead.
        event.stopPropagation();
        openProjectLineage(project);
      }}
    >
      Lineage
    </button>
  );
});

/** The sessions list's project header button that opens the project's lineage view. */
import { memo } from 'react';
import { openProjectLineage } from './project-lineage-store';
import './project-lineage.css';

export const ProjectLineageButton = memo(function ProjectLineageButton({ project, name }: { readonly project: string; readonly name: string }) {
  // Not a <button>: the sessions list is a listbox, whose children may only be options and groups (axe:
  // aria-required-children). A pointer shortcut, hidden from the accessibility tree; from the keyboard the palette's
  // "Show project lineage" opens the same view.
  return (
    <span
      className="session-group__lineage"
      data-testid="project-lineage-open"
      aria-hidden="true"
      title={`Show project lineage of ${name}: every session of this folder as one graph`}
      onClick={(event) => {
        // The header folds on click: this opens the view instead.
        event.stopPropagation();
        openProjectLineage(project);
      }}
    >
      Lineage
    </span>
  );
});

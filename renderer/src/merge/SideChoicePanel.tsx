import type { MergeFileEntry, MergeFileSides, MergePreview } from '../../../shared/operations';
import type { FileChoice } from './merge-files';
import type { MergeSession } from './merge-session';

interface ChoiceOption {
  readonly choice: FileChoice;
  readonly label: string;
  readonly detail: string;
}

function describe(side: string | null, label: string, binary: boolean): string {
  if (side === null) return `${label} deleted the file.`;
  if (binary) return `The file as ${label} has it.`;
  const lines = side === '' ? 0 : side.split('\n').length - (side.endsWith('\n') ? 1 : 0);
  return `The file as ${label} has it (${lines} line${lines === 1 ? '' : 's'}).`;
}

/** The options for a file that no line merge can settle, worded by what each one writes. */
export function choiceOptions(preview: MergePreview, entry: MergeFileEntry, sides: MergeFileSides): ChoiceOption[] {
  const ours = `Ours (${preview.ours.label})`;
  const theirs = `Theirs (${preview.theirs.label})`;
  const options: ChoiceOption[] = [];
  const keep = (choice: 'ours' | 'theirs', text: string | null, name: string) => {
    if (text === null && entry.conflict === 'modify/delete') options.push({ choice, label: `Delete it, as ${choice} did`, detail: `${name} deleted the file.` });
    else options.push({ choice, label: `Keep ${choice}`, detail: describe(text, name, sides.binary) });
  };
  keep('ours', sides.ours, ours);
  keep('theirs', sides.theirs, theirs);
  if (sides.ours !== null && sides.theirs !== null) options.push({ choice: 'delete', label: 'Delete the file', detail: 'Neither version is written; the file is removed from the target.' });
  return options;
}

const KIND_EXPLANATIONS: Readonly<Record<string, string>> = {
  binary: 'Both sides changed this binary file. Binary files are never mixed: choose the version to keep.',
  'modify/delete': 'One side changed this file while the other deleted it. Choose whether the merge keeps the changed version or deletes the file.',
  mode: "The sides disagree about the file's mode (executable bit). Choose the side whose version to keep.",
  symlink: 'The sides disagree about this symbolic link. Choose the side whose version to keep.',
};

/** Binary, modify/delete, mode and symlink conflicts: choose a side (or delete), with clear labels. */
export function SideChoicePanel({
  session,
  preview,
  entry,
  sides,
  choice,
}: {
  session: MergeSession;
  preview: MergePreview;
  entry: MergeFileEntry;
  sides: MergeFileSides;
  choice: FileChoice | null;
}) {
  const explanation = KIND_EXPLANATIONS[entry.conflict ?? (sides.binary ? 'binary' : '')] ?? 'Choose the version to keep.';
  const survivor = sides.ours ?? sides.theirs;
  return (
    <div className="merge-choice" data-testid="side-choice">
      <p className="merge-choice__why">{explanation}</p>
      <div className="merge-choice__options" role="radiogroup" aria-label={`Resolve ${entry.path}`}>
        {choiceOptions(preview, entry, sides).map((option) => (
          <label key={option.choice} className={`merge-choice__option ${choice === option.choice ? 'is-chosen' : ''}`} data-testid={`choice-${option.choice}`}>
            <input
              type="radio"
              name={`choice-${entry.path}`}
              checked={choice === option.choice}
              onChange={() => session.store.getState().choose(entry.path, option.choice)}
            />
            <span className="merge-choice__label">{option.label}</span>
            <span className="merge-choice__detail">{option.detail}</span>
          </label>
        ))}
      </div>
      {!sides.binary && survivor !== null && entry.conflict === 'modify/delete' ? (
        <section className="merge-choice__preview">
          <h3 className="section-title">The changed version</h3>
          <pre className="code-block">{survivor.length > 20_000 ? `${survivor.slice(0, 20_000)}\n…` : survivor}</pre>
        </section>
      ) : null}
    </div>
  );
}

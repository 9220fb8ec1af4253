import type { SessionId } from '../../../shared/model';
import { useAppState } from '../app/app-context';
import { plural } from '../app/format';
import { EffectList, rowsOfLedger } from './EffectList';
import { Modal } from './Modal';
import { useLedger } from './use-ledger';

/** The session's whole side-effect ledger, every branch: "Side effects" in the session header. */
export function LedgerDialog({ sessionId, onClose }: { readonly sessionId: SessionId; readonly onClose: () => void }) {
  const state = useLedger(sessionId);
  const selectNode = useAppState((s) => s.selectNode);
  let body: React.ReactNode;
  if (state.status === 'loading') body = <p className="ledger-status">Reading the session's steps…</p>;
  else if (state.status === 'failed') body = <p className="ledger-status">The side effects of this session could not be read.</p>;
  else if (state.ledger.entries.length === 0) body = <p className="tt-lead">No step of this session reached outside the workspace.</p>;
  else {
    const { entries, unrecorded, replays } = state.ledger;
    const facts = [plural(entries.length, 'step'), unrecorded > 0 ? `${unrecorded} without a recorded outcome` : null, replays > 0 ? plural(replays, 'possible double effect') : null].filter(Boolean);
    body = (
      <div className="tt-stack">
        <p className="tt-lead" data-testid="ledger-facts">
          {facts.join(' · ')}. Steps of every branch that reached outside the workspace; no rewind, fork or merge takes them back. A step
          whose outcome was not recorded may never have run, or ran and its record was lost: check the world outside.
        </p>
        <EffectList
          rows={rowsOfLedger(entries)}
          title="Ledger"
          intro="In transcript order; a possible double effect repeats an earlier request."
          testId="ledger"
          tall
          onShowNode={(nodeId) => {
            onClose();
            void selectNode(nodeId);
          }}
        />
      </div>
    );
  }
  return (
    <Modal
      title="Side effects"
      size="list"
      onClose={onClose}
      testId="ledger-dialog"
      footer={
        <button type="button" className="primary-button" data-autofocus onClick={onClose}>
          Close
        </button>
      }
    >
      {body}
    </Modal>
  );
}

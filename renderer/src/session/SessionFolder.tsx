/**
 * The session header's folder: the one in force at the selected node, else at the session's latest step
 * (`nodes.folder`). A Codex `turn_context` naming another cwd moves a session; the header then says where the
 * step was run, not only where the session started. Until the answer comes (or when it cannot be had), the
 * session's own folder.
 */
import { useEffect, useState } from 'react';
import type { NodeId } from '../../../shared/model';
import { useArborClient } from '../app/app-context';
import { shortenPath } from '../app/format';

export function SessionFolder({ project, nodeId }: { readonly project: string | null; readonly nodeId: NodeId | null }) {
  const client = useArborClient();
  const [answer, setAnswer] = useState<{ nodeId: NodeId; folder: string | null } | null>(null);
  useEffect(() => {
    if (nodeId === null) return;
    const controller = new AbortController();
    client.call('nodes.folder', { nodeId }, { signal: controller.signal }).then(
      ({ folder }) => setAnswer({ nodeId, folder }),
      () => undefined,
    );
    return () => controller.abort();
  }, [client, nodeId]);
  const moved = answer !== null && answer.nodeId === nodeId ? answer.folder : null;
  const folder = moved ?? project;
  if (!folder) return null;
  const elsewhere = project !== null && folder !== project;
  return (
    <span data-testid="session-folder" title={elsewhere ? `${folder} (the session started in ${project})` : folder}>
      {shortenPath(folder)}
    </span>
  );
}

/**
 * `export.preview` and `export.write` (issue 15, electron/export/): the service's reads as the export's
 * source, progress as `export.progress` events, and the call's signal to stop a long export.
 */
import type { ArborApi, CallContext } from '../../shared/contract';
import { ArborError } from '../../shared/errors';
import type { NodeDetail, NodeId, SessionGraph, SessionId } from '../../shared/model';
import type { ExportSource } from '../export/export-source';
import { previewExport, writeExport, type ExportOptions } from '../export/run-export';
import type { EventHub } from './event-hub';
import { getNodeDetails } from './node-details';

export interface ExportMethodParts {
  readonly graph: (request: { sessionId: SessionId }, context?: CallContext) => Promise<SessionGraph>;
  readonly detail: (nodeId: NodeId) => NodeDetail;
  readonly events: EventHub;
  readonly homeDir: string;
  readonly version: string;
  readonly now: () => Date;
}

export function createExportMethods(parts: ExportMethodParts): Pick<ArborApi, 'export.preview' | 'export.write'> {
  const source: ExportSource = {
    graph: (sessionId, signal) => parts.graph({ sessionId }, { signal }),
    details: async (nodeIds, signal) => getNodeDetails(nodeIds, parts.detail, signal).details,
    sessionOfNode: async (nodeId) => {
      try {
        return parts.detail(nodeId).node.sessionId;
      } catch (error) {
        if (error instanceof ArborError && error.code === 'NOT_FOUND') return null;
        throw error;
      }
    },
  };
  const options = (context: CallContext | undefined): ExportOptions => ({
    signal: context?.signal,
    onProgress: (progress) => parts.events.emit('export.progress', progress),
    now: parts.now,
    arborVersion: parts.version,
    homeDir: parts.homeDir,
  });
  return {
    'export.preview': async ({ target }, context) => previewExport(source, target, options(context)),
    'export.write': async (request, context) => writeExport(source, request, options(context)),
  };
}

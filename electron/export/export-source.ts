/**
 * What an export reads, and in what order: the target (a session id, or a node id naming the branch through
 * it) resolved to its session and branch, then the branch's nodes a page at a time, redacted, so a 50k-node
 * branch never has all its details in memory at once.
 */
import { ArborError, throwIfAborted } from '../../shared/errors';
import { exportBranch, type ExportStep } from '../../shared/export-branch';
import type { ExportedNode, ExportedSession } from '../../shared/export';
import type { NodeDetail, NodeId, SessionGraph, SessionId } from '../../shared/model';
import { exportedNode } from './exported-node';
import { fieldsOf, mapNodeStrings, redactionMark, redactText, scanFields, type FieldFinding } from './redaction';
import type { SecretScanner } from './secret-scan';
import type { RedactionFinding } from '../../shared/export';

export interface ExportSource {
  graph(sessionId: SessionId, signal?: AbortSignal): Promise<SessionGraph>;
  /** Details in the order asked (ids that name no node are left out). */
  details(nodeIds: readonly NodeId[], signal?: AbortSignal): Promise<readonly NodeDetail[]>;
  /** The session a node belongs to, or null when no node has that id. */
  sessionOfNode(nodeId: NodeId, signal?: AbortSignal): Promise<SessionId | null>;
}

export interface ResolvedExport {
  readonly graph: SessionGraph;
  readonly session: ExportedSession;
  readonly steps: readonly ExportStep[];
  readonly head: NodeId | null;
  /** The node asked for (null when the target is the session). */
  readonly through: NodeId | null;
}

export async function resolveExport(source: ExportSource, target: string, signal?: AbortSignal): Promise<ResolvedExport> {
  let graph: SessionGraph | null = null;
  let through: NodeId | null = null;
  try {
    graph = await source.graph(target, signal);
  } catch (error) {
    if (!(error instanceof ArborError && error.code === 'NOT_FOUND')) throw error;
  }
  if (graph === null) {
    const sessionId = await source.sessionOfNode(target, signal);
    if (sessionId === null) throw new ArborError('NOT_FOUND', `No session or node ${target}`, { target });
    graph = await source.graph(sessionId, signal);
    through = target;
  }
  const { steps, head } = exportBranch(graph.nodes, graph.workspaceNodes ?? [], through);
  const { session } = graph;
  return {
    graph,
    session: { id: session.id, source: session.source, title: session.title, project: session.project, startedAt: session.startedAt, updatedAt: session.updatedAt },
    steps,
    head,
    through,
  };
}

/** Details read per page: the conversation view's batch size (NODE_DETAILS_MAX). */
export const EXPORT_PAGE = 200;

export interface RedactedPage {
  readonly nodes: readonly ExportedNode[];
  readonly findings: readonly RedactionFinding[];
  /** Each node's transcript file (the side-effect ledger tells a resume into another file by it). */
  readonly files: ReadonlyMap<NodeId, string>;
}

/**
 * The branch's nodes in pages, each node's findings listed and the ones `redact` says yes to replaced.
 * `onProgress(done)` after each page.
 */
export async function* redactedPages(
  source: ExportSource,
  resolved: ResolvedExport,
  scan: SecretScanner,
  redact: (finding: RedactionFinding) => boolean,
  options: { signal?: AbortSignal; onProgress?: (done: number) => void } = {},
): AsyncGenerator<RedactedPage> {
  const shownCalls = new Set<string>();
  for (let from = 0; from < resolved.steps.length; from += EXPORT_PAGE) {
    throwIfAborted(options.signal);
    const steps = resolved.steps.slice(from, from + EXPORT_PAGE);
    const details = new Map((await source.details(steps.map((step) => step.node.id), options.signal)).map((detail) => [detail.node.id, detail]));
    const nodes: ExportedNode[] = [];
    for (const step of steps) {
      const detail = details.get(step.node.id);
      if (detail === undefined) continue;
      const node = exportedNode(step, detail, shownCalls);
      for (const call of node.toolCalls) shownCalls.add(call.id);
      nodes.push(node);
    }
    const fields = nodes.flatMap(fieldsOf);
    const found = await scanFields(fields, scan);
    const findings: RedactionFinding[] = [];
    const hitsOf = new Map<string, FieldFinding[]>();
    const secretsOf = new Map<string, { text: string; finding: RedactionFinding }[]>();
    fields.forEach((field, i) => {
      if (field.path === 'label') return;
      const hits = found[i]!;
      if (hits.length === 0) return;
      hitsOf.set(`${field.nodeId}\0${field.path}`, hits);
      const secrets = secretsOf.get(field.nodeId ?? '') ?? [];
      for (const hit of hits) {
        findings.push(hit.finding);
        secrets.push({ text: field.text.slice(hit.start, hit.end), finding: hit.finding });
      }
      secretsOf.set(field.nodeId ?? '', secrets);
    });
    const labels = new Map<string, FieldFinding[]>();
    fields.forEach((field, i) => {
      if (field.path !== 'label') return;
      // The label is a line cut from the node's content: its secrets are the content's, one decision each.
      const own = found[i]!.filter((hit) => !(secretsOf.get(field.nodeId ?? '') ?? []).some((secret) => secret.text.includes(field.text.slice(hit.start, hit.end).replace(/…$/, ''))));
      for (const hit of own) findings.push(hit.finding);
      labels.set(field.nodeId ?? '', own);
    });
    const redacted = nodes.map((node) => {
      const secrets = secretsOf.get(node.id) ?? [];
      const label = labels.get(node.id) ?? [];
      if (secrets.length === 0 && label.length === 0) return node;
      return mapNodeStrings(node, (path, text) => {
        if (path === 'label') return redactLabel(redactText(text, label, redact), secrets, redact);
        const hits = hitsOf.get(`${node.id}\0${path}`);
        return hits === undefined ? text : redactText(text, hits, redact);
      });
    });
    options.onProgress?.(Math.min(resolved.steps.length, from + steps.length));
    yield { nodes: redacted, findings, files: new Map(nodes.map((node) => [node.id, details.get(node.id)!.file])) };
  }
}

/** The session's title, redacted like a node's field (its findings have no node). */
export async function redactedTitle(title: string, scan: SecretScanner, redact: (finding: RedactionFinding) => boolean): Promise<{ title: string; findings: RedactionFinding[] }> {
  const field = { nodeId: null, path: 'title', field: 'title', text: title };
  const [hits] = await scanFields([field], scan);
  return { title: redactText(title, hits ?? [], redact), findings: (hits ?? []).map((hit) => hit.finding) };
}

/**
 * A label with each of its node's secrets replaced as that secret's finding says, including one the label's
 * cut ends inside (a truncated key no scanner would recognise any more).
 */
function redactLabel(label: string, secrets: readonly { text: string; finding: RedactionFinding }[], redact: (finding: RedactionFinding) => boolean): string {
  let out = label;
  for (const { text, finding } of [...secrets].sort((a, b) => b.text.length - a.text.length)) {
    if (!redact(finding)) continue;
    const mark = redactionMark(finding.rule);
    out = out.split(text).join(mark);
    const flat = text.replace(/\s+/g, ' ');
    if (flat !== text) out = out.split(flat).join(mark);
    // A cut secret at the end: the longest prefix of it (8 characters or more) that the label ends with.
    const body = out.endsWith('…') ? out.slice(0, -1) : out;
    for (let length = Math.min(flat.length - 1, body.length); length >= 8; length--) {
      if (body.endsWith(flat.slice(0, length))) {
        out = `${body.slice(0, body.length - length)}${mark}${out.endsWith('…') ? '…' : ''}`;
        break;
      }
    }
  }
  return out;
}

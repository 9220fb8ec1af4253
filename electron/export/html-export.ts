/**
 * The HTML export: one self-contained file, readable offline, with no script at all (its Content-Security-Policy
 * forbids any), CSS inline, light and dark by `prefers-color-scheme`. Every step is rendered with React to
 * static markup: transcript text only ever becomes text nodes and escaped attributes; Markdown goes through
 * react-markdown with raw HTML shown as text, links only to http(s)/mailto and images never fetched.
 */
import Anser from 'anser';
import { createElement as h, Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { ExportedBlock, ExportedNode, ExportedToolCall } from '../../shared/export';
import { entryLabels, LEDGER_OUTCOME_TEXT, replayText, type LedgerEntry } from '../../shared/side-effect-ledger';
import type { ExportHeadInfo, ExportTail, ExportWriter } from './export-writer';
import { EXPORT_CSS } from './html-style';
import { callBodies, clipped, compactionSummary, outcomeLabel, roleOf } from './step-text';

export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function htmlExportWriter(): ExportWriter {
  let inRun: string | null = null;
  let afterCompaction = false;
  return {
    head: (info) => headOf(info),
    nodes(nodes) {
      let out = '';
      for (const node of nodes) {
        if (node.resultOf !== null) continue;
        if (node.agentRun !== inRun) {
          if (inRun !== null) out += '</div></details>\n';
          if (node.agentRun !== null) out += '<details class="agent-run"><summary>Subagent run</summary><div class="agent-run__steps">\n';
          inRun = node.agentRun;
        }
        out += `${renderToStaticMarkup(h(Step, { node, afterCompaction }))}\n`;
        afterCompaction = node.kind === 'compaction';
      }
      return out;
    },
    tail: (tail) =>
      `${inRun !== null ? '</div></details>\n' : ''}</main>\n${renderToStaticMarkup(h(SideEffects, { entries: tail.sideEffects }))}\n${renderToStaticMarkup(h(Footer, { tail }))}\n</body>\n</html>\n`,
  };
}

function headOf(info: ExportHeadInfo): string {
  const title = renderToStaticMarkup(h('title', null, info.session.title));
  const header = renderToStaticMarkup(h(Header, { info }));
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="Arbor">',
    title,
    `<style>${EXPORT_CSS}</style>`,
    '</head>',
    '<body>',
    header,
    '<main>',
    '',
  ].join('\n');
}

function Header({ info }: { info: ExportHeadInfo }): ReactNode {
  const { session } = info;
  const rows: [string, string][] = [
    ['Session', `${session.id} (${session.source})`],
    ...(session.project !== null ? ([['Project', session.project]] as [string, string][]) : []),
    ['Started', session.startedAt ?? 'unknown'],
    ['Updated', session.updatedAt ?? 'unknown'],
    ['Branch', info.through !== null ? `through ${info.through}, ending at ${info.head ?? '-'}` : `ending at ${info.head ?? '-'} (the session's latest work)`],
    ...info.links.map((link): [string, string] => [link.kind === 'fork' ? 'Fork' : link.kind === 'continues' ? 'Continues' : 'Follows', `${link.direction === 'earlier' ? 'from' : 'into'} ${link.sessionId}${link.title !== null ? ` (${link.title})` : ''}`]),
    ['Steps', String(info.nodes)],
    ['Exported', `by Arbor ${info.arborVersion} at ${info.exportedAt}`],
  ];
  return h(
    'header',
    { className: 'export-head' },
    h('h1', null, session.title),
    h('dl', null, ...rows.map(([key, value]) => h(Fragment, { key }, h('dt', null, key), h('dd', null, value)))),
  );
}

/** The side-effect ledger, each entry linking to its step (and a replay to the earlier request's). */
function SideEffects({ entries }: { entries: readonly LedgerEntry[] }): ReactNode {
  const intro = entries.length === 0 ? 'No step reached outside the workspace.' : `${entries.length} step${entries.length === 1 ? '' : 's'} reached outside the workspace: no rewind or fork takes ${entries.length === 1 ? 'it' : 'them'} back.`;
  return h(
    'section',
    { className: 'effects', 'aria-labelledby': 'side-effects' },
    h('h2', { id: 'side-effects' }, 'Side effects'),
    h('p', { className: 'effects__intro' }, intro),
    entries.length === 0
      ? null
      : h(
          'ul',
          { className: 'effects__list' },
          ...entries.map((entry) =>
            h(
              'li',
              { key: `${entry.toolUseId}`, className: `effect${entry.replayOf !== null ? ' effect--replay' : ''}` },
              h('span', { className: 'effect__kind' }, entryLabels(entry).join(', ')),
              h('span', { className: `outcome outcome--${entry.outcome}` }, LEDGER_OUTCOME_TEXT[entry.outcome]),
              h('a', { className: 'effect__summary', href: stepHref(entry.nodeId) }, h('code', null, entry.summary)),
              entry.replayOf !== null
                ? h('p', { className: 'effect__replay' }, `⚠ ${replayText(entry.replayOf)} `, h('a', { href: stepHref(entry.replayOf.nodeId) }, 'The earlier request'), ` (${LEDGER_OUTCOME_TEXT[entry.replayOf.outcome]}).`)
                : null,
            ),
          ),
        ),
  );
}

/** A link to a step of this file; the id is transcript text, so it is encoded (it stays a fragment). */
const stepHref = (nodeId: string): string => `#node-${encodeURIComponent(nodeId)}`;

function Footer({ tail }: { tail: ExportTail }): ReactNode {
  const text = tail.noRedact
    ? 'Exported without redaction.'
    : `${tail.redacted} secret${tail.redacted === 1 ? '' : 's'} redacted${tail.kept > 0 ? `; ${tail.kept} left as they were, by choice` : ''}.`;
  return h('footer', { className: 'export-foot' }, text);
}

function Step({ node, afterCompaction }: { node: ExportedNode; afterCompaction: boolean }): ReactNode {
  if (node.kind === 'compaction') {
    // The boundary and the summary line are two nodes: one divider, then the summary.
    const summary = compactionSummary(node);
    return h(
      'section',
      { className: 'compaction', id: `node-${node.id}` },
      afterCompaction ? null : h('div', { className: 'compaction__rule' }, h('span', null, node.label)),
      summary !== null ? h('details', null, h('summary', null, 'Summary'), h(MarkdownText, { text: summary })) : null,
    );
  }
  if (node.kind === 'system' || node.kind === 'unknown') return h('div', { className: 'annotation', id: `node-${node.id}` }, node.label);
  const role = roleOf(node) ?? node.kind;
  const meta = [node.kind !== 'user' ? node.model : null, node.timestamp].filter((part): part is string => part !== null);
  return h(
    'article',
    { className: `step step--${node.kind}${node.agentRun !== null ? ' step--agent' : ''}`, id: `node-${node.id}` },
    node.branch !== null ? h('div', { className: 'branch' }, `branch ${node.branch.index} of ${node.branch.of}`) : null,
    h('div', { className: 'step__role' }, role, meta.length > 0 ? h('span', { className: 'step__meta' }, meta.join(' · ')) : null),
    ...node.blocks.map((block, i) => h(Block, { key: `b${i}`, block })),
    ...node.toolCalls.map((call) => h(ToolCall, { key: call.id, call })),
  );
}

function Block({ block }: { block: ExportedBlock }): ReactNode {
  switch (block.type) {
    case 'text':
      return h(MarkdownText, { text: block.text });
    case 'thinking':
      return h('details', { className: 'thinking' }, h('summary', null, block.redacted ? 'Thinking (redacted by the model)' : 'Thinking'), block.redacted ? null : h(MarkdownText, { text: block.text }));
    case 'tool_result':
      return h('pre', { className: `result${block.isError ? ' result--error' : ''}` }, h(AnsiText, { text: clipped(block.text) }));
    case 'image':
      return h('p', { className: 'inert' }, `[image: ${block.mediaType}, ${block.bytes} bytes]`);
    case 'other':
      return h('p', { className: 'inert' }, `[${block.blockType}]`);
  }
}

function ToolCall({ call }: { call: ExportedToolCall }): ReactNode {
  const failed = call.outcome === 'error';
  return h(
    'div',
    { className: `call call--${call.outcome}` },
    h(
      'div',
      { className: 'call__head' },
      h('span', { className: 'call__name' }, call.name),
      h('span', { className: `outcome outcome--${call.outcome}` }, outcomeLabel(call.outcome)),
      call.exitCode !== null && call.exitCode !== 0 ? h('span', { className: 'outcome outcome--error' }, `exit ${call.exitCode}`) : null,
    ),
    ...callBodies(call).map((body, i) => {
      if (body.kind === 'command') return h('pre', { key: i, className: 'command' }, h('span', { className: 'prompt-mark' }, '$ '), body.command);
      if (body.kind === 'diff') {
        return h(
          Fragment,
          { key: i },
          h('div', { className: 'path' }, body.path),
          h('pre', { className: 'diff' }, ...body.lines.map((line, n) => h('span', { key: n, className: `diff__${line.kind}` }, `${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : line.kind === 'hunk' ? '@@' : ' '}${line.text}\n`))),
        );
      }
      if (body.kind === 'file') return h(Fragment, { key: i }, h('div', { className: 'path' }, body.path), h('pre', { className: 'file' }, clipped(body.content)));
      return h('pre', { key: i, className: 'input' }, body.json);
    }),
    call.result !== null ? h('pre', { className: `result${failed ? ' result--error' : ''}` }, h(AnsiText, { text: clipped(call.result) })) : null,
  );
}

/** Only these schemes become links; anything else (javascript:, data:, file:) is shown as text. */
export function isSafeHref(href: string | undefined): href is string {
  if (href === undefined) return false;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
  } catch {
    return false;
  }
}

const components: Components = {
  a: ({ href, children }) => (isSafeHref(href) ? h('a', { href, rel: 'noopener noreferrer nofollow' }, children) : h('span', { className: 'inert-link' }, children)),
  // An offline file fetches nothing: an image is named, not loaded.
  img: ({ alt, src }) => h('span', { className: 'inert', title: typeof src === 'string' ? src : undefined }, `[image${alt ? `: ${alt}` : ''}]`),
};
interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * Raw HTML in transcript Markdown is shown as the text it is (a prompt that pastes `<div>` reads as typed),
 * never parsed: each `html` node becomes a text node (a paragraph of text where it stood as a block).
 */
function remarkHtmlAsText() {
  return (tree: MarkdownNode): void => {
    const stack: MarkdownNode[] = [tree];
    while (stack.length > 0) {
      const parent = stack.pop()!;
      const children = parent.children;
      if (children === undefined) continue;
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (child.type === 'html') {
          const text: MarkdownNode = { type: 'text', value: child.value ?? '' };
          children[i] = FLOW_PARENTS.has(parent.type) ? { type: 'paragraph', children: [text] } : text;
        } else stack.push(child);
      }
    }
  };
}

const remarkPlugins = [remarkGfm, remarkHtmlAsText];

function MarkdownText({ text }: { text: string }): ReactNode {
  return h('div', { className: 'markdown' }, h(Markdown, { remarkPlugins, components }, text));
}

const NAMED = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;

/** Terminal colours as classes (themed in html-style.ts); other codes are dropped. */
function AnsiText({ text }: { text: string }): ReactNode {
  if (!text.includes('\u001b')) return text;
  const entries = Anser.ansiToJson(text, { use_classes: true, remove_empty: true });
  return h(
    Fragment,
    null,
    ...entries.map((entry, i) => {
      const classes = [entry.fg && NAMED.test(entry.fg) ? `${entry.fg}-fg` : '', ...entry.decorations.map((decoration) => `ansi-${decoration}`)].filter(Boolean);
      return classes.length === 0 ? entry.content : h('span', { key: i, className: classes.join(' ') }, entry.content);
    }),
  );
}

/**
 * The HTML writer on hostile input straight from a transcript: whatever a title, prompt, reply, tool input or
 * result (and the side-effect ledger repeating them) holds, the file has no script, no event handler, no script URL and nothing that loads.
 */
import { describe, expect, it } from 'vitest';
import { htmlExportWriter } from '../../../../electron/export/html-export';
import type { ExportedNode } from '../../../../shared/export';
import type { LedgerEntry } from '../../../../shared/side-effect-ledger';
import { expectInert } from '../../../integration/export/export-harness';

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload="alert(1)"><a xlink:href="javascript:alert(1)">x</a></svg>',
  '[link](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox(1))',
  '![pixel](https://tracker.example/p.png) ![inline](data:image/png;base64,AAAA)',
  '<a href="jav&#x09;ascript:alert(1)">entity</a> <iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<details open ontoggle=alert(1)>x</details> <form action="https://evil.example"><input autofocus onfocus=alert(1)></form>',
  '<style>body{background:url(https://evil.example/x)}</style><meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
].join('\n\n');

function node(over: Partial<ExportedNode>): ExportedNode {
  return {
    id: 'n1', parentId: null, kind: 'user', timestamp: null, model: null, agentRun: null, branch: null, resultOf: null, label: HOSTILE.slice(0, 100),
    blocks: [{ type: 'text', text: HOSTILE }], toolCalls: [], fileEffects: [], ...over,
  };
}

/** The side-effect ledger repeats commands and tool names: hostile ones too. */
const sideEffects: LedgerEntry[] = [
  {
    nodeId: 'n3"><script>alert(1)</script>', toolUseId: 't1', tool: '<img src=x onerror=alert(1)>', timestamp: null, kinds: ['unknown'], effects: ['<b>x</b>'],
    summary: HOSTILE.slice(0, 200), outcome: 'missing', afterThrough: false,
    replayOf: { nodeId: 'javascript:alert(1)', toolUseId: 't0', summary: HOSTILE.slice(0, 200), outcome: 'missing', reason: 'missing-outcome', effect: '<script>alert(2)</script>' },
  },
];

function render(nodes: ExportedNode[], title = HOSTILE): string {
  const writer = htmlExportWriter();
  const session = { id: 's', source: 'claude-code' as const, title, project: '/p"><script>alert(1)</script>', startedAt: null, updatedAt: null };
  return writer.head({ session, head: 'n1', through: null, links: [], nodes: nodes.length, exportedAt: '2026-12-01T00:00:00.000Z', arborVersion: 'test' })
    + writer.nodes(nodes)
    + writer.tail({ redacted: 0, kept: 0, noRedact: false, sideEffects });
}

describe('the HTML export on hostile transcript text', () => {
  it('runs and loads nothing from prompts, replies, thinking, tool inputs, results and the title', () => {
    const html = render([
      node({}),
      node({ id: 'n2', kind: 'assistant', blocks: [{ type: 'text', text: HOSTILE }, { type: 'thinking', text: HOSTILE, redacted: false }] }),
      node({
        id: 'n3', kind: 'tool_call', blocks: [],
        toolCalls: [
          { id: 't1', name: '<img src=x onerror=alert(1)>', outcome: 'ok', input: { command: HOSTILE }, exitCode: 0, durationMs: null, result: `\u001b[31m${HOSTILE}\u001b[0m` },
          { id: 't2', name: 'Edit', outcome: 'error', input: { file_path: '"><script>x</script>', old_string: HOSTILE, new_string: HOSTILE }, exitCode: null, durationMs: null, result: HOSTILE },
          { id: 't3', name: 'Write', outcome: 'missing', input: { file_path: 'a', content: HOSTILE }, exitCode: null, durationMs: null, result: null },
        ],
      }),
      node({ id: 'n4', kind: 'compaction', label: 'Compacted', blocks: [{ type: 'text', text: HOSTILE }] }),
    ]);
    expectInert(html);
    expect(html).not.toMatch(/<style>body\{background:url/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('keeps http links as links and shows images as their names', () => {
    const html = render([node({ blocks: [{ type: 'text', text: 'see [docs](https://example.com/docs) and ![chart](https://example.com/c.png)' }] })], 'ok');
    expect(html).toContain('<a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a>');
    expect(html).toContain('[image: chart]');
    expectInert(html);
  });
});

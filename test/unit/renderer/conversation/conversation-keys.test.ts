import { describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../../shared/model';
import { branchPath, buildConversationStructure, conversationRows } from '../../../../renderer/src/conversation/branch-path';
import { conversationKeyAction } from '../../../../renderer/src/conversation/conversation-keys';
import { nodeSummary } from '../fake-client';

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();
const node = (id: string, parentId: string | null, kind: NodeSummary['kind'], second: number) => nodeSummary(id, { parentId, parentSourceId: parentId, kind, timestamp: at(second) });

function setUp() {
  const nodes = [node('u1', null, 'user', 0), node('t1', 'u1', 'thinking', 1), node('a1', 't1', 'assistant', 2), node('u2', 'a1', 'user', 3), node('a2', 'u2', 'assistant', 4), node('u3', 'a1', 'user', 5), node('a3', 'u3', 'assistant', 6)];
  const structure = buildConversationStructure(nodes);
  const { rows } = conversationRows(structure, branchPath(structure, structure.session.indexById.get('a3')!).path);
  const id = (action: ReturnType<typeof conversationKeyAction>) => (action?.kind === 'select' ? nodes[action.node]!.id : action?.kind === 'toggle' ? `toggle ${action.nodeId}` : null);
  return { structure, rows, id };
}

describe('conversation keys', () => {
  it('j/k step, n/p jump between prompts, [ and ] switch the branch above, Enter opens the selected row', () => {
    const { structure, rows, id } = setUp();
    const key = (row: number, k: string) => id(conversationKeyAction(structure, rows, row, k, null));
    // rows: u1 t1 a1 u3 a3
    expect(key(0, 'j')).toBe('t1');
    expect(key(1, 'k')).toBe('u1');
    expect(key(0, 'k')).toBe('u1');
    expect(key(0, 'n')).toBe('u3');
    expect(key(4, 'p')).toBe('u3');
    expect(key(4, '[')).toBe('u2');
    expect(key(4, ']')).toBeNull();
    expect(key(1, '[')).toBeNull();
    expect(key(1, 'Enter')).toBe('toggle t1');
    expect(key(-1, 'j')).toBe('u1');
    expect(key(0, 'x')).toBeNull();
  });

  it('leaves keys typed into a field to the field', () => {
    const { structure, rows } = setUp();
    const input = document.createElement('input');
    document.body.append(input);
    expect(conversationKeyAction(structure, rows, 0, 'j', input)).toBeNull();
    const button = document.createElement('button');
    document.body.append(button);
    expect(conversationKeyAction(structure, rows, 0, 'Enter', button)).toBeNull();
    expect(conversationKeyAction(structure, rows, 0, 'j', button)).not.toBeNull();
  });
});

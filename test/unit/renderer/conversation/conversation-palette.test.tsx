import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationModeSwitch } from '../../../../renderer/src/conversation/ConversationLayout';
import { conversationMode } from '../../../../renderer/src/conversation/conversation-mode';
import { paletteRegistry } from '../../../../renderer/src/palette/palette-registry';

afterEach(cleanup);

describe('the conversation in the command palette', () => {
  it('offers the full-width toggle under its key and each view while the switch is shown, and none once it is gone', () => {
    const view = render(<ConversationModeSwitch />);
    const toggle = paletteRegistry.actions().find((a) => a.id === 'conversation.toggle');
    expect(toggle?.keys).toBe('c');
    act(() => paletteRegistry.actions().find((a) => a.id === 'conversation.mode.graph')!.run());
    expect(conversationMode.getState().mode).toBe('graph');
    act(() => toggle!.run());
    expect(conversationMode.getState().mode).toBe('conversation');
    act(() => toggle!.run());
    expect(conversationMode.getState().mode).toBe('graph');
    expect(view.getByRole('button', { name: 'Graph' }).getAttribute('aria-pressed')).toBe('true');
    view.unmount();
    expect(paletteRegistry.actions().some((a) => a.id.startsWith('conversation.'))).toBe(false);
  });
});

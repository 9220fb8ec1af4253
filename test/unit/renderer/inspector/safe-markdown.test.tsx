import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { isOpenableUrl, SafeMarkdown } from '../../../../renderer/src/inspector/SafeMarkdown';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('SafeMarkdown', () => {
  it('renders markdown and GFM tables', () => {
    const { container } = render(<SafeMarkdown text={'# Title\n\n**bold** and `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |'} />);
    expect(container.querySelector('h1')?.textContent).toBe('Title');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('table td')?.textContent).toBe('1');
  });

  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(
      <SafeMarkdown text={'before <script>window.pwned = 1</script> <img src="x" onerror="alert(1)"> <b onclick="x()">bold?</b>\n\n<iframe src="https://evil.example"></iframe>'} />,
    );
    expect(container.querySelector('script, iframe, img, b')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    expect(container.innerHTML).not.toContain('onclick');
    expect(container.textContent).toContain('before');
  });

  it('never makes javascript: or data: links clickable', () => {
    const { container } = render(<SafeMarkdown text={'[x](javascript:alert(1)) [y](data:text/html,hi) [z](vbscript:msgbox)'} />);
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.textContent).toContain('x');
  });

  it('does not load images', () => {
    const { container } = render(<SafeMarkdown text={'![tracker](https://evil.example/pixel.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('[image: tracker]');
  });

  it('opens http links only after the user confirms, with noopener', () => {
    // happy-dom has no confirm(); install fakes for this test only.
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    const open = vi.fn(() => null);
    const saved = { confirm: window.confirm, open: window.open };
    Object.assign(window, { confirm, open });
    onTestFinished(() => {
      Object.assign(window, saved);
    });
    const { container } = render(<SafeMarkdown text={'[docs](https://example.com/docs)'} />);
    const link = container.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.com/docs');
    fireEvent.click(link!);
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(link!);
    expect(confirm).toHaveBeenLastCalledWith('Open https://example.com/docs in your browser?');
    expect(open).toHaveBeenCalledWith('https://example.com/docs', '_blank', 'noopener,noreferrer');
  });

  it('allows only http, https and mailto', () => {
    expect(isOpenableUrl('https://a.b')).toBe(true);
    expect(isOpenableUrl('mailto:a@b.c')).toBe(true);
    expect(isOpenableUrl('javascript:alert(1)')).toBe(false);
    expect(isOpenableUrl('JAVASCRIPT:alert(1)')).toBe(false);
    expect(isOpenableUrl('file:///etc/passwd')).toBe(false);
    expect(isOpenableUrl('/relative')).toBe(false);
    expect(isOpenableUrl(undefined)).toBe(false);
  });
});

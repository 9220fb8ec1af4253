import { memo, type MouseEvent, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Only these schemes become clickable links; everything else is shown as text. */
export function isOpenableUrl(href: string | undefined): href is string {
  if (!href) return false;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** Transcript text is untrusted: links leave the app only after the user confirms. */
export function openExternal(url: string): void {
  if (!isOpenableUrl(url)) return;
  if (window.confirm(`Open ${url} in your browser?`)) window.open(url, '_blank', 'noopener,noreferrer');
}

function SafeLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (!isOpenableUrl(href)) return <span className="md-link md-link--inert">{children}</span>;
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    openExternal(href);
  };
  return (
    <a className="md-link" href={href} title={href} onClick={onClick} rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Images are never fetched: a transcript must not make the app call out to arbitrary hosts. */
function InertImage({ alt, src }: { alt?: string; src?: string }) {
  return (
    <span className="md-image" title={src}>
      [image{alt ? `: ${alt}` : ''}]
    </span>
  );
}

const components: Components = {
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  img: ({ alt, src }) => <InertImage alt={alt} src={typeof src === 'string' ? src : undefined} />,
};

const remarkPlugins = [remarkGfm];

/** Markdown as React elements only: raw HTML in the source is dropped (skipHtml), never parsed. */
export const SafeMarkdown = memo(function SafeMarkdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
});

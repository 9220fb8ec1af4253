/**
 * A light highlighter for the code a Read or Write shows in the conversation: comments, strings, numbers
 * and keywords, by file extension. A full grammar (CodeMirror) per row would be too heavy for thousands
 * of rows; the Files tab keeps the real editor.
 */

export type TokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword';
export interface CodeToken {
  readonly kind: TokenKind;
  readonly text: string;
}

interface Language {
  readonly lineComment: readonly string[];
  readonly blockComment: boolean;
  readonly quotes: string;
  readonly keywords: ReadonlySet<string>;
}

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const C_LIKE_KEYWORDS = words(`
  abstract as async await break case catch class const continue default delete do else enum export extends
  false finally for from function if implements import in instanceof interface let new null of private
  protected public readonly return static super switch this throw true try type typeof undefined var void
  while yield fn pub impl struct mut use match mod trait func package go defer chan map range select int
  char long double float bool boolean string number unsigned signed sizeof include define`);
const PYTHON_KEYWORDS = words(`
  and as assert async await break class continue def del elif else except False finally for from global if
  import in is lambda None nonlocal not or pass raise return True try while with yield self`);
const SHELL_KEYWORDS = words(`if then else elif fi for while do done case esac in function return export local echo exit`);

const C_LIKE: Language = { lineComment: ['//'], blockComment: true, quotes: `'"\``, keywords: C_LIKE_KEYWORDS };
const PYTHON: Language = { lineComment: ['#'], blockComment: false, quotes: `'"`, keywords: PYTHON_KEYWORDS };
const SHELL: Language = { lineComment: ['#'], blockComment: false, quotes: `'"`, keywords: SHELL_KEYWORDS };
const DATA: Language = { lineComment: ['#'], blockComment: false, quotes: `'"`, keywords: words('true false null') };
const JSON_LIKE: Language = { lineComment: [], blockComment: false, quotes: '"', keywords: words('true false null') };

const BY_EXTENSION: Readonly<Record<string, Language>> = {
  ts: C_LIKE, tsx: C_LIKE, js: C_LIKE, jsx: C_LIKE, mjs: C_LIKE, cjs: C_LIKE, mts: C_LIKE, cts: C_LIKE,
  c: C_LIKE, h: C_LIKE, cc: C_LIKE, cpp: C_LIKE, hpp: C_LIKE, java: C_LIKE, kt: C_LIKE, go: C_LIKE, rs: C_LIKE,
  swift: C_LIKE, cs: C_LIKE, css: C_LIKE, scss: C_LIKE,
  py: PYTHON, sh: SHELL, bash: SHELL, zsh: SHELL, yml: DATA, yaml: DATA, toml: DATA,
  json: JSON_LIKE, jsonc: C_LIKE,
};

/** The language of a path by its extension, or null (shown plain: markdown, text, unknown). */
export function languageOf(path: string | null): Language | null {
  if (path === null) return null;
  const dot = path.lastIndexOf('.');
  return dot < 0 ? null : (BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? null);
}

/** Past this, code is shown plain: a single minified line can be megabytes. */
export const HIGHLIGHT_MAX_CHARS = 100_000;

export function tokenize(text: string, language: Language | null): CodeToken[] {
  if (language === null || text.length > HIGHLIGHT_MAX_CHARS) return [{ kind: 'plain', text }];
  const tokens: CodeToken[] = [];
  let plain = '';
  const push = (kind: TokenKind, value: string) => {
    if (plain) tokens.push({ kind: 'plain', text: plain });
    plain = '';
    tokens.push({ kind, text: value });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const line = language.lineComment.find((marker) => text.startsWith(marker, i));
    if (line !== undefined && (line !== '#' || i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      push('comment', text.slice(i, stop));
      i = stop;
    } else if (language.blockComment && text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      push('comment', text.slice(i, stop));
      i = stop;
    } else if (language.quotes.includes(ch)) {
      let j = i + 1;
      while (j < text.length && text[j] !== ch && !(ch !== '`' && text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
      const stop = Math.min(text.length, j + 1);
      push('string', text.slice(i, stop));
      i = stop;
    } else if (/[0-9]/.test(ch) && (i === 0 || !/[\w$]/.test(text[i - 1]!))) {
      const match = /^(0x[0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 40));
      const value = match ? match[0] : ch;
      push('number', value);
      i += value.length;
    } else if (/[A-Za-z_$]/.test(ch) && (i === 0 || !/[\w$]/.test(text[i - 1]!))) {
      let j = i + 1;
      while (j < text.length && /[\w$]/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      if (language.keywords.has(word)) push('keyword', word);
      else plain += word;
      i = j;
    } else {
      plain += ch;
      i++;
    }
  }
  if (plain) tokens.push({ kind: 'plain', text: plain });
  return tokens;
}

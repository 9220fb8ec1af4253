/**
 * Splits a shell command line into the simple commands it runs, for side-effect classification: parts of
 * pipelines, `&&`/`||`/`;`/`&` lists, subshells, command and process substitutions (their inner commands run
 * too, so they are returned as commands of their own). Quotes and escapes are honoured; heredoc bodies and
 * comments are skipped; output redirections are kept per command. It is not a full shell grammar: anything
 * it cannot follow sets `unparseable`, and the classifier then says 'unknown'.
 */

export interface SimpleCommand {
  /** Words as the shell would pass them (quotes removed); a substitution inside a word reads `$(…)`. */
  readonly words: readonly string[];
  /** Targets of `>`, `>>`, `&>`, `>|` redirections (not descriptor duplications like `2>&1`). */
  readonly writesTo: readonly string[];
}

export interface ParsedShell {
  readonly commands: readonly SimpleCommand[];
  readonly unparseable: boolean;
}

/** Placeholder for a substitution inside a word: its value is not known until the command runs. */
export const SUBSTITUTION = '$(…)';

type Redirect = 'output' | 'input' | 'heredoc' | null;

class Scanner {
  readonly commands: SimpleCommand[] = [];
  unparseable = false;
  private words: string[] = [];
  private writesTo: string[] = [];
  private word: string | null = null;
  private redirect: Redirect = null;
  private heredocs: string[] = [];
  i = 0;

  constructor(private readonly text: string) {}

  /** Scans until `stop` (a closing `)` or backtick of a substitution) or the end; returns at the index after it. */
  scan(stop: ')' | '`' | null): void {
    const { text } = this;
    let depth = 0; // plain `(` subshells opened inside this scan
    while (this.i < text.length) {
      const ch = text[this.i]!;
      const next = text[this.i + 1];
      if (ch === "'") {
        this.singleQuoted();
        continue;
      }
      if (ch === '"') {
        this.doubleQuoted();
        continue;
      }
      if (ch === '\\') {
        if (next === '\n') this.i += 2; // line continuation
        else {
          this.append(next ?? '');
          this.i += 2;
        }
        continue;
      }
      if (ch === '`') {
        if (stop === '`') {
          this.i++;
          this.endCommand();
          return;
        }
        this.substitution('`');
        continue;
      }
      if (ch === '$' && next === '(') {
        if (text[this.i + 2] === '(') this.arithmetic();
        else this.substitution(')');
        continue;
      }
      if ((ch === '<' || ch === '>') && next === '(') {
        this.substitution(')'); // process substitution: its command runs
        continue;
      }
      if (ch === '#' && this.word === null) {
        while (this.i < text.length && text[this.i] !== '\n') this.i++;
        continue;
      }
      this.i++;
      switch (ch) {
        case ' ':
        case '\t':
        case '\r':
          this.endWord();
          break;
        case '\n':
          this.endCommand();
          this.skipHeredocBodies();
          break;
        case ';':
        case '|':
          this.endCommand();
          if (text[this.i] === ch || (ch === '|' && text[this.i] === '&')) this.i++;
          break;
        case '&':
          if (text[this.i] === '>') {
            this.i += text[this.i + 1] === '>' ? 2 : 1;
            this.startRedirect('output');
          } else {
            this.endCommand();
            if (text[this.i] === '&') this.i++;
          }
          break;
        case '(':
          depth++;
          this.endCommand();
          break;
        case ')':
          if (depth === 0 && stop === ')') {
            this.endCommand();
            return;
          }
          if (depth === 0) this.unparseable = true; // a `)` closing nothing: `case` patterns and the like
          depth = Math.max(0, depth - 1);
          this.endCommand();
          break;
        case '>':
          this.greater();
          break;
        case '<':
          this.less();
          break;
        default:
          this.append(ch);
      }
    }
    if (stop !== null || depth > 0) this.unparseable = true;
    this.endCommand();
  }

  private append(text: string): void {
    this.word = (this.word ?? '') + text;
  }

  private singleQuoted(): void {
    const end = this.text.indexOf("'", this.i + 1);
    if (end < 0) {
      this.unparseable = true;
      this.append(this.text.slice(this.i + 1));
      this.i = this.text.length;
      return;
    }
    this.append(this.text.slice(this.i + 1, end));
    this.i = end + 1;
  }

  private doubleQuoted(): void {
    const { text } = this;
    this.append('');
    this.i++;
    while (this.i < text.length) {
      const ch = text[this.i]!;
      if (ch === '"') {
        this.i++;
        return;
      }
      if (ch === '\\' && this.i + 1 < text.length) {
        const escaped = text[this.i + 1]!;
        this.append('"\\$`\n'.includes(escaped) ? (escaped === '\n' ? '' : escaped) : `\\${escaped}`);
        this.i += 2;
      } else if (ch === '`') {
        this.substitution('`');
      } else if (ch === '$' && text[this.i + 1] === '(') {
        if (text[this.i + 2] === '(') this.arithmetic();
        else this.substitution(')');
      } else {
        this.append(ch);
        this.i++;
      }
    }
    this.unparseable = true; // unterminated
  }

  /** `$(…)`, `<(…)`, `>(…)` or backticks: the inner commands are scanned as commands of their own. */
  private substitution(stop: ')' | '`'): void {
    this.i += stop === '`' ? 1 : 2;
    const inner = new Scanner(this.text);
    inner.i = this.i;
    inner.scan(stop);
    this.commands.push(...inner.commands);
    if (inner.unparseable) this.unparseable = true;
    this.i = inner.i;
    this.append(SUBSTITUTION);
  }

  /** `$((…))` computes a number: no command runs. */
  private arithmetic(): void {
    const end = this.text.indexOf('))', this.i + 3);
    if (end < 0) {
      this.unparseable = true;
      this.i = this.text.length;
      return;
    }
    this.append(SUBSTITUTION);
    this.i = end + 2;
  }

  private greater(): void {
    const { text } = this;
    // A descriptor number just before `>` belongs to the redirection.
    if (this.word !== null && /^\d+$/.test(this.word)) this.word = null;
    this.endWord();
    if (text[this.i] === '>' || text[this.i] === '|') this.i++;
    if (text[this.i] === '&') {
      // `>&2`, `2>&1`: duplicates a descriptor. `>& file` (csh style) writes a file.
      this.i++;
      while (text[this.i] === ' ') this.i++;
      const target = /^(\d+|-)/.exec(text.slice(this.i));
      if (target) this.i += target[0].length;
      else this.startRedirect('output');
      return;
    }
    this.startRedirect('output');
  }

  private less(): void {
    const { text } = this;
    if (this.word !== null && /^\d+$/.test(this.word)) this.word = null;
    this.endWord();
    if (text[this.i] === '<') {
      this.i++;
      if (text[this.i] === '<') {
        this.i++; // here-string: its word is data
        this.startRedirect('input');
        return;
      }
      if (text[this.i] === '-') this.i++;
      this.startRedirect('heredoc');
      return;
    }
    if (text[this.i] === '&' || text[this.i] === '>') this.i++;
    this.startRedirect('input');
  }

  private startRedirect(kind: Redirect): void {
    this.endWord();
    this.redirect = kind;
  }

  private endWord(): void {
    if (this.word === null) return;
    const word = this.word;
    this.word = null;
    const redirect = this.redirect;
    this.redirect = null;
    if (redirect === 'output') this.writesTo.push(word);
    else if (redirect === 'heredoc') this.heredocs.push(word);
    else if (redirect === null) this.words.push(word);
  }

  endCommand(): void {
    this.endWord();
    if (this.redirect !== null) this.unparseable = true; // `>` with no target
    this.redirect = null;
    if (this.words.length > 0 || this.writesTo.length > 0) this.commands.push({ words: this.words, writesTo: this.writesTo });
    this.words = [];
    this.writesTo = [];
  }

  /** After a newline: the bodies of pending heredocs are data, up to their delimiter lines. */
  private skipHeredocBodies(): void {
    const { text } = this;
    while (this.heredocs.length > 0) {
      const delimiter = this.heredocs.shift()!;
      for (;;) {
        if (this.i >= text.length) {
          this.unparseable = true;
          return;
        }
        const end = text.indexOf('\n', this.i);
        const line = text.slice(this.i, end < 0 ? text.length : end);
        this.i = end < 0 ? text.length : end + 1;
        if (line.replace(/^\t+/, '') === delimiter) break;
      }
    }
  }

  finish(): void {
    // Heredocs on the last line with no body are harmless: there is nothing left to run.
    this.heredocs = [];
  }
}

export function parseShell(command: string): ParsedShell {
  const scanner = new Scanner(command);
  scanner.scan(null);
  scanner.finish();
  return { commands: scanner.commands, unparseable: scanner.unparseable };
}

/** The HTML export's stylesheet, inline in the file: light by default, dark when the reader's system is. */
export const EXPORT_CSS = `
:root{--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--code:#f6f8fa;--accent:#0969da;
--user:#ddf4ff;--user-line:#54aeff;--error:#cf222e;--error-bg:#ffebe9;--ok:#1a7f37;--missing:#9a6700;--missing-bg:#fff8c5;
--add:#dafbe1;--add-fg:#116329;--del:#ffebe9;--del-fg:#82071e;--agent:#fbefff;--agent-line:#c297ff;
--ansi-red:#cf222e;--ansi-green:#116329;--ansi-yellow:#9a6700;--ansi-blue:#0550ae;--ansi-magenta:#8250df;--ansi-cyan:#1b7c83;--ansi-white:#59636e;--ansi-black:#1f2328}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--code:#151b23;--accent:#4493f8;
--user:#0c2d4a;--user-line:#1f6feb;--error:#ff7b72;--error-bg:#3c1618;--ok:#3fb950;--missing:#d29922;--missing-bg:#3a2d0a;
--add:#12361f;--add-fg:#7ee787;--del:#3c1618;--del-fg:#ffa198;--agent:#2a1f3d;--agent-line:#8957e5;
--ansi-red:#ff7b72;--ansi-green:#7ee787;--ansi-yellow:#e3b341;--ansi-blue:#79c0ff;--ansi-magenta:#d2a8ff;--ansi-cyan:#76e3ea;--ansi-white:#c9d1d9;--ansi-black:#8b949e}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0 auto;max-width:980px;padding:24px 20px 48px;font:15px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;overflow-wrap:anywhere}
h1{font-size:1.6em;margin:0 0 12px;line-height:1.25}
pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0;white-space:pre-wrap;word-break:break-word;max-height:480px;overflow:auto}
code{background:var(--code);border-radius:4px;padding:1px 4px}
pre code{background:none;padding:0}
a{color:var(--accent)}
.export-head{border-bottom:1px solid var(--line);padding-bottom:12px;margin-bottom:16px}
.export-head dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0;color:var(--muted);font-size:13px}
.export-head dt{font-weight:600}
.export-head dd{margin:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.export-foot{border-top:1px solid var(--line);margin-top:24px;padding-top:10px;color:var(--muted);font-size:13px}
.step{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0;background:var(--bg)}
.step--user{background:var(--user);border-left:4px solid var(--user-line)}
.step--error{border-left:4px solid var(--error)}
.step--agent{background:var(--agent)}
.step__role{font-weight:600;font-size:13px;margin-bottom:4px}
.step__meta{font-weight:400;color:var(--muted);margin-left:8px}
.branch{display:inline-block;font-size:12px;color:var(--muted);border:1px solid var(--line);border-radius:10px;padding:0 8px;margin-bottom:4px}
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown table{border-collapse:collapse}.markdown td,.markdown th{border:1px solid var(--line);padding:2px 8px}
.markdown blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--line);color:var(--muted)}
.thinking{color:var(--muted);margin:6px 0}
.thinking summary{cursor:pointer;font-style:italic}
.call{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:8px 0;background:var(--panel)}
.call--error{border-color:var(--error)}
.call--missing{border-style:dashed;border-color:var(--missing)}
.call__head{display:flex;gap:8px;align-items:baseline;font-size:13px}
.call__name{font-weight:600;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.outcome{font-size:12px;border-radius:10px;padding:0 8px;color:var(--ok);border:1px solid currentColor}
.outcome--error{color:var(--error)}
.outcome--missing{color:var(--missing);background:var(--missing-bg)}
.path{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--muted);margin-top:4px}
.prompt-mark{color:var(--muted);user-select:none}
.result--error{background:var(--error-bg);border-color:var(--error);color:var(--fg)}
.diff span{display:block}
.diff__added{background:var(--add);color:var(--add-fg)}
.diff__removed{background:var(--del);color:var(--del-fg)}
.diff__hunk{color:var(--muted)}
.compaction{margin:20px 0}
.compaction__rule{display:flex;align-items:center;gap:10px;color:var(--muted);font-size:13px}
.compaction__rule::before,.compaction__rule::after{content:"";flex:1;border-top:1px dashed var(--line)}
.compaction details{margin:6px 0 0;color:var(--muted)}
.annotation{color:var(--muted);font-size:13px;margin:6px 14px}
.agent-run{border-left:3px solid var(--agent-line);padding-left:10px;margin:6px 0 6px 14px}
.agent-run>summary{cursor:pointer;color:var(--muted);font-size:13px}
.inert,.inert-link{color:var(--muted)}
.effects{border-top:1px solid var(--line);margin-top:24px;padding-top:8px}
.effects h2{font-size:1.2em;margin:0 0 6px}
.effects__intro{color:var(--muted);font-size:13px;margin:0 0 8px}
.effects__list{list-style:none;margin:0;padding:0}
.effect{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline;padding:4px 0;border-bottom:1px solid var(--line);font-size:13px}
.effect__kind{font-weight:600;min-width:7em}
.effect__summary{color:inherit;text-decoration:none;min-width:0}
.effect__replay{flex-basis:100%;margin:2px 0 0;color:var(--missing);background:var(--missing-bg);border-radius:4px;padding:2px 8px}
.ansi-red-fg,.ansi-bright-red-fg{color:var(--ansi-red)}.ansi-green-fg,.ansi-bright-green-fg{color:var(--ansi-green)}
.ansi-yellow-fg,.ansi-bright-yellow-fg{color:var(--ansi-yellow)}.ansi-blue-fg,.ansi-bright-blue-fg{color:var(--ansi-blue)}
.ansi-magenta-fg,.ansi-bright-magenta-fg{color:var(--ansi-magenta)}.ansi-cyan-fg,.ansi-bright-cyan-fg{color:var(--ansi-cyan)}
.ansi-white-fg,.ansi-bright-white-fg{color:var(--ansi-white)}.ansi-black-fg,.ansi-bright-black-fg{color:var(--ansi-black)}
.ansi-bold{font-weight:700}.ansi-italic{font-style:italic}.ansi-underline{text-decoration:underline}
`.trim();

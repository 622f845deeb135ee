// The output pane: stdout and stderr as the script prints them (batched into one DOM update per
// animation frame), stderr in red, tracebacks readable: the "line N" of the user's own file is a
// link that puts the editor's cursor on that line, frames inside library code fold into one line,
// the exception line is bold.
//
//   const out = new OutputPane(preElement, { userFile: "/home/pyodide/main.py", onLine: (n) => ... });
//   out.write("stdout" | "stderr" | "note", text); out.end(); out.clear(); out.text();
//   out.lastUserLine  (the last line of the user's file a traceback named, or null)

const MAX_CHARS = 400_000;    // older output is dropped past this (an endless print loop stays cheap)
const EXC_LINE = /^([A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit|Warning)|KeyboardInterrupt|StopIteration)\b/;

export class OutputPane {
  constructor(el, { userFile, onLine = () => {} } = {}) {
    this.el = el;
    this.userFile = userFile;
    this.onLine = onLine;
    this.queue = [];               // [stream, text] not yet in the DOM
    this.partialErr = "";          // stderr is rendered by whole lines (a traceback line may arrive in pieces)
    this.chars = 0;
    this.scheduled = false;
    this.lastUserLine = null;
    this.inTraceback = false;
    this.libGroup = null;          // the open run of library frames (folded into one line)
    el.addEventListener("click", (ev) => {
      const a = ev.target.closest("a.lineref");
      if (a) { ev.preventDefault(); this.onLine(Number(a.dataset.line)); }
    });
  }

  clear() {
    this.queue = [];
    this.partialErr = "";
    this.chars = 0;
    this.lastUserLine = null;
    this.inTraceback = false;
    this.libGroup = null;
    this.el.textContent = "";
  }

  write(stream, text) {
    if (!text) return;
    this.queue.push([stream, text]);
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this._render());
    }
  }

  // The run ended: show what is left of a stderr line without its newline.
  end() {
    if (this.partialErr) { this.queue.push(["stderr-end", ""]); }
    this._render();
  }

  text() { return this.el.textContent; }

  _render() {
    this.scheduled = false;
    if (!this.queue.length) return;
    const atBottom = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 30;
    const frag = document.createDocumentFragment();
    for (const [stream, text] of this.queue) {
      if (stream === "stderr" || stream === "stderr-end") {
        const lines = (this.partialErr + text).split("\n");
        this.partialErr = stream === "stderr-end" ? "" : lines.pop();
        for (let i = 0; i < lines.length; i++) {
          const last = stream === "stderr-end" && i === lines.length - 1;
          if (last && !lines[i]) continue;
          frag.appendChild(this._errLine(lines[i] + (last ? "" : "\n")));
        }
      } else {
        const span = document.createElement("span");
        if (stream === "note") span.className = "note";
        span.textContent = text;
        frag.appendChild(span);
      }
      this.chars += text.length;
    }
    this.queue = [];
    this.el.appendChild(frag);
    while (this.chars > MAX_CHARS && this.el.firstChild) {
      this.chars -= this.el.firstChild.textContent.length;
      this.el.removeChild(this.el.firstChild);
    }
    if (atBottom) this.el.scrollTop = this.el.scrollHeight;
  }

  // One stderr line: frames of the user's file get a clickable "line N"; consecutive frames of
  // library code fold into one line that opens on click.
  _errLine(line) {
    const span = document.createElement("span");
    span.className = "err";
    if (line.startsWith("Traceback (most recent call last)")) {
      this.inTraceback = true;
      span.classList.add("tb-head");
    }
    const m = line.match(/^(\s*File ")([^"]+)(", )(line (\d+))(.*)$/s);
    const frameBody = this.libGroup && !m && /^\s{4}/.test(line);   // a library frame's source and ^^^ lines
    if (!frameBody && !(m && m[2] !== this.userFile)) this.libGroup = null;
    if (m && m[2] === this.userFile) {
      const n = Number(m[5]);
      this.lastUserLine = n;
      span.classList.add("user-frame");
      span.append(m[1], this._shortName(m[2]), m[3]);
      const a = document.createElement("a");
      a.className = "lineref";
      a.href = "#";
      a.dataset.line = String(n);
      a.title = "Show this line in the editor";
      a.textContent = m[4];
      span.append(a, m[6]);
      return span;
    }
    if (m || frameBody) {
      span.classList.add("lib-frame");
      span.append(line);
      if (frameBody) { this.libGroup.body.appendChild(span); return document.createTextNode(""); }
      return this._libFrame(span);
    }
    if (this.inTraceback && EXC_LINE.test(line)) { span.classList.add("exc"); this.inTraceback = false; }
    if (!this.inTraceback && line.startsWith("note: ")) span.className = "note";   // e.g. the 'import torch' note
    span.append(line);
    return span;
  }

  // A library frame joins the open group, or opens one (returned for the caller to append).
  _libFrame(span) {
    if (this.libGroup) {
      this.libGroup.body.appendChild(span);
      this.libGroup.count++;
      this.libGroup.render();
      return document.createTextNode("");
    }
    const group = document.createElement("span");
    group.className = "lib-group folded";
    const label = document.createElement("span");
    label.className = "lib-toggle";
    label.title = "Show or hide the frames inside borch_webgpu and the standard library";
    const body = document.createElement("span");
    body.className = "lib-body";
    body.appendChild(span);
    group.append(label, body);
    const g = this.libGroup = {
      body, count: 1,
      render: () => {
        const open = !group.classList.contains("folded");
        label.textContent = `  … ${g.count} frame${g.count > 1 ? "s" : ""} in library code (${open ? "hide" : "show"})\n`;
      },
    };
    label.addEventListener("click", () => { group.classList.toggle("folded"); g.render(); });
    g.render();
    return group;
  }

  _shortName(path) { return path.substring(path.lastIndexOf("/") + 1); }
}

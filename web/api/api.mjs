// Search the API reference as you type: ranks the names in index.json (exact name, then prefix, then
// substring of the name, then of the full name; among equals the name spelled as typed first) and lists the best 200. ?q=... fills the box. PyTorch
// names that borch_webgpu lacks (coverage.json) are listed after them, marked "not in borch_webgpu".
const input = document.getElementById("api-search");
const results = document.getElementById("api-results");
const count = document.getElementById("api-count");
const content = document.getElementById("api-content");

const index = await (await fetch(new URL("index.json", import.meta.url))).json();
const entries = index.entries.map((e) => ({ ...e, lname: e.name.toLowerCase(), lqual: e.qualname.toLowerCase() }));
const pageURL = (e) => new URL(`${e.page}#${e.qualname}`, import.meta.url).href;
const coverage = await (await fetch(new URL("coverage.json", import.meta.url))).json();
const missing = coverage.namespaces.flatMap((ns) => ns.missing.map((name) => {
  const qualname = `${ns.namespace}.${name}`;
  return { name, qualname, ns: ns.namespace, lname: name.toLowerCase(), lqual: qualname.toLowerCase() };
}));
const MAX_MISSING = 20;

function rank(e, q) {
  if (e.lname === q || e.lqual === q) return 0;
  if (e.lname.startsWith(q)) return 1;
  if (e.lname.includes(q)) return 2;
  if (e.lqual.includes(q)) return 3;
  return -1;
}

function item(e) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = pageURL(e);
  const code = document.createElement("code");
  code.textContent = e.qualname;
  a.appendChild(code);
  const kind = document.createElement("span");
  kind.className = "kind";
  kind.textContent = e.kind;
  const text = document.createElement("span");
  text.className = "muted";
  text.textContent = e.summary ? " " + e.summary : "";
  li.append(kind, " ", a, text);
  return li;
}

function missingItem(e) {
  const li = document.createElement("li");
  li.className = "missing";
  const code = document.createElement("code");
  code.textContent = e.qualname;
  const a = document.createElement("a");
  a.href = new URL(`coverage.html#${e.ns}`, import.meta.url).href;
  a.textContent = "see coverage";
  li.append(code, ` not in borch_webgpu (PyTorch ${coverage.torch_version} has it; `, a, ")");
  return li;
}

function search() {
  const q = input.value.trim().toLowerCase();
  if (!q) {
    results.hidden = true;
    if (content) content.hidden = false;
    count.textContent = "";
    return;
  }
  const typed = input.value.trim();   // "Conv2d" puts torch.nn.Conv2d before torch.conv2d
  const hits = [];
  for (const e of entries) {
    const r = rank(e, q);
    if (r >= 0) hits.push([r, e.name === typed ? 0 : 1, e.member_of ? 1 : 0, e.qualname.length, e]);
  }
  hits.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
  const lacking = [];
  for (const e of missing) {
    const r = rank(e, q);
    if (r >= 0 && r <= 2) lacking.push([r, e.qualname.length, e]);   // by name, not by namespace
  }
  lacking.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  results.replaceChildren(...hits.slice(0, 200).map((h) => item(h[4])),
                          ...lacking.slice(0, MAX_MISSING).map((h) => missingItem(h[2])));
  results.hidden = false;
  if (content) content.hidden = true;
  const ours = hits.length === 1 ? "1 name" : `${hits.length} names`;
  count.textContent = lacking.length
    ? `${ours}; ${lacking.length} PyTorch name${lacking.length > 1 ? "s" : ""} not in borch_webgpu (see coverage)`
    : ours;
}

input.addEventListener("input", search);
results.addEventListener("click", (ev) => {   // a hit on this same page: show the page again, then jump
  const a = ev.target.closest("a");
  if (a && a.pathname === location.pathname) { input.value = ""; search(); }
});
input.addEventListener("keydown", (ev) => {
  const first = results.querySelector("a");
  if (ev.key === "Enter" && first) location.href = first.href;
});
// a class member lives in its class's collapsed <details>: open it when the address points there
function reveal() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  target.scrollIntoView();
}
window.addEventListener("hashchange", reveal);
reveal();
const q = new URLSearchParams(location.search).get("q");
if (q) { input.value = q; search(); }
window.borchApiReady = true;

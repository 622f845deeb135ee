// Keeps the editor's code in the page's URL (#code=<base64url of deflate-raw>, compressed with the
// browser's CompressionStream) and in localStorage, so a reload or a shared link shows the same code.
// #example=<name> opens one of the examples.

const STORAGE_KEY = "borch_webgpu.playground.code";

function toBase64Url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

export async function encodeCode(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

export async function decodeCode(token) {
  return new TextDecoder().decode(await pipe(fromBase64Url(token), new DecompressionStream("deflate-raw")));
}

// What the URL or storage holds: {code, source: "link"|"storage"} or {example} or null.
export async function loadSaved() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("code")) {
    try {
      return { code: await decodeCode(hash.get("code")), source: "link" };
    } catch (e) {
      console.warn("playground: the #code in this link could not be read", e);
    }
  }
  if (hash.has("example")) return { example: hash.get("example") };
  try {
    const code = localStorage.getItem(STORAGE_KEY);
    if (code !== null) return { code, source: "storage" };
  } catch (e) { /* storage switched off */ }
  return null;
}

// Saves the code (debounced by the caller): the URL's hash without a history entry, and storage.
export async function save(text) {
  const token = await encodeCode(text);
  history.replaceState(null, "", `${location.pathname}${location.search}#code=${token}`);
  try { localStorage.setItem(STORAGE_KEY, text); } catch (e) { /* storage full or off: the URL still has it */ }
  return token;
}

export function showExample(name) {
  history.replaceState(null, "", `${location.pathname}${location.search}#example=${encodeURIComponent(name)}`);
  try { localStorage.removeItem(STORAGE_KEY); } catch (e) { /* storage off */ }
}

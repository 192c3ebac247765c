/* Loto service worker: the app shell opens without network, and never stays stale with it.

   Registered by the page head (loto_app.py) as /sw.js?v=<build>, where <build> is the hash
   of the production build's React Router manifest (/assets/manifest-<build>.js), which changes
   whenever any JS or CSS of any page changes. A new build therefore means a new service-worker
   URL: the browser installs this file again under the new version, which precaches the new
   build into a new cache and, once active, deletes every older Loto cache.

   - install: fetch the pages (/, /jouer, /animateur, /ecran) from the network, collect the
     /assets/... files they load (and the files those load), and store them all in
     "loto-shell-<REVISION>-<build>"; then take over at once (skipWaiting + clients.claim).
     Each fetch is given up after 20 s and tried three times in all; a failed install is
     tried again by the page (loto_app.py).
   - navigations: network first (revalidating the HTTP cache), the fresh page is stored;
     the cached copy is served only when the network fails (or a proxy answers 502/503/504),
     else offline.html ("Pas de connexion : ...").
   - /assets/...: hashed, immutable file names: cache first, network on a miss (stored).
   - other files of this origin that a page loads (scripts, styles, images, fonts, the web
     manifest: assets/ of the repo, served from /, e.g. /loto.js, the icons): network first,
     stored, the cached copy when offline. Those named in the build's JS are precached too.
     A change to those files alone (no JS or CSS change) keeps the build hash: online they
     are fresh anyway, and their cached copies are refreshed as they are used.
   - a change to this file alone is a byte change: the browser installs it again, in the
     same cache; bump REVISION when the caching logic changes, to start from an empty cache.
   - everything else is not touched: the Reflex websocket and its polling fallback (/_event),
     /ping, /_upload, /_health, any other /_... endpoint, other origins, and every non-GET.
*/
"use strict";

// Bump when the caching logic in this file changes (the build version covers the app).
const REVISION = 1;
const PREFIX = "loto-shell-";
const BUILD =
  (new URL(self.location.href).searchParams.get("v") || "dev").replace(/[^\w-]/g, "") || "dev";
const CACHE = `${PREFIX}${REVISION}-${BUILD}`;

const PAGES = ["/", "/jouer", "/animateur", "/ecran"];
const OFFLINE_URL = "/offline.html";
const SHELL_FILES = [
  OFFLINE_URL,
  "/manifest.webmanifest",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
  "/icons/apple-touch-icon.png",
  "/icons/favicon-32.png",
];
// Backend endpoints: never answered from a cache, whatever the method.
const BYPASS = /^\/(?:_|ping(?:\/|$)|auth-codespace(?:\/|$))/;
// Files referenced from HTML, JS or CSS: absolute /assets/... or relative ./name.ext
const ASSET_REF = /\/assets\/[\w.~%@+-]+\.\w+/g;
const FILE_EXT = "(?:js|mjs|css|woff2?|ttf|otf|png|svg|webp|jpe?g|gif|ico)";
const RELATIVE_REF = new RegExp(`["'\`(]\\./([\\w.~%@+-]+\\.${FILE_EXT})["'\`)]`, "g");
// Files of the repo's assets/ that a page loads by itself, e.g. rx.script(src="/loto.js")
const ROOT_REF = new RegExp(`["'\`](/[\\w.~%@+-]+(?:/[\\w.~%@+-]+)*\\.${FILE_EXT})["'\`]`, "g");
const STATIC_DESTINATIONS = ["script", "style", "image", "font", "manifest"];
const MAX_ASSETS = 400;

function pageKey(url) {
  // "/jouer/" and "/jouer?code=ABC" are the page "/jouer"
  return new URL(url.pathname.replace(/\/+$/, "") || "/", self.location.origin).href;
}

async function clean(response) {
  // A redirected response cannot answer a navigation: store a plain copy.
  if (!response.redirected) return response;
  return new Response(await response.blob(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

// A fetch of the install that fails (the hall's Wi-Fi drops it, a busy server answers 502, or
// it hangs) is tried again: the install is all or nothing, and a failed one is only tried
// again when the page registers the worker again (loto_app.py: a few times, spaced out).
const FETCH_TIMEOUT_MS = 20000;
const FETCH_RETRIES_MS = [1000, 3000];

async function fetchOnce(url) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), FETCH_TIMEOUT_MS);
  try {
    return await fetch(url, {
      cache: "no-cache",
      credentials: "same-origin",
      signal: abort.signal,
    });
  } finally {
    clearTimeout(timer);
  }
}

async function fetchOk(url) {
  for (let attempt = 0; ; attempt += 1) {
    let response;
    let error;
    try {
      response = await fetchOnce(url);
      if (response.ok) return clean(response);
      error = new Error(`${url}: HTTP ${response.status}`);
    } catch (e) {
      error = new Error(`${url}: ${e}`);
    }
    // a 4xx is the server's answer: asking again changes nothing
    const transient = !response || response.status >= 500;
    if (!transient || attempt >= FETCH_RETRIES_MS.length) throw error;
    await new Promise((done) => setTimeout(done, FETCH_RETRIES_MS[attempt]));
  }
}

function refs(text, base) {
  const found = new Set();
  for (const m of text.matchAll(ASSET_REF)) found.add(new URL(m[0], self.location.origin).href);
  for (const m of text.matchAll(RELATIVE_REF)) found.add(new URL(m[1], base).href);
  for (const m of text.matchAll(ROOT_REF)) {
    if (m[1] !== "/sw.js" && !BYPASS.test(m[1])) {
      found.add(new URL(m[1], self.location.origin).href);
    }
  }
  return found;
}

async function precache() {
  const entries = new Map(); // URL -> Response
  const required = new Set();
  const found = new Set();
  for (const path of PAGES) {
    const url = new URL(path, self.location.origin);
    const response = await fetchOk(path);
    entries.set(pageKey(url), response);
    for (const ref of refs(await response.clone().text(), url.href)) {
      (new URL(ref).pathname.startsWith("/assets/") ? required : found).add(ref);
    }
  }
  for (const path of SHELL_FILES) {
    entries.set(new URL(path, self.location.origin).href, await fetchOk(path));
  }

  // The build files the pages load must be there (else the install fails, and is tried again
  // on the next visit); what those refer to is fetched too, best effort (dynamic imports,
  // fonts, files of assets/ that the JS loads by itself).
  const queue = [...required, ...[...found].filter((url) => !entries.has(url))];
  const seen = new Set(queue);
  while (queue.length && entries.size < MAX_ASSETS) {
    const batch = queue.splice(0, 8);
    await Promise.all(
      batch.map(async (url) => {
        let response;
        try {
          response = await fetchOk(url);
        } catch (error) {
          if (required.has(url)) throw error;
          return;
        }
        entries.set(url, response);
        if (/\.(?:m?js|css)$/.test(new URL(url).pathname)) {
          for (const ref of refs(await response.clone().text(), url)) {
            if (!seen.has(ref)) {
              seen.add(ref);
              queue.push(ref);
            }
          }
        }
      }),
    );
  }
  const cache = await caches.open(CACHE);
  await Promise.all([...entries].map(([url, response]) => cache.put(url, response)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// A page of this origin that opened uncontrolled while this worker activated (its navigation
// was in flight when activate's claim() ran) asks to be taken over (loto_app.py).
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

async function fromCache(key) {
  // ignoreVary: the server answers "Vary: Origin", and a module script's request carries an
  // Origin header that the precache's request did not.
  // (caches.match with cacheName, unlike caches.open, never creates the cache)
  return caches.match(key, { cacheName: CACHE, ignoreVary: true });
}

// Keep a fresh copy; an outdated worker (its cache deleted by a newer one's activation) does
// not bring its cache back to life.
async function store(key, response) {
  if (await caches.has(CACHE)) await (await caches.open(CACHE)).put(key, response);
}

async function offlinePage() {
  return (
    (await fromCache(OFFLINE_URL)) ||
    new Response(
      "<!DOCTYPE html><html lang=\"fr\"><meta charset=\"utf-8\"><title>Loto</title>" +
        "<p>Pas de connexion : l'application reviendra dès que le réseau revient.</p></html>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
    )
  );
}

async function navigate(event, url) {
  const key = pageKey(url);
  let response;
  try {
    // Network first, and past the HTTP cache too (revalidated: a 304 costs little), so an
    // online visit always gets the page of the build the server has now.
    response = await fetch(new Request(event.request, { cache: "no-cache" }));
  } catch (error) {
    return (await fromCache(key)) || offlinePage();
  }
  if ([502, 503, 504].includes(response.status)) {
    return (await fromCache(key)) || response; // a proxy in front of a server that is down
  }
  const type = response.headers.get("Content-Type") || "";
  if (response.ok && response.type === "basic" && type.startsWith("text/html")) {
    event.waitUntil(store(key, response.clone()));
  }
  return response;
}

async function asset(event) {
  const cached = await fromCache(event.request);
  if (cached) return cached;
  const response = await fetch(event.request);
  if (response.ok && response.type === "basic") {
    event.waitUntil(store(event.request, response.clone()));
  }
  return response;
}

async function staticFile(event, url) {
  const key = url.origin + url.pathname; // "/loto.js?v=2" is the file "/loto.js"
  try {
    const response = await fetch(event.request, { cache: "no-cache" });
    if (response.ok && response.type === "basic") event.waitUntil(store(key, response.clone()));
    return response;
  } catch (error) {
    const cached = await fromCache(key);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || BYPASS.test(url.pathname)) return;
  if (request.headers.get("Upgrade")) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event, url));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(asset(event));
  } else if (
    STATIC_DESTINATIONS.includes(request.destination) ||
    SHELL_FILES.includes(url.pathname)
  ) {
    event.respondWith(staticFile(event, url));
  }
});

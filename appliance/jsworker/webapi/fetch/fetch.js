// The global fetch, for outgoing requests: Go's HTTP client does the
// work; the response body streams from Go.
function fetch(input, init = undefined) {
  let req, parts;
  try {
    req = input instanceof Request && init === undefined ? input : new Request(input, init);
    parts = internal.requestParts(req);
  } catch (e) {
    return Promise.reject(e);
  }
  const [method, url, flat, kind, value, , redirect, signal] = parts;
  const scheme = url.slice(0, url.indexOf(":"));
  if (scheme !== "http" && scheme !== "https") {
    return Promise.reject(new TypeError(`Fetch API cannot load "${url}": only http and https URLs are supported`));
  }
  let token = null;
  if (signal) {
    if (signal.aborted) return Promise.reject(signal.reason);
    token = fetchHost.abortToken();
    signal.addEventListener("abort", () => fetchHost.abort(token, signal.reason), { once: true });
  }
  return fetchHost.send(method, url, flat, kind, value, redirect, token).then(
    (r) => internal.fetchResponse(r[0], r[1], r[2], r[3], r[4], r[5]),
    (e) => { throw signal && signal.aborted ? signal.reason : e; },
  );
}
internal.defineGlobal("fetch", fetch);

if (internal.notCloneable) internal.notCloneable(Headers, Request, Response);

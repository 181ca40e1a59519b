// node:url — the WHATWG URL globals (from the url extension), the file URL
// helpers, and Node's legacy url.parse, url.format and url.resolve.
modules["node:url"] = function makeURL() {
  const qs = shared("querystring");
  const punycode = shared("punycode");
  const slashedProtocol = new Set(["http", "http:", "https", "https:", "ftp", "ftp:", "gopher", "gopher:", "file", "file:", "ws", "ws:", "wss", "wss:"]);
  const hostlessProtocol = new Set(["javascript", "javascript:"]);
  const isURL = (v) => typeof global.URL === "function" && v instanceof global.URL;

  function fileURLToPath(path) {
    const url = typeof path === "string" ? new URL(path) : path;
    if (!isURL(url) && (url === null || typeof url !== "object" || typeof url.href !== "string")) throw errInvalidArgType("path", "of type string or an instance of URL", path);
    if (url.protocol !== "file:") throw codedError(TypeError, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
    if (url.hostname !== "") throw codedError(TypeError, "ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty on linux');
    const pathname = url.pathname;
    if (/%2f/i.test(pathname)) throw codedError(TypeError, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters");
    return decodeURIComponent(pathname);
  }
  function pathToFileURL(filepath) {
    validateString(filepath, "path");
    const path = load("node:path");
    let resolved = path.resolve(filepath);
    if (filepath.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
    const encoded = resolved.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A").replace(/\r/g, "%0D")
      .replace(/\t/g, "%09").replace(/\?/g, "%3F").replace(/#/g, "%23");
    return new URL("file://" + encoded);
  }
  function urlToHttpOptions(url) {
    const options = {
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      hash: url.hash,
      search: url.search,
      pathname: url.pathname,
      path: `${url.pathname || ""}${url.search || ""}`,
      href: url.href,
    };
    if (url.port !== "") options.port = Number(url.port);
    if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    return options;
  }
  function domainToASCII(domain) {
    try {
      return new URL("http://" + domain).hostname;
    } catch {
      return "";
    }
  }
  function domainToUnicode(domain) {
    try {
      return punycode.toUnicode(new URL("http://" + domain).hostname);
    } catch {
      return "";
    }
  }

  // ---- the legacy API.
  function Url() {
    this.protocol = null;
    this.slashes = null;
    this.auth = null;
    this.host = null;
    this.port = null;
    this.hostname = null;
    this.hash = null;
    this.search = null;
    this.query = null;
    this.pathname = null;
    this.path = null;
    this.href = null;
  }
  const autoEscape = { "{": "%7B", "}": "%7D", "|": "%7C", "\\": "%5C", "^": "%5E", "`": "%60", "'": "%27", '"': "%22", "<": "%3C", ">": "%3E", " ": "%20", "\r": "%0D", "\n": "%0A", "\t": "%09" };
  const escapeUnsafe = (s) => s.replace(/[{}|\\^`'"<> \r\n\t]/g, (c) => autoEscape[c]);

  Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
    validateString(url, "url");
    let rest = url.trim();
    // Backslashes before the query are slashes, as browsers treat them.
    const q = rest.search(/[?#]/);
    rest = (q < 0 ? rest : rest.slice(0, q)).replace(/\\/g, "/") + (q < 0 ? "" : rest.slice(q));
    const hashAt = rest.indexOf("#");
    if (hashAt >= 0) {
      this.hash = escapeUnsafe(rest.slice(hashAt));
      rest = rest.slice(0, hashAt);
    }
    const queryAt = rest.indexOf("?");
    if (queryAt >= 0) {
      this.search = escapeUnsafe(rest.slice(queryAt));
      this.query = this.search.slice(1);
      rest = rest.slice(0, queryAt);
      if (parseQueryString) this.query = qs.parse(this.query);
    } else if (parseQueryString) {
      this.search = null;
      this.query = Object.create(null);
    }
    const proto = /^[a-z0-9.+-]+:/i.exec(rest);
    let lowerProto;
    if (proto) {
      lowerProto = proto[0].toLowerCase();
      this.protocol = lowerProto;
      rest = rest.slice(proto[0].length);
    }
    let slashes = false;
    if (slashesDenoteHost || proto || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
      slashes = rest.startsWith("//");
      if (slashes && !(lowerProto && hostlessProtocol.has(lowerProto))) {
        rest = rest.slice(2);
        this.slashes = true;
      }
    }
    if (!hostlessProtocol.has(lowerProto) && (slashes || (lowerProto && !slashedProtocol.has(lowerProto)))) {
      let hostEnd = rest.search(/[/ \t\r\n<>"`{}|^']/);
      if (hostEnd < 0) hostEnd = rest.length;
      const at = rest.lastIndexOf("@", hostEnd);
      if (at >= 0) {
        this.auth = decodeURIComponent(rest.slice(0, at));
        rest = rest.slice(at + 1);
        hostEnd = rest.search(/[/ \t\r\n<>"`{}|^']/);
        if (hostEnd < 0) hostEnd = rest.length;
      }
      let host = rest.slice(0, hostEnd);
      rest = rest.slice(hostEnd);
      const port = /:([0-9]*)$/.exec(host);
      if (port) {
        if (port[1] !== "") this.port = port[1];
        host = host.slice(0, host.length - port[0].length);
      }
      const ipv6 = host.startsWith("[") && host.endsWith("]");
      let hostname = ipv6 ? host.slice(1, -1) : host;
      hostname = hostname.toLowerCase();
      if (!ipv6 && /[^\0-\x7F]/.test(hostname)) hostname = punycode.toASCII(hostname);
      this.hostname = hostname;
      this.host = (ipv6 ? `[${hostname}]` : hostname) + (this.port ? ":" + this.port : "");
    }
    if (rest) this.pathname = escapeUnsafe(rest);
    if (lowerProto && slashedProtocol.has(lowerProto) && this.hostname !== null && !this.pathname) this.pathname = "/";
    if (this.pathname !== null || this.search !== null) this.path = (this.pathname || "") + (this.search || "");
    this.href = this.format();
    return this;
  };

  Url.prototype.format = function format() {
    let auth = this.auth || "";
    if (auth) auth = encodeURIComponent(auth).replace(/%3A/i, ":") + "@";
    let protocol = this.protocol || "";
    let pathname = this.pathname || "";
    let hash = this.hash || "";
    let host = "";
    let query = "";
    if (this.host) {
      host = auth + this.host;
    } else if (this.hostname) {
      host = auth + (this.hostname.includes(":") && !this.hostname.startsWith("[") ? `[${this.hostname}]` : this.hostname);
      if (this.port) host += ":" + this.port;
    }
    if (this.query !== null && typeof this.query === "object") query = qs.stringify(this.query);
    let search = this.search || (query && "?" + query) || "";
    if (protocol && !protocol.endsWith(":")) protocol += ":";
    pathname = pathname.replace(/[?#]/g, (c) => encodeURIComponent(c));
    if (this.slashes || slashedProtocol.has(protocol)) {
      if (this.slashes || host) {
        if (pathname && pathname[0] !== "/") pathname = "/" + pathname;
        host = "//" + host;
      } else if (protocol === "file:") {
        host = "//";
      }
    }
    search = search.replace(/#/g, "%23");
    if (hash && hash[0] !== "#") hash = "#" + hash;
    if (search && search[0] !== "?") search = "?" + search;
    return protocol + host + pathname + search + hash;
  };
  Url.prototype.resolve = function (relative) { return resolve(this.format(), relative); };
  Url.prototype.resolveObject = function (relative) { return urlParse(resolve(this.format(), typeof relative === "string" ? relative : urlFormat(relative)), false, true); };

  function urlParse(url, parseQueryString, slashesDenoteHost) {
    if (url instanceof Url) return url;
    return new Url().parse(url, parseQueryString, slashesDenoteHost);
  }
  function urlFormat(obj, options) {
    if (typeof obj === "string") return urlParse(obj).format();
    if (isURL(obj)) {
      const o = Object.assign({ auth: true, fragment: true, search: true, unicode: false }, options);
      let out = obj.protocol;
      if (obj.host || obj.protocol === "file:") {
        out += "//";
        if (o.auth && (obj.username || obj.password)) out += obj.username + (obj.password ? ":" + obj.password : "") + "@";
        out += o.unicode ? domainToUnicode(obj.hostname) + (obj.port ? ":" + obj.port : "") : obj.host;
      }
      out += obj.pathname;
      if (o.search) out += obj.search;
      if (o.fragment) out += obj.hash;
      return out;
    }
    if (obj === null || typeof obj !== "object") throw errInvalidArgType("urlObject", "one of type object or string", obj);
    return Url.prototype.format.call(obj);
  }
  // resolve resolves with the WHATWG parser, keeping relative results
  // relative as the legacy resolver did.
  function resolve(from, to) {
    const resolved = new URL(to, new URL(from, "resolve://"));
    if (resolved.protocol === "resolve:") {
      const { pathname, search, hash } = resolved;
      const out = pathname + search + hash;
      return from.startsWith("/") || to.startsWith("/") ? out : out.slice(1);
    }
    return resolved.toString();
  }

  return {
    get URL() { return global.URL; },
    get URLSearchParams() { return global.URLSearchParams; },
    fileURLToPath,
    pathToFileURL,
    urlToHttpOptions,
    domainToASCII,
    domainToUnicode,
    Url,
    parse: urlParse,
    format: urlFormat,
    resolve,
    resolveObject: (from, to) => urlParse(from, false, true).resolveObject(to),
  };
};

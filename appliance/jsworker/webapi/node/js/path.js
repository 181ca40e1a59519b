// node:path — POSIX paths; the working directory is "/". path.win32 is
// the stubbed node:path/win32.
modules["node:path"] = function makePath() {
  function segments(path, allowAboveRoot) {
    const out = [];
    for (const seg of path.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") {
        if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
        else if (allowAboveRoot) out.push("..");
        continue;
      }
      out.push(seg);
    }
    return out;
  }
  function normalize(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const absolute = path[0] === "/";
    const trailing = path[path.length - 1] === "/";
    let s = segments(path, !absolute).join("/");
    if (s.length === 0) {
      if (absolute) return "/";
      return trailing ? "./" : ".";
    }
    if (trailing) s += "/";
    return absolute ? "/" + s : s;
  }
  function join(...parts) {
    let joined = "";
    for (const p of parts) {
      validateString(p, "path");
      if (p.length > 0) joined = joined.length === 0 ? p : joined + "/" + p;
    }
    return joined.length === 0 ? "." : normalize(joined);
  }
  function resolve(...parts) {
    let resolved = "";
    let absolute = false;
    for (let k = parts.length - 1; k >= -1 && !absolute; k--) {
      const p = k >= 0 ? parts[k] : "/";
      validateString(p, `paths[${k}]`);
      if (p.length === 0) continue;
      resolved = p + "/" + resolved;
      absolute = p[0] === "/";
    }
    return "/" + segments(resolved, false).join("/");
  }
  function isAbsolute(path) {
    validateString(path, "path");
    return path.length > 0 && path[0] === "/";
  }
  function relative(from, to) {
    validateString(from, "from");
    validateString(to, "to");
    if (from === to) return "";
    const a = segments(resolve(from), false);
    const b = segments(resolve(to), false);
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...Array(a.length - common).fill(".."), ...b.slice(common)].join("/");
  }
  function dirname(path) {
    validateString(path, "path");
    if (path.length === 0) return ".";
    const hasRoot = path[0] === "/";
    let end = -1;
    let matchedSlash = true;
    for (let k = path.length - 1; k >= 1; k--) {
      if (path[k] === "/") {
        if (!matchedSlash) { end = k; break; }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return hasRoot ? "/" : ".";
    if (hasRoot && end === 1) return "//";
    return path.slice(0, end);
  }
  function stripTrailing(path) {
    let end = path.length;
    while (end > 1 && path[end - 1] === "/") end--;
    return path.slice(0, end);
  }
  function basename(path, suffix) {
    validateString(path, "path");
    if (suffix !== undefined) validateString(suffix, "suffix");
    const s = stripTrailing(path);
    if (s === "/") return "";
    const base = s.slice(s.lastIndexOf("/") + 1);
    if (suffix !== undefined && suffix.length > 0 && base !== suffix && base.endsWith(suffix)) return base.slice(0, base.length - suffix.length);
    return base;
  }
  function extOf(base) {
    const dot = base.lastIndexOf(".");
    if (dot <= 0 || base === "..") return "";
    return base.slice(dot);
  }
  function extname(path) {
    validateString(path, "path");
    const s = stripTrailing(path);
    return extOf(s.slice(s.lastIndexOf("/") + 1));
  }
  function parse(path) {
    validateString(path, "path");
    const out = { root: "", dir: "", base: "", ext: "", name: "" };
    if (path.length === 0) return out;
    out.root = path[0] === "/" ? "/" : "";
    const s = stripTrailing(path);
    if (s === "/") {
      out.dir = "/";
      return out;
    }
    const slash = s.lastIndexOf("/");
    out.base = s.slice(slash + 1);
    out.dir = slash > 0 ? s.slice(0, slash) : out.root;
    out.ext = extOf(out.base);
    out.name = out.ext ? out.base.slice(0, out.base.length - out.ext.length) : out.base;
    return out;
  }
  function format(obj) {
    validateObject(obj, "pathObject");
    const dir = obj.dir || obj.root;
    const ext = obj.ext ? (obj.ext[0] === "." ? obj.ext : "." + obj.ext) : "";
    const base = obj.base || (obj.name || "") + ext;
    if (!dir) return base;
    return dir === obj.root ? dir + base : dir + "/" + base;
  }
  const path = {
    sep: "/",
    delimiter: ":",
    normalize, join, resolve, isAbsolute, relative, dirname, basename, extname, parse, format,
    toNamespacedPath: (p) => p,
    matchesGlob() { throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "path.matchesGlob is not supported in dwk"); },
  };
  path.posix = path;
  Object.defineProperty(path, "win32", { get: () => load("node:path/win32"), enumerable: true, configurable: true });
  return path;
};
modules["node:path/posix"] = () => load("node:path");

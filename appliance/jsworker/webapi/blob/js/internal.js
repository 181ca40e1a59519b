// What other extensions use (see the package doc), the clone hooks, and
// the globals.

internal.isBlob = isBlob;
internal.isFile = isFile;
internal.blobBytes = (b) => blobBytes(b);
internal.newBlob = (bytes, type = "") => newBlob(bytes, normalizeType(str(type)));
internal.newFile = (bytes, name, type = "", lastModified = Date.now()) => newFile(bytes, normalizeType(str(type)), usv(str(name)), lastModified);

internal.parseFormData = function parseFormData(bytes, contentType) {
  const parsed = natives.parseForm(bytes, str(contentType));
  const now = Date.now();
  const list = parsed.map((e) => (e.length === 2 ? e : [e[0], newFile(e[1], normalizeType(e[3]), e[2], now)]));
  const fd = new FormData();
  setFormList(fd, list);
  return fd;
};

internal.serializeFormData = function serializeFormData(fd) {
  const entries = formList(fd).map(([name, v]) => (typeof v === "string" ? [name, v] : [name, blobBytes(v), v.name, v.type]));
  return natives.serializeForm(entries);
};

// Blobs and Files are immutable: a clone shares the bytes. Serialized
// (for storage and RPC), their bytes are base64.
if (Array.isArray(internal.cloneHooks)) {
  const canSerialize = typeof internal.base64Encode === "function" && typeof internal.base64Decode === "function";
  const b64 = (b) => internal.base64Encode(b);
  const unb64 = (s) => internal.base64Decode(s);
  internal.cloneHooks.push({
    type: "File",
    is: isFile,
    clone: (f) => newFile(blobBytes(f), f.type, f.name, f.lastModified),
    serialize: canSerialize ? (f) => [b64(blobBytes(f)), f.type, f.name, f.lastModified] : undefined,
    deserialize: canSerialize ? (p) => newFile(unb64(p[0]), p[1], p[2], p[3]) : undefined,
  });
  internal.cloneHooks.push({
    type: "Blob",
    is: isBlob,
    clone: (b) => newBlob(blobBytes(b), b.type),
    serialize: canSerialize ? (b) => [b64(blobBytes(b)), b.type] : undefined,
    deserialize: canSerialize ? (p) => newBlob(unb64(p[0]), p[1]) : undefined,
  });
}

for (const cls of [Blob, File, FormData]) internal.defineGlobal(cls.name, cls);

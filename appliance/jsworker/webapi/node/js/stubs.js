// The Node.js modules a worker cannot use, and the partial ones that
// keep a small faithful subset. Their export names are listed so that a
// named import resolves to a property that throws a clear error when used
// (rather than to undefined).

// stubExports returns the export names of a stubbed module, made when a
// stub is first imported.
function stubExports(specifier) {
  const fsNames = `access accessSync appendFile appendFileSync chmod chmodSync chown chownSync close closeSync
    constants copyFile copyFileSync cp cpSync createReadStream createWriteStream exists existsSync fchmod
    fchown fdatasync fstat fstatSync fsync ftruncate futimes glob globSync lchown link linkSync lstat lstatSync
    lutimes mkdir mkdirSync mkdtemp mkdtempSync open openSync openAsBlob opendir opendirSync read readFile
    readFileSync readSync readdir readdirSync readlink readlinkSync readv realpath realpathSync rename
    renameSync rm rmSync rmdir rmdirSync stat statSync statfs symlink symlinkSync truncate truncateSync
    unlink unlinkSync unwatchFile utimes utimesSync watch watchFile write writeFile writeFileSync writeSync
    writev Dir Dirent Stats ReadStream WriteStream promises`;
  const names = {
    "node:fs": fsNames,
    "node:fs/promises": `access appendFile chmod chown copyFile cp glob lchown link lstat lutimes mkdir mkdtemp
      open opendir readFile readdir readlink realpath rename rm rmdir stat statfs symlink truncate unlink utimes
      watch writeFile constants`,
    "node:net": `BlockList Server Socket SocketAddress Stream connect createConnection createServer getDefaultAutoSelectFamily
      isIP isIPv4 isIPv6 setDefaultAutoSelectFamily`,
    "node:tls": `CLIENT_RENEG_LIMIT CLIENT_RENEG_WINDOW DEFAULT_CIPHERS DEFAULT_ECDH_CURVE DEFAULT_MAX_VERSION
      DEFAULT_MIN_VERSION SecureContext Server TLSSocket checkServerIdentity connect createSecureContext
      createServer getCiphers rootCertificates`,
    "node:https": "Agent Server createServer get globalAgent request",
    "node:http2": "connect constants createSecureServer createServer getDefaultSettings getPackedSettings getUnpackedSettings sensitiveHeaders",
    "node:dns": `ADDRCONFIG ALL V4MAPPED Resolver getServers lookup lookupService promises resolve resolve4 resolve6
      resolveAny resolveCaa resolveCname resolveMx resolveNaptr resolveNs resolvePtr resolveSoa resolveSrv
      resolveTxt reverse setDefaultResultOrder setServers`,
    "node:dns/promises": `Resolver getServers lookup lookupService resolve resolve4 resolve6 resolveAny resolveCaa
      resolveCname resolveMx resolveNaptr resolveNs resolvePtr resolveSoa resolveSrv resolveTxt reverse setServers`,
    "node:child_process": "ChildProcess exec execFile execFileSync execSync fork spawn spawnSync",
    "node:cluster": "isMaster isPrimary isWorker fork setupMaster setupPrimary settings workers worker",
    "node:worker_threads": `BroadcastChannel MessageChannel MessagePort SHARE_ENV Worker getEnvironmentData isMainThread
      markAsUntransferable moveMessagePortToContext parentPort receiveMessageOnPort resourceLimits
      setEnvironmentData threadId workerData`,
    "node:zlib": `constants createBrotliCompress createBrotliDecompress createDeflate createDeflateRaw createGunzip
      createGzip createInflate createInflateRaw createUnzip deflate deflateRaw deflateRawSync deflateSync gunzip
      gunzipSync gzip gzipSync inflate inflateRaw inflateRawSync inflateSync unzip unzipSync brotliCompress
      brotliCompressSync brotliDecompress brotliDecompressSync crc32 Deflate Inflate Gzip Gunzip DeflateRaw InflateRaw Unzip`,
    "node:vm": "Script compileFunction createContext isContext runInContext runInNewContext runInThisContext",
    "node:v8": "cachedDataVersionTag deserialize getHeapStatistics getHeapSnapshot serialize setFlagsFromString",
    "node:readline": "Interface clearLine clearScreenDown createInterface cursorTo emitKeypressEvents moveCursor promises",
    "node:readline/promises": "Interface Readline createInterface",
    "node:dgram": "Socket createSocket",
    "node:inspector": "Session close console open url waitForDebugger",
    "node:domain": "Domain create",
  };
  return names[specifier];
}

for (const specifier of stubbedModules) {
  modules[specifier] = () => stubModule(specifier, stubExports(specifier));
}

// ---- partial modules.
modules["node:http"] = function makeHTTP() {
  const httpStatus = {
    100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
    205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
    300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
    305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
    409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
    414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
    418: "I'm a Teapot", 421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked",
    424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
    429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
    507: "Insufficient Storage", 508: "Loop Detected", 509: "Bandwidth Limit Exceeded", 510: "Not Extended",
    511: "Network Authentication Required",
  };
  const httpMethods = `ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR
    MKCOL MOVE NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE
    TRACE UNBIND UNLINK UNLOCK UNSUBSCRIBE`.split(/\s+/);
  return stubModule("node:http",
    `Agent ClientRequest IncomingMessage OutgoingMessage Server ServerResponse createServer get globalAgent
    maxHeaderSize request setMaxIdleHTTPParsers validateHeaderName validateHeaderValue`,
    { STATUS_CODES: httpStatus, METHODS: httpMethods });
};

modules["node:perf_hooks"] = () => stubModule("node:perf_hooks",
  "PerformanceEntry PerformanceMark PerformanceMeasure PerformanceObserver PerformanceObserverEntryList PerformanceResourceTiming createHistogram monitorEventLoopDelay",
  { performance: global.performance, constants: {} });

modules["node:tty"] = () => stubModule("node:tty", "ReadStream WriteStream", { isatty: () => false });

modules["node:os"] = () => {
  const os = {
    EOL: "\n",
    devNull: "/dev/null",
    constants: Object.freeze({ signals: Object.freeze({}), errno: Object.freeze({}), priority: Object.freeze({}), dlopen: Object.freeze({}), UV_UDP_REUSEADDR: 4 }),
    platform: () => "linux",
    type: () => "Linux",
    arch: () => "x64",
    machine: () => "x86_64",
    release: () => "",
    version: () => "",
    hostname: () => "localhost",
    homedir: () => "/",
    tmpdir: () => "/tmp",
    endianness: () => "LE",
    cpus: () => [],
    availableParallelism: () => 1,
    totalmem: () => 0,
    freemem: () => 0,
    loadavg: () => [0, 0, 0],
    uptime: () => 0,
    networkInterfaces: () => ({}),
    userInfo: () => ({ uid: -1, gid: -1, username: "", homedir: "/", shell: null }),
  };
  return stubModule("node:os", "getPriority setPriority", os);
};

modules["node:module"] = () => {
  const builtinModules = Object.keys(modules).filter((s) => s.startsWith("node:")).map((s) => s.slice(5));
  const isBuiltin = (s) => typeof s === "string" && builtinModules.includes(s.startsWith("node:") ? s.slice(5) : s);
  function createRequire() {
    function require(id) {
      if (isBuiltin(id)) return load(id.startsWith("node:") ? id : "node:" + id);
      throw codedError(Error, "MODULE_NOT_FOUND", `Cannot find module '${id}': in dwk, require from createRequire loads only Node.js built-in modules; import the rest so that the bundler includes them`);
    }
    require.resolve = (id) => { if (isBuiltin(id)) return id; throw codedError(Error, "MODULE_NOT_FOUND", `Cannot find module '${id}'`); };
    require.cache = Object.create(null);
    return require;
  }
  return stubModule("node:module", "Module SourceMap findSourceMap register syncBuiltinESMExports enableCompileCache",
    { builtinModules, isBuiltin, createRequire });
};

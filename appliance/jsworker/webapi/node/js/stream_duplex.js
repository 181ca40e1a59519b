// node:stream's Duplex (a Readable with Writable's methods), Transform
// and PassThrough.
sharedValues.streamDuplex = function makeDuplex() {
  const base = shared("streamBase");
  const { tick } = base;
  const made = {};
  const Readable = shared("streamReadable");
  const Writable = shared("streamWritable");

  function Duplex(options) {
    if (!(this instanceof Duplex)) return new Duplex(options);
    Readable.call(this, options);
    Writable.call(this, options);
    this.allowHalfOpen = true;
    if (options) {
      if (options.allowHalfOpen === false) this.allowHalfOpen = false;
      if (options.readable === false) {
        this._readableState.readable = false;
        this._readableState.ended = true;
        this._readableState.endEmitted = true;
      }
      if (options.writable === false) {
        this._writableState.writable = false;
        this._writableState.ending = true;
        this._writableState.ended = true;
        this._writableState.finished = true;
      }
      if (options.signal) base.addAbortSignal(options.signal, this);
    }
  }
  Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
  Object.setPrototypeOf(Duplex, Readable);
  for (const key of Object.getOwnPropertyNames(Writable.prototype)) {
    if (!Object.prototype.hasOwnProperty.call(Duplex.prototype, key) && !Object.prototype.hasOwnProperty.call(Readable.prototype, key)) {
      Object.defineProperty(Duplex.prototype, key, Object.getOwnPropertyDescriptor(Writable.prototype, key));
    }
  }
  Duplex.prototype.destroy = Writable.prototype.destroy;
  Duplex.prototype._undestroy = function () {
    Readable.prototype._undestroy.call(this);
    Writable.prototype._undestroy.call(this);
  };
  const both = (r, w) => ({
    get() {
      const rs = this._readableState, ws = this._writableState;
      return r(rs, ws);
    },
    configurable: true,
  });
  Object.defineProperties(Duplex.prototype, {
    destroyed: {
      get() {
        const r = this._readableState, w = this._writableState;
        return !!r && !!w && r.destroyed && w.destroyed;
      },
      set(v) {
        if (this._readableState) this._readableState.destroyed = v;
        if (this._writableState) this._writableState.destroyed = v;
      },
      configurable: true,
    },
    errored: both((r, w) => (w && w.errored) || (r && r.errored) || null),
    closed: both((r, w) => !!((r && r.closed) || (w && w.closed))),
  });
  made.Duplex = Duplex;

  // Transform: what is written comes out, transformed, on the readable
  // side.
  const kCallback = Symbol("kCallback");
  function Transform(options) {
    if (!(this instanceof Transform)) return new Transform(options);
    Duplex.call(this, options);
    this._readableState.sync = false;
    this[kCallback] = null;
    if (options) {
      if (typeof options.transform === "function") this._transform = options.transform;
      if (typeof options.flush === "function") this._flush = options.flush;
    }
    this.on("prefinish", prefinish);
  }
  Object.setPrototypeOf(Transform.prototype, Duplex.prototype);
  Object.setPrototypeOf(Transform, Duplex);

  function final(cb) {
    if (typeof this._flush === "function" && !this.destroyed) {
      this._flush((er, data) => {
        if (er) {
          if (cb) cb(er); else this.destroy(er);
          return;
        }
        if (data != null) this.push(data);
        this.push(null);
        if (cb) cb();
      });
    } else {
      this.push(null);
      if (cb) cb();
    }
  }
  function prefinish() {
    if (this._final !== final) final.call(this);
  }
  Transform.prototype._final = final;
  Transform.prototype._transform = function () {
    throw base.errors.notImplemented("_transform()");
  };
  Transform.prototype._write = function (chunk, encoding, callback) {
    const r = this._readableState;
    const w = this._writableState;
    const length = r.length;
    this._transform(chunk, encoding, (err, val) => {
      if (err) {
        callback(err);
        return;
      }
      if (val != null) this.push(val);
      if (r.ended) {
        tick(callback);
      } else if (w.ended || length === r.length || r.length < r.highWaterMark) {
        callback();
      } else {
        this[kCallback] = callback;
      }
    });
  };
  Transform.prototype._read = function () {
    if (this[kCallback]) {
      const callback = this[kCallback];
      this[kCallback] = null;
      callback();
    }
  };

  function PassThrough(options) {
    if (!(this instanceof PassThrough)) return new PassThrough(options);
    Transform.call(this, options);
  }
  Object.setPrototypeOf(PassThrough.prototype, Transform.prototype);
  Object.setPrototypeOf(PassThrough, Transform);
  PassThrough.prototype._transform = function (chunk, encoding, cb) { cb(null, chunk); };

  made.Transform = Transform;
  made.PassThrough = PassThrough;
  return made;
};

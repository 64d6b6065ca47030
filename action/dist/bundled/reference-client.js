#!/usr/bin/env node
import { createRequire as __wsgateCreateRequire } from 'node:module';
const require = __wsgateCreateRequire(import.meta.url);
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// node_modules/ws/lib/constants.js
var require_constants = __commonJS({
  "node_modules/ws/lib/constants.js"(exports, module) {
    "use strict";
    var BINARY_TYPES = ["nodebuffer", "arraybuffer", "fragments"];
    var hasBlob = typeof Blob !== "undefined";
    if (hasBlob) BINARY_TYPES.push("blob");
    module.exports = {
      BINARY_TYPES,
      CLOSE_TIMEOUT: 3e4,
      EMPTY_BUFFER: Buffer.alloc(0),
      GUID: "258EAFA5-E914-47DA-95CA-C5AB0DC85B11",
      hasBlob,
      kForOnEventAttribute: /* @__PURE__ */ Symbol("kIsForOnEventAttribute"),
      kListener: /* @__PURE__ */ Symbol("kListener"),
      kStatusCode: /* @__PURE__ */ Symbol("status-code"),
      kWebSocket: /* @__PURE__ */ Symbol("websocket"),
      NOOP: () => {
      }
    };
  }
});

// node_modules/ws/lib/buffer-util.js
var require_buffer_util = __commonJS({
  "node_modules/ws/lib/buffer-util.js"(exports, module) {
    "use strict";
    var { websocketMask, websocketUnmask } = __require("http");
    var { EMPTY_BUFFER } = require_constants();
    var FastBuffer = Buffer[Symbol.species];
    function concat(list, totalLength) {
      if (list.length === 0) return EMPTY_BUFFER;
      if (list.length === 1) return list[0];
      const target = Buffer.allocUnsafe(totalLength);
      let offset = 0;
      for (let i = 0; i < list.length; i++) {
        const buf = list[i];
        target.set(buf, offset);
        offset += buf.length;
      }
      if (offset < totalLength) {
        return new FastBuffer(target.buffer, target.byteOffset, offset);
      }
      return target;
    }
    function _mask(source, mask, output, offset, length) {
      for (let i = 0; i < length; i++) {
        output[offset + i] = source[i] ^ mask[i & 3];
      }
    }
    function _unmask(buffer, mask) {
      for (let i = 0; i < buffer.length; i++) {
        buffer[i] ^= mask[i & 3];
      }
    }
    function toArrayBuffer(buf) {
      if (buf.length === buf.buffer.byteLength) {
        return buf.buffer;
      }
      return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    }
    function toBuffer2(data) {
      toBuffer2.readOnly = true;
      if (Buffer.isBuffer(data)) return data;
      let buf;
      if (data instanceof ArrayBuffer) {
        buf = new FastBuffer(data);
      } else if (ArrayBuffer.isView(data)) {
        buf = new FastBuffer(data.buffer, data.byteOffset, data.byteLength);
      } else {
        buf = Buffer.from(data);
        toBuffer2.readOnly = false;
      }
      return buf;
    }
    module.exports = {
      concat,
      mask: _mask,
      toArrayBuffer,
      toBuffer: toBuffer2,
      unmask: _unmask
    };
    if (websocketMask) {
      module.exports.mask = function(source, mask, output, offset, length) {
        if (length < 24) _mask(source, mask, output, offset, length);
        else websocketMask(source, mask, output, offset, length);
      };
      module.exports.unmask = function(buffer, mask) {
        if (buffer.length < 24) _unmask(buffer, mask);
        else websocketUnmask(buffer, mask);
      };
    } else if (!process.env.WS_NO_BUFFER_UTIL) {
      try {
        const bufferUtil2 = __require("bufferutil");
        module.exports.mask = function(source, mask, output, offset, length) {
          if (length < 48) _mask(source, mask, output, offset, length);
          else bufferUtil2.mask(source, mask, output, offset, length);
        };
        module.exports.unmask = function(buffer, mask) {
          if (buffer.length < 32) _unmask(buffer, mask);
          else bufferUtil2.unmask(buffer, mask);
        };
      } catch (e) {
      }
    }
  }
});

// node_modules/ws/lib/limiter.js
var require_limiter = __commonJS({
  "node_modules/ws/lib/limiter.js"(exports, module) {
    "use strict";
    var kDone = /* @__PURE__ */ Symbol("kDone");
    var kRun = /* @__PURE__ */ Symbol("kRun");
    var Limiter = class {
      /**
       * Creates a new `Limiter`.
       *
       * @param {Number} [concurrency=Infinity] The maximum number of jobs allowed
       *     to run concurrently
       */
      constructor(concurrency) {
        this[kDone] = () => {
          this.pending--;
          this[kRun]();
        };
        this.concurrency = concurrency || Infinity;
        this.jobs = [];
        this.pending = 0;
      }
      /**
       * Adds a job to the queue.
       *
       * @param {Function} job The job to run
       * @public
       */
      add(job) {
        this.jobs.push(job);
        this[kRun]();
      }
      /**
       * Removes a job from the queue and runs it if possible.
       *
       * @private
       */
      [kRun]() {
        if (this.pending === this.concurrency) return;
        if (this.jobs.length) {
          const job = this.jobs.shift();
          this.pending++;
          job(this[kDone]);
        }
      }
    };
    module.exports = Limiter;
  }
});

// node_modules/ws/lib/permessage-deflate.js
var require_permessage_deflate = __commonJS({
  "node_modules/ws/lib/permessage-deflate.js"(exports, module) {
    "use strict";
    var zlib5 = __require("zlib");
    var bufferUtil2 = require_buffer_util();
    var Limiter = require_limiter();
    var { kStatusCode } = require_constants();
    var FastBuffer = Buffer[Symbol.species];
    var TRAILER = Buffer.from([0, 0, 255, 255]);
    var kPerMessageDeflate = /* @__PURE__ */ Symbol("permessage-deflate");
    var kTotalLength = /* @__PURE__ */ Symbol("total-length");
    var kCallback = /* @__PURE__ */ Symbol("callback");
    var kBuffers = /* @__PURE__ */ Symbol("buffers");
    var kError = /* @__PURE__ */ Symbol("error");
    var zlibLimiter;
    var PerMessageDeflate3 = class {
      /**
       * Creates a PerMessageDeflate instance.
       *
       * @param {Object} [options] Configuration options
       * @param {(Boolean|Number)} [options.clientMaxWindowBits] Advertise support
       *     for, or request, a custom client window size
       * @param {Boolean} [options.clientNoContextTakeover=false] Advertise/
       *     acknowledge disabling of client context takeover
       * @param {Number} [options.concurrencyLimit=10] The number of concurrent
       *     calls to zlib
       * @param {Boolean} [options.isServer=false] Create the instance in either
       *     server or client mode
       * @param {Number} [options.maxPayload=0] The maximum allowed message length
       * @param {(Boolean|Number)} [options.serverMaxWindowBits] Request/confirm the
       *     use of a custom server window size
       * @param {Boolean} [options.serverNoContextTakeover=false] Request/accept
       *     disabling of server context takeover
       * @param {Number} [options.threshold=1024] Size (in bytes) below which
       *     messages should not be compressed if context takeover is disabled
       * @param {Object} [options.zlibDeflateOptions] Options to pass to zlib on
       *     deflate
       * @param {Object} [options.zlibInflateOptions] Options to pass to zlib on
       *     inflate
       */
      constructor(options) {
        this._options = options || {};
        this._threshold = this._options.threshold !== void 0 ? this._options.threshold : 1024;
        this._maxPayload = this._options.maxPayload | 0;
        this._isServer = !!this._options.isServer;
        this._deflate = null;
        this._inflate = null;
        this.params = null;
        if (!zlibLimiter) {
          const concurrency = this._options.concurrencyLimit !== void 0 ? this._options.concurrencyLimit : 10;
          zlibLimiter = new Limiter(concurrency);
        }
      }
      /**
       * @type {String}
       */
      static get extensionName() {
        return "permessage-deflate";
      }
      /**
       * Create an extension negotiation offer.
       *
       * @return {Object} Extension parameters
       * @public
       */
      offer() {
        const params = {};
        if (this._options.serverNoContextTakeover) {
          params.server_no_context_takeover = true;
        }
        if (this._options.clientNoContextTakeover) {
          params.client_no_context_takeover = true;
        }
        if (this._options.serverMaxWindowBits) {
          params.server_max_window_bits = this._options.serverMaxWindowBits;
        }
        if (this._options.clientMaxWindowBits) {
          params.client_max_window_bits = this._options.clientMaxWindowBits;
        } else if (this._options.clientMaxWindowBits == null) {
          params.client_max_window_bits = true;
        }
        return params;
      }
      /**
       * Accept an extension negotiation offer/response.
       *
       * @param {Array} configurations The extension negotiation offers/reponse
       * @return {Object} Accepted configuration
       * @public
       */
      accept(configurations) {
        configurations = this.normalizeParams(configurations);
        this.params = this._isServer ? this.acceptAsServer(configurations) : this.acceptAsClient(configurations);
        return this.params;
      }
      /**
       * Releases all resources used by the extension.
       *
       * @public
       */
      cleanup() {
        if (this._inflate) {
          this._inflate.close();
          this._inflate = null;
        }
        if (this._deflate) {
          const callback = this._deflate[kCallback];
          this._deflate.close();
          this._deflate = null;
          if (callback) {
            callback(
              new Error(
                "The deflate stream was closed while data was being processed"
              )
            );
          }
        }
      }
      /**
       *  Accept an extension negotiation offer.
       *
       * @param {Array} offers The extension negotiation offers
       * @return {Object} Accepted configuration
       * @private
       */
      acceptAsServer(offers) {
        const opts = this._options;
        const accepted = offers.find((params) => {
          if (opts.serverNoContextTakeover === false && params.server_no_context_takeover || params.server_max_window_bits && (opts.serverMaxWindowBits === false || typeof opts.serverMaxWindowBits === "number" && opts.serverMaxWindowBits > params.server_max_window_bits) || typeof opts.clientMaxWindowBits === "number" && (typeof params.client_max_window_bits === "number" ? opts.clientMaxWindowBits > params.client_max_window_bits : !params.client_max_window_bits)) {
            return false;
          }
          return true;
        });
        if (!accepted) {
          throw new Error("None of the extension offers can be accepted");
        }
        if (opts.serverNoContextTakeover) {
          accepted.server_no_context_takeover = true;
        }
        if (opts.clientNoContextTakeover) {
          accepted.client_no_context_takeover = true;
        }
        if (typeof opts.serverMaxWindowBits === "number") {
          accepted.server_max_window_bits = opts.serverMaxWindowBits;
        }
        if (typeof opts.clientMaxWindowBits === "number") {
          accepted.client_max_window_bits = opts.clientMaxWindowBits;
        } else if (accepted.client_max_window_bits === true || opts.clientMaxWindowBits === false) {
          delete accepted.client_max_window_bits;
        }
        return accepted;
      }
      /**
       * Accept the extension negotiation response.
       *
       * @param {Array} response The extension negotiation response
       * @return {Object} Accepted configuration
       * @private
       */
      acceptAsClient(response) {
        const params = response[0];
        if (this._options.clientNoContextTakeover === false && params.client_no_context_takeover) {
          throw new Error('Unexpected parameter "client_no_context_takeover"');
        }
        if (!params.client_max_window_bits) {
          if (typeof this._options.clientMaxWindowBits === "number") {
            params.client_max_window_bits = this._options.clientMaxWindowBits;
          }
        } else if (this._options.clientMaxWindowBits === false || typeof this._options.clientMaxWindowBits === "number" && params.client_max_window_bits > this._options.clientMaxWindowBits) {
          throw new Error(
            'Unexpected or invalid parameter "client_max_window_bits"'
          );
        }
        return params;
      }
      /**
       * Normalize parameters.
       *
       * @param {Array} configurations The extension negotiation offers/reponse
       * @return {Array} The offers/response with normalized parameters
       * @private
       */
      normalizeParams(configurations) {
        configurations.forEach((params) => {
          Object.keys(params).forEach((key) => {
            let value = params[key];
            if (value.length > 1) {
              throw new Error(`Parameter "${key}" must have only a single value`);
            }
            value = value[0];
            if (key === "client_max_window_bits") {
              if (value !== true) {
                const num = +value;
                if (!Number.isInteger(num) || num < 8 || num > 15) {
                  throw new TypeError(
                    `Invalid value for parameter "${key}": ${value}`
                  );
                }
                value = num;
              } else if (!this._isServer) {
                throw new TypeError(
                  `Invalid value for parameter "${key}": ${value}`
                );
              }
            } else if (key === "server_max_window_bits") {
              const num = +value;
              if (!Number.isInteger(num) || num < 8 || num > 15) {
                throw new TypeError(
                  `Invalid value for parameter "${key}": ${value}`
                );
              }
              value = num;
            } else if (key === "client_no_context_takeover" || key === "server_no_context_takeover") {
              if (value !== true) {
                throw new TypeError(
                  `Invalid value for parameter "${key}": ${value}`
                );
              }
            } else {
              throw new Error(`Unknown parameter "${key}"`);
            }
            params[key] = value;
          });
        });
        return configurations;
      }
      /**
       * Decompress data. Concurrency limited.
       *
       * @param {Buffer} data Compressed data
       * @param {Boolean} fin Specifies whether or not this is the last fragment
       * @param {Function} callback Callback
       * @public
       */
      decompress(data, fin, callback) {
        zlibLimiter.add((done) => {
          this._decompress(data, fin, (err, result) => {
            done();
            callback(err, result);
          });
        });
      }
      /**
       * Compress data. Concurrency limited.
       *
       * @param {(Buffer|String)} data Data to compress
       * @param {Boolean} fin Specifies whether or not this is the last fragment
       * @param {Function} callback Callback
       * @public
       */
      compress(data, fin, callback) {
        zlibLimiter.add((done) => {
          this._compress(data, fin, (err, result) => {
            done();
            callback(err, result);
          });
        });
      }
      /**
       * Decompress data.
       *
       * @param {Buffer} data Compressed data
       * @param {Boolean} fin Specifies whether or not this is the last fragment
       * @param {Function} callback Callback
       * @private
       */
      _decompress(data, fin, callback) {
        const endpoint = this._isServer ? "client" : "server";
        if (!this._inflate) {
          const key = `${endpoint}_max_window_bits`;
          const windowBits = typeof this.params[key] !== "number" ? zlib5.Z_DEFAULT_WINDOWBITS : this.params[key];
          this._inflate = zlib5.createInflateRaw({
            ...this._options.zlibInflateOptions,
            windowBits
          });
          this._inflate[kPerMessageDeflate] = this;
          this._inflate[kTotalLength] = 0;
          this._inflate[kBuffers] = [];
          this._inflate.on("error", inflateOnError);
          this._inflate.on("data", inflateOnData);
        }
        this._inflate[kCallback] = callback;
        this._inflate.write(data);
        if (fin) this._inflate.write(TRAILER);
        this._inflate.flush(() => {
          const err = this._inflate[kError];
          if (err) {
            this._inflate.close();
            this._inflate = null;
            callback(err);
            return;
          }
          const data2 = bufferUtil2.concat(
            this._inflate[kBuffers],
            this._inflate[kTotalLength]
          );
          if (this._inflate._readableState.endEmitted) {
            this._inflate.close();
            this._inflate = null;
          } else {
            this._inflate[kTotalLength] = 0;
            this._inflate[kBuffers] = [];
            if (fin && this.params[`${endpoint}_no_context_takeover`]) {
              this._inflate.reset();
            }
          }
          callback(null, data2);
        });
      }
      /**
       * Compress data.
       *
       * @param {(Buffer|String)} data Data to compress
       * @param {Boolean} fin Specifies whether or not this is the last fragment
       * @param {Function} callback Callback
       * @private
       */
      _compress(data, fin, callback) {
        const endpoint = this._isServer ? "server" : "client";
        if (!this._deflate) {
          const key = `${endpoint}_max_window_bits`;
          const windowBits = typeof this.params[key] !== "number" ? zlib5.Z_DEFAULT_WINDOWBITS : this.params[key];
          this._deflate = zlib5.createDeflateRaw({
            ...this._options.zlibDeflateOptions,
            windowBits
          });
          this._deflate[kTotalLength] = 0;
          this._deflate[kBuffers] = [];
          this._deflate.on("data", deflateOnData);
        }
        this._deflate[kCallback] = callback;
        this._deflate.write(data);
        this._deflate.flush(zlib5.Z_SYNC_FLUSH, () => {
          if (!this._deflate) {
            return;
          }
          let data2 = bufferUtil2.concat(
            this._deflate[kBuffers],
            this._deflate[kTotalLength]
          );
          if (fin) {
            data2 = new FastBuffer(data2.buffer, data2.byteOffset, data2.length - 4);
          }
          this._deflate[kCallback] = null;
          this._deflate[kTotalLength] = 0;
          this._deflate[kBuffers] = [];
          if (fin && this.params[`${endpoint}_no_context_takeover`]) {
            this._deflate.reset();
          }
          callback(null, data2);
        });
      }
    };
    module.exports = PerMessageDeflate3;
    function deflateOnData(chunk) {
      this[kBuffers].push(chunk);
      this[kTotalLength] += chunk.length;
    }
    function inflateOnData(chunk) {
      this[kTotalLength] += chunk.length;
      if (this[kPerMessageDeflate]._maxPayload < 1 || this[kTotalLength] <= this[kPerMessageDeflate]._maxPayload) {
        this[kBuffers].push(chunk);
        return;
      }
      this[kError] = new RangeError("Max payload size exceeded");
      this[kError].code = "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
      this[kError][kStatusCode] = 1009;
      this.removeListener("data", inflateOnData);
      this.reset();
    }
    function inflateOnError(err) {
      this[kPerMessageDeflate]._inflate = null;
      if (this[kError]) {
        this[kCallback](this[kError]);
        return;
      }
      err[kStatusCode] = 1007;
      this[kCallback](err);
    }
  }
});

// node_modules/ws/lib/validation.js
var require_validation = __commonJS({
  "node_modules/ws/lib/validation.js"(exports, module) {
    "use strict";
    var { isUtf8 } = __require("buffer");
    var { hasBlob } = require_constants();
    var tokenChars = [
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      // 0 - 15
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      // 16 - 31
      0,
      1,
      0,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      1,
      1,
      0,
      1,
      1,
      0,
      // 32 - 47
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      // 48 - 63
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      // 64 - 79
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      1,
      1,
      // 80 - 95
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      // 96 - 111
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      1,
      0,
      1,
      0
      // 112 - 127
    ];
    function isValidStatusCode(code) {
      return code >= 1e3 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006 || code >= 3e3 && code <= 4999;
    }
    function _isValidUTF8(buf) {
      const len = buf.length;
      let i = 0;
      while (i < len) {
        if ((buf[i] & 128) === 0) {
          i++;
        } else if ((buf[i] & 224) === 192) {
          if (i + 1 === len || (buf[i + 1] & 192) !== 128 || (buf[i] & 254) === 192) {
            return false;
          }
          i += 2;
        } else if ((buf[i] & 240) === 224) {
          if (i + 2 >= len || (buf[i + 1] & 192) !== 128 || (buf[i + 2] & 192) !== 128 || buf[i] === 224 && (buf[i + 1] & 224) === 128 || // Overlong
          buf[i] === 237 && (buf[i + 1] & 224) === 160) {
            return false;
          }
          i += 3;
        } else if ((buf[i] & 248) === 240) {
          if (i + 3 >= len || (buf[i + 1] & 192) !== 128 || (buf[i + 2] & 192) !== 128 || (buf[i + 3] & 192) !== 128 || buf[i] === 240 && (buf[i + 1] & 240) === 128 || // Overlong
          buf[i] === 244 && buf[i + 1] > 143 || buf[i] > 244) {
            return false;
          }
          i += 4;
        } else {
          return false;
        }
      }
      return true;
    }
    function isBlob(value) {
      return hasBlob && typeof value === "object" && typeof value.arrayBuffer === "function" && typeof value.type === "string" && typeof value.stream === "function" && (value[Symbol.toStringTag] === "Blob" || value[Symbol.toStringTag] === "File");
    }
    module.exports = {
      isBlob,
      isValidStatusCode,
      isValidUTF8: _isValidUTF8,
      tokenChars
    };
    if (isUtf8) {
      module.exports.isValidUTF8 = function(buf) {
        return buf.length < 24 ? _isValidUTF8(buf) : isUtf8(buf);
      };
    } else if (!process.env.WS_NO_UTF_8_VALIDATE) {
      try {
        const isValidUTF8 = __require("utf-8-validate");
        module.exports.isValidUTF8 = function(buf) {
          return buf.length < 32 ? _isValidUTF8(buf) : isValidUTF8(buf);
        };
      } catch (e) {
      }
    }
  }
});

// node_modules/ws/lib/receiver.js
var require_receiver = __commonJS({
  "node_modules/ws/lib/receiver.js"(exports, module) {
    "use strict";
    var { Writable } = __require("stream");
    var PerMessageDeflate3 = require_permessage_deflate();
    var {
      BINARY_TYPES,
      EMPTY_BUFFER,
      kStatusCode,
      kWebSocket
    } = require_constants();
    var { concat, toArrayBuffer, unmask } = require_buffer_util();
    var { isValidStatusCode, isValidUTF8 } = require_validation();
    var FastBuffer = Buffer[Symbol.species];
    var GET_INFO = 0;
    var GET_PAYLOAD_LENGTH_16 = 1;
    var GET_PAYLOAD_LENGTH_64 = 2;
    var GET_MASK = 3;
    var GET_DATA = 4;
    var INFLATING = 5;
    var DEFER_EVENT = 6;
    var Receiver3 = class extends Writable {
      /**
       * Creates a Receiver instance.
       *
       * @param {Object} [options] Options object
       * @param {Boolean} [options.allowSynchronousEvents=true] Specifies whether
       *     any of the `'message'`, `'ping'`, and `'pong'` events can be emitted
       *     multiple times in the same tick
       * @param {String} [options.binaryType=nodebuffer] The type for binary data
       * @param {Object} [options.extensions] An object containing the negotiated
       *     extensions
       * @param {Boolean} [options.isServer=false] Specifies whether to operate in
       *     client or server mode
       * @param {Number} [options.maxBufferedChunks=0] The maximum number of
       *     buffered data chunks
       * @param {Number} [options.maxFragments=0] The maximum number of message
       *     fragments
       * @param {Number} [options.maxPayload=0] The maximum allowed message length
       * @param {Boolean} [options.skipUTF8Validation=false] Specifies whether or
       *     not to skip UTF-8 validation for text and close messages
       */
      constructor(options = {}) {
        super();
        this._allowSynchronousEvents = options.allowSynchronousEvents !== void 0 ? options.allowSynchronousEvents : true;
        this._binaryType = options.binaryType || BINARY_TYPES[0];
        this._extensions = options.extensions || {};
        this._isServer = !!options.isServer;
        this._maxBufferedChunks = options.maxBufferedChunks | 0;
        this._maxFragments = options.maxFragments | 0;
        this._maxPayload = options.maxPayload | 0;
        this._skipUTF8Validation = !!options.skipUTF8Validation;
        this[kWebSocket] = void 0;
        this._bufferedBytes = 0;
        this._buffers = [];
        this._compressed = false;
        this._payloadLength = 0;
        this._mask = void 0;
        this._fragmented = 0;
        this._masked = false;
        this._fin = false;
        this._opcode = 0;
        this._totalPayloadLength = 0;
        this._messageLength = 0;
        this._numFragments = 0;
        this._fragments = [];
        this._errored = false;
        this._loop = false;
        this._state = GET_INFO;
      }
      /**
       * Implements `Writable.prototype._write()`.
       *
       * @param {Buffer} chunk The chunk of data to write
       * @param {String} encoding The character encoding of `chunk`
       * @param {Function} cb Callback
       * @private
       */
      _write(chunk, encoding, cb) {
        if (this._opcode === 8 && this._state == GET_INFO) return cb();
        if (this._maxBufferedChunks > 0 && this._buffers.length >= this._maxBufferedChunks) {
          cb(
            this.createError(
              RangeError,
              "Too many buffered chunks",
              false,
              1008,
              "WS_ERR_TOO_MANY_BUFFERED_PARTS"
            )
          );
          return;
        }
        this._bufferedBytes += chunk.length;
        this._buffers.push(chunk);
        this.startLoop(cb);
      }
      /**
       * Consumes `n` bytes from the buffered data.
       *
       * @param {Number} n The number of bytes to consume
       * @return {Buffer} The consumed bytes
       * @private
       */
      consume(n2) {
        this._bufferedBytes -= n2;
        if (n2 === this._buffers[0].length) return this._buffers.shift();
        if (n2 < this._buffers[0].length) {
          const buf = this._buffers[0];
          this._buffers[0] = new FastBuffer(
            buf.buffer,
            buf.byteOffset + n2,
            buf.length - n2
          );
          return new FastBuffer(buf.buffer, buf.byteOffset, n2);
        }
        const dst = Buffer.allocUnsafe(n2);
        do {
          const buf = this._buffers[0];
          const offset = dst.length - n2;
          if (n2 >= buf.length) {
            dst.set(this._buffers.shift(), offset);
          } else {
            dst.set(new Uint8Array(buf.buffer, buf.byteOffset, n2), offset);
            this._buffers[0] = new FastBuffer(
              buf.buffer,
              buf.byteOffset + n2,
              buf.length - n2
            );
          }
          n2 -= buf.length;
        } while (n2 > 0);
        return dst;
      }
      /**
       * Starts the parsing loop.
       *
       * @param {Function} cb Callback
       * @private
       */
      startLoop(cb) {
        this._loop = true;
        do {
          switch (this._state) {
            case GET_INFO:
              this.getInfo(cb);
              break;
            case GET_PAYLOAD_LENGTH_16:
              this.getPayloadLength16(cb);
              break;
            case GET_PAYLOAD_LENGTH_64:
              this.getPayloadLength64(cb);
              break;
            case GET_MASK:
              this.getMask();
              break;
            case GET_DATA:
              this.getData(cb);
              break;
            case INFLATING:
            case DEFER_EVENT:
              this._loop = false;
              return;
          }
        } while (this._loop);
        if (!this._errored) cb();
      }
      /**
       * Reads the first two bytes of a frame.
       *
       * @param {Function} cb Callback
       * @private
       */
      getInfo(cb) {
        if (this._bufferedBytes < 2) {
          this._loop = false;
          return;
        }
        const buf = this.consume(2);
        if ((buf[0] & 48) !== 0) {
          const error = this.createError(
            RangeError,
            "RSV2 and RSV3 must be clear",
            true,
            1002,
            "WS_ERR_UNEXPECTED_RSV_2_3"
          );
          cb(error);
          return;
        }
        const compressed = (buf[0] & 64) === 64;
        if (compressed && !this._extensions[PerMessageDeflate3.extensionName]) {
          const error = this.createError(
            RangeError,
            "RSV1 must be clear",
            true,
            1002,
            "WS_ERR_UNEXPECTED_RSV_1"
          );
          cb(error);
          return;
        }
        this._fin = (buf[0] & 128) === 128;
        this._opcode = buf[0] & 15;
        this._payloadLength = buf[1] & 127;
        if (this._opcode === 0) {
          if (compressed) {
            const error = this.createError(
              RangeError,
              "RSV1 must be clear",
              true,
              1002,
              "WS_ERR_UNEXPECTED_RSV_1"
            );
            cb(error);
            return;
          }
          if (!this._fragmented) {
            const error = this.createError(
              RangeError,
              "invalid opcode 0",
              true,
              1002,
              "WS_ERR_INVALID_OPCODE"
            );
            cb(error);
            return;
          }
          this._opcode = this._fragmented;
        } else if (this._opcode === 1 || this._opcode === 2) {
          if (this._fragmented) {
            const error = this.createError(
              RangeError,
              `invalid opcode ${this._opcode}`,
              true,
              1002,
              "WS_ERR_INVALID_OPCODE"
            );
            cb(error);
            return;
          }
          this._compressed = compressed;
        } else if (this._opcode > 7 && this._opcode < 11) {
          if (!this._fin) {
            const error = this.createError(
              RangeError,
              "FIN must be set",
              true,
              1002,
              "WS_ERR_EXPECTED_FIN"
            );
            cb(error);
            return;
          }
          if (compressed) {
            const error = this.createError(
              RangeError,
              "RSV1 must be clear",
              true,
              1002,
              "WS_ERR_UNEXPECTED_RSV_1"
            );
            cb(error);
            return;
          }
          if (this._payloadLength > 125 || this._opcode === 8 && this._payloadLength === 1) {
            const error = this.createError(
              RangeError,
              `invalid payload length ${this._payloadLength}`,
              true,
              1002,
              "WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH"
            );
            cb(error);
            return;
          }
        } else {
          const error = this.createError(
            RangeError,
            `invalid opcode ${this._opcode}`,
            true,
            1002,
            "WS_ERR_INVALID_OPCODE"
          );
          cb(error);
          return;
        }
        if (!this._fin && !this._fragmented) this._fragmented = this._opcode;
        this._masked = (buf[1] & 128) === 128;
        if (this._isServer) {
          if (!this._masked) {
            const error = this.createError(
              RangeError,
              "MASK must be set",
              true,
              1002,
              "WS_ERR_EXPECTED_MASK"
            );
            cb(error);
            return;
          }
        } else if (this._masked) {
          const error = this.createError(
            RangeError,
            "MASK must be clear",
            true,
            1002,
            "WS_ERR_UNEXPECTED_MASK"
          );
          cb(error);
          return;
        }
        if (this._payloadLength === 126) this._state = GET_PAYLOAD_LENGTH_16;
        else if (this._payloadLength === 127) this._state = GET_PAYLOAD_LENGTH_64;
        else this.haveLength(cb);
      }
      /**
       * Gets extended payload length (7+16).
       *
       * @param {Function} cb Callback
       * @private
       */
      getPayloadLength16(cb) {
        if (this._bufferedBytes < 2) {
          this._loop = false;
          return;
        }
        this._payloadLength = this.consume(2).readUInt16BE(0);
        this.haveLength(cb);
      }
      /**
       * Gets extended payload length (7+64).
       *
       * @param {Function} cb Callback
       * @private
       */
      getPayloadLength64(cb) {
        if (this._bufferedBytes < 8) {
          this._loop = false;
          return;
        }
        const buf = this.consume(8);
        const num = buf.readUInt32BE(0);
        if (num > Math.pow(2, 53 - 32) - 1) {
          const error = this.createError(
            RangeError,
            "Unsupported WebSocket frame: payload length > 2^53 - 1",
            false,
            1009,
            "WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH"
          );
          cb(error);
          return;
        }
        this._payloadLength = num * Math.pow(2, 32) + buf.readUInt32BE(4);
        this.haveLength(cb);
      }
      /**
       * Payload length has been read.
       *
       * @param {Function} cb Callback
       * @private
       */
      haveLength(cb) {
        if (this._payloadLength && this._opcode < 8) {
          this._totalPayloadLength += this._payloadLength;
          if (this._totalPayloadLength > this._maxPayload && this._maxPayload > 0) {
            const error = this.createError(
              RangeError,
              "Max payload size exceeded",
              false,
              1009,
              "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
            );
            cb(error);
            return;
          }
        }
        if (this._masked) this._state = GET_MASK;
        else this._state = GET_DATA;
      }
      /**
       * Reads mask bytes.
       *
       * @private
       */
      getMask() {
        if (this._bufferedBytes < 4) {
          this._loop = false;
          return;
        }
        this._mask = this.consume(4);
        this._state = GET_DATA;
      }
      /**
       * Reads data bytes.
       *
       * @param {Function} cb Callback
       * @private
       */
      getData(cb) {
        let data = EMPTY_BUFFER;
        if (this._payloadLength) {
          if (this._bufferedBytes < this._payloadLength) {
            this._loop = false;
            return;
          }
          data = this.consume(this._payloadLength);
          if (this._masked && (this._mask[0] | this._mask[1] | this._mask[2] | this._mask[3]) !== 0) {
            unmask(data, this._mask);
          }
        }
        this._mask = void 0;
        if (this._opcode > 7) {
          this.controlMessage(data, cb);
          return;
        }
        if (this._maxFragments > 0 && ++this._numFragments > this._maxFragments) {
          const error = this.createError(
            RangeError,
            "Too many message fragments",
            false,
            1008,
            "WS_ERR_TOO_MANY_BUFFERED_PARTS"
          );
          cb(error);
          return;
        }
        if (this._compressed) {
          this._state = INFLATING;
          this.decompress(data, cb);
          return;
        }
        if (data.length) {
          this._messageLength = this._totalPayloadLength;
          this._fragments.push(data);
        }
        this.dataMessage(cb);
      }
      /**
       * Decompresses data.
       *
       * @param {Buffer} data Compressed data
       * @param {Function} cb Callback
       * @private
       */
      decompress(data, cb) {
        const perMessageDeflate = this._extensions[PerMessageDeflate3.extensionName];
        perMessageDeflate.decompress(data, this._fin, (err, buf) => {
          if (err) return cb(err);
          if (buf.length) {
            this._messageLength += buf.length;
            if (this._messageLength > this._maxPayload && this._maxPayload > 0) {
              const error = this.createError(
                RangeError,
                "Max payload size exceeded",
                false,
                1009,
                "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
              );
              cb(error);
              return;
            }
            this._fragments.push(buf);
          }
          this.dataMessage(cb);
          if (this._state === GET_INFO) this.startLoop(cb);
        });
      }
      /**
       * Handles a data message.
       *
       * @param {Function} cb Callback
       * @private
       */
      dataMessage(cb) {
        if (!this._fin) {
          this._state = GET_INFO;
          return;
        }
        const messageLength = this._messageLength;
        const fragments = this._fragments;
        this._totalPayloadLength = 0;
        this._messageLength = 0;
        this._fragmented = 0;
        this._numFragments = 0;
        this._fragments = [];
        if (this._opcode === 2) {
          let data;
          if (this._binaryType === "nodebuffer") {
            data = concat(fragments, messageLength);
          } else if (this._binaryType === "arraybuffer") {
            data = toArrayBuffer(concat(fragments, messageLength));
          } else if (this._binaryType === "blob") {
            data = new Blob(fragments);
          } else {
            data = fragments;
          }
          if (this._allowSynchronousEvents) {
            this.emit("message", data, true);
            this._state = GET_INFO;
          } else {
            this._state = DEFER_EVENT;
            setImmediate(() => {
              this.emit("message", data, true);
              this._state = GET_INFO;
              this.startLoop(cb);
            });
          }
        } else {
          const buf = concat(fragments, messageLength);
          if (!this._skipUTF8Validation && !isValidUTF8(buf)) {
            const error = this.createError(
              Error,
              "invalid UTF-8 sequence",
              true,
              1007,
              "WS_ERR_INVALID_UTF8"
            );
            cb(error);
            return;
          }
          if (this._state === INFLATING || this._allowSynchronousEvents) {
            this.emit("message", buf, false);
            this._state = GET_INFO;
          } else {
            this._state = DEFER_EVENT;
            setImmediate(() => {
              this.emit("message", buf, false);
              this._state = GET_INFO;
              this.startLoop(cb);
            });
          }
        }
      }
      /**
       * Handles a control message.
       *
       * @param {Buffer} data Data to handle
       * @return {(Error|RangeError|undefined)} A possible error
       * @private
       */
      controlMessage(data, cb) {
        if (this._opcode === 8) {
          if (data.length === 0) {
            this._loop = false;
            this.emit("conclude", 1005, EMPTY_BUFFER);
            this.end();
          } else {
            const code = data.readUInt16BE(0);
            if (!isValidStatusCode(code)) {
              const error = this.createError(
                RangeError,
                `invalid status code ${code}`,
                true,
                1002,
                "WS_ERR_INVALID_CLOSE_CODE"
              );
              cb(error);
              return;
            }
            const buf = new FastBuffer(
              data.buffer,
              data.byteOffset + 2,
              data.length - 2
            );
            if (!this._skipUTF8Validation && !isValidUTF8(buf)) {
              const error = this.createError(
                Error,
                "invalid UTF-8 sequence",
                true,
                1007,
                "WS_ERR_INVALID_UTF8"
              );
              cb(error);
              return;
            }
            this._loop = false;
            this.emit("conclude", code, buf);
            this.end();
          }
          this._state = GET_INFO;
          return;
        }
        if (this._allowSynchronousEvents) {
          this.emit(this._opcode === 9 ? "ping" : "pong", data);
          this._state = GET_INFO;
        } else {
          this._state = DEFER_EVENT;
          setImmediate(() => {
            this.emit(this._opcode === 9 ? "ping" : "pong", data);
            this._state = GET_INFO;
            this.startLoop(cb);
          });
        }
      }
      /**
       * Builds an error object.
       *
       * @param {function(new:Error|RangeError)} ErrorCtor The error constructor
       * @param {String} message The error message
       * @param {Boolean} prefix Specifies whether or not to add a default prefix to
       *     `message`
       * @param {Number} statusCode The status code
       * @param {String} errorCode The exposed error code
       * @return {(Error|RangeError)} The error
       * @private
       */
      createError(ErrorCtor, message2, prefix, statusCode, errorCode) {
        this._loop = false;
        this._errored = true;
        const err = new ErrorCtor(
          prefix ? `Invalid WebSocket frame: ${message2}` : message2
        );
        Error.captureStackTrace(err, this.createError);
        err.code = errorCode;
        err[kStatusCode] = statusCode;
        return err;
      }
    };
    module.exports = Receiver3;
  }
});

// node_modules/ws/lib/sender.js
var require_sender = __commonJS({
  "node_modules/ws/lib/sender.js"(exports, module) {
    "use strict";
    var { Duplex } = __require("stream");
    var { randomFillSync } = __require("crypto");
    var {
      types: { isUint8Array }
    } = __require("util");
    var PerMessageDeflate3 = require_permessage_deflate();
    var { EMPTY_BUFFER, kWebSocket, NOOP } = require_constants();
    var { isBlob, isValidStatusCode } = require_validation();
    var { mask: applyMask, toBuffer: toBuffer2 } = require_buffer_util();
    var kByteLength = /* @__PURE__ */ Symbol("kByteLength");
    var maskBuffer = Buffer.alloc(4);
    var RANDOM_POOL_SIZE = 8 * 1024;
    var randomPool;
    var randomPoolPointer = RANDOM_POOL_SIZE;
    var DEFAULT = 0;
    var DEFLATING = 1;
    var GET_BLOB_DATA = 2;
    var Sender3 = class _Sender {
      /**
       * Creates a Sender instance.
       *
       * @param {Duplex} socket The connection socket
       * @param {Object} [extensions] An object containing the negotiated extensions
       * @param {Function} [generateMask] The function used to generate the masking
       *     key
       */
      constructor(socket, extensions, generateMask) {
        this._extensions = extensions || {};
        if (generateMask) {
          this._generateMask = generateMask;
          this._maskBuffer = Buffer.alloc(4);
        }
        this._socket = socket;
        this._firstFragment = true;
        this._compress = false;
        this._bufferedBytes = 0;
        this._queue = [];
        this._state = DEFAULT;
        this.onerror = NOOP;
        this[kWebSocket] = void 0;
      }
      /**
       * Frames a piece of data according to the HyBi WebSocket protocol.
       *
       * @param {(Buffer|String)} data The data to frame
       * @param {Object} options Options object
       * @param {Boolean} [options.fin=false] Specifies whether or not to set the
       *     FIN bit
       * @param {Function} [options.generateMask] The function used to generate the
       *     masking key
       * @param {Boolean} [options.mask=false] Specifies whether or not to mask
       *     `data`
       * @param {Buffer} [options.maskBuffer] The buffer used to store the masking
       *     key
       * @param {Number} options.opcode The opcode
       * @param {Boolean} [options.readOnly=false] Specifies whether `data` can be
       *     modified
       * @param {Boolean} [options.rsv1=false] Specifies whether or not to set the
       *     RSV1 bit
       * @return {(Buffer|String)[]} The framed data
       * @public
       */
      static frame(data, options) {
        let mask;
        let merge = false;
        let offset = 2;
        let skipMasking = false;
        if (options.mask) {
          mask = options.maskBuffer || maskBuffer;
          if (options.generateMask) {
            options.generateMask(mask);
          } else {
            if (randomPoolPointer === RANDOM_POOL_SIZE) {
              if (randomPool === void 0) {
                randomPool = Buffer.alloc(RANDOM_POOL_SIZE);
              }
              randomFillSync(randomPool, 0, RANDOM_POOL_SIZE);
              randomPoolPointer = 0;
            }
            mask[0] = randomPool[randomPoolPointer++];
            mask[1] = randomPool[randomPoolPointer++];
            mask[2] = randomPool[randomPoolPointer++];
            mask[3] = randomPool[randomPoolPointer++];
          }
          skipMasking = (mask[0] | mask[1] | mask[2] | mask[3]) === 0;
          offset = 6;
        }
        let dataLength;
        if (typeof data === "string") {
          if ((!options.mask || skipMasking) && options[kByteLength] !== void 0) {
            dataLength = options[kByteLength];
          } else {
            data = Buffer.from(data);
            dataLength = data.length;
          }
        } else {
          dataLength = data.length;
          merge = options.mask && options.readOnly && !skipMasking;
        }
        let payloadLength = dataLength;
        if (dataLength >= 65536) {
          offset += 8;
          payloadLength = 127;
        } else if (dataLength > 125) {
          offset += 2;
          payloadLength = 126;
        }
        const target = Buffer.allocUnsafe(merge ? dataLength + offset : offset);
        target[0] = options.fin ? options.opcode | 128 : options.opcode;
        if (options.rsv1) target[0] |= 64;
        target[1] = payloadLength;
        if (payloadLength === 126) {
          target.writeUInt16BE(dataLength, 2);
        } else if (payloadLength === 127) {
          target[2] = target[3] = 0;
          target.writeUIntBE(dataLength, 4, 6);
        }
        if (!options.mask) {
          return dataLength ? [target, data] : [target];
        }
        target[1] |= 128;
        target[offset - 4] = mask[0];
        target[offset - 3] = mask[1];
        target[offset - 2] = mask[2];
        target[offset - 1] = mask[3];
        if (!dataLength) return [target];
        if (skipMasking) return [target, data];
        if (merge) {
          applyMask(data, mask, target, offset, dataLength);
          return [target];
        }
        applyMask(data, mask, data, 0, dataLength);
        return [target, data];
      }
      /**
       * Sends a close message to the other peer.
       *
       * @param {Number} [code] The status code component of the body
       * @param {(String|Buffer)} [data] The message component of the body
       * @param {Boolean} [mask=false] Specifies whether or not to mask the message
       * @param {Function} [cb] Callback
       * @public
       */
      close(code, data, mask, cb) {
        let buf;
        if (code === void 0) {
          buf = EMPTY_BUFFER;
        } else if (typeof code !== "number" || !isValidStatusCode(code)) {
          throw new TypeError("First argument must be a valid error code number");
        } else if (data === void 0 || !data.length) {
          buf = Buffer.allocUnsafe(2);
          buf.writeUInt16BE(code, 0);
        } else {
          const length = Buffer.byteLength(data);
          if (length > 123) {
            throw new RangeError("The message must not be greater than 123 bytes");
          }
          buf = Buffer.allocUnsafe(2 + length);
          buf.writeUInt16BE(code, 0);
          if (typeof data === "string") {
            buf.write(data, 2);
          } else if (isUint8Array(data)) {
            buf.set(data, 2);
          } else {
            throw new TypeError("Second argument must be a string or a Uint8Array");
          }
        }
        const options = {
          [kByteLength]: buf.length,
          fin: true,
          generateMask: this._generateMask,
          mask,
          maskBuffer: this._maskBuffer,
          opcode: 8,
          readOnly: false,
          rsv1: false
        };
        if (this._state !== DEFAULT) {
          this.enqueue([this.dispatch, buf, false, options, cb]);
        } else {
          this.sendFrame(_Sender.frame(buf, options), cb);
        }
      }
      /**
       * Sends a ping message to the other peer.
       *
       * @param {*} data The message to send
       * @param {Boolean} [mask=false] Specifies whether or not to mask `data`
       * @param {Function} [cb] Callback
       * @public
       */
      ping(data, mask, cb) {
        let byteLength;
        let readOnly;
        if (typeof data === "string") {
          byteLength = Buffer.byteLength(data);
          readOnly = false;
        } else if (isBlob(data)) {
          byteLength = data.size;
          readOnly = false;
        } else {
          data = toBuffer2(data);
          byteLength = data.length;
          readOnly = toBuffer2.readOnly;
        }
        if (byteLength > 125) {
          throw new RangeError("The data size must not be greater than 125 bytes");
        }
        const options = {
          [kByteLength]: byteLength,
          fin: true,
          generateMask: this._generateMask,
          mask,
          maskBuffer: this._maskBuffer,
          opcode: 9,
          readOnly,
          rsv1: false
        };
        if (isBlob(data)) {
          if (this._state !== DEFAULT) {
            this.enqueue([this.getBlobData, data, false, options, cb]);
          } else {
            this.getBlobData(data, false, options, cb);
          }
        } else if (this._state !== DEFAULT) {
          this.enqueue([this.dispatch, data, false, options, cb]);
        } else {
          this.sendFrame(_Sender.frame(data, options), cb);
        }
      }
      /**
       * Sends a pong message to the other peer.
       *
       * @param {*} data The message to send
       * @param {Boolean} [mask=false] Specifies whether or not to mask `data`
       * @param {Function} [cb] Callback
       * @public
       */
      pong(data, mask, cb) {
        let byteLength;
        let readOnly;
        if (typeof data === "string") {
          byteLength = Buffer.byteLength(data);
          readOnly = false;
        } else if (isBlob(data)) {
          byteLength = data.size;
          readOnly = false;
        } else {
          data = toBuffer2(data);
          byteLength = data.length;
          readOnly = toBuffer2.readOnly;
        }
        if (byteLength > 125) {
          throw new RangeError("The data size must not be greater than 125 bytes");
        }
        const options = {
          [kByteLength]: byteLength,
          fin: true,
          generateMask: this._generateMask,
          mask,
          maskBuffer: this._maskBuffer,
          opcode: 10,
          readOnly,
          rsv1: false
        };
        if (isBlob(data)) {
          if (this._state !== DEFAULT) {
            this.enqueue([this.getBlobData, data, false, options, cb]);
          } else {
            this.getBlobData(data, false, options, cb);
          }
        } else if (this._state !== DEFAULT) {
          this.enqueue([this.dispatch, data, false, options, cb]);
        } else {
          this.sendFrame(_Sender.frame(data, options), cb);
        }
      }
      /**
       * Sends a data message to the other peer.
       *
       * @param {*} data The message to send
       * @param {Object} options Options object
       * @param {Boolean} [options.binary=false] Specifies whether `data` is binary
       *     or text
       * @param {Boolean} [options.compress=false] Specifies whether or not to
       *     compress `data`
       * @param {Boolean} [options.fin=false] Specifies whether the fragment is the
       *     last one
       * @param {Boolean} [options.mask=false] Specifies whether or not to mask
       *     `data`
       * @param {Function} [cb] Callback
       * @public
       */
      send(data, options, cb) {
        const perMessageDeflate = this._extensions[PerMessageDeflate3.extensionName];
        let opcode = options.binary ? 2 : 1;
        let rsv1 = options.compress;
        let byteLength;
        let readOnly;
        if (typeof data === "string") {
          byteLength = Buffer.byteLength(data);
          readOnly = false;
        } else if (isBlob(data)) {
          byteLength = data.size;
          readOnly = false;
        } else {
          data = toBuffer2(data);
          byteLength = data.length;
          readOnly = toBuffer2.readOnly;
        }
        if (this._firstFragment) {
          this._firstFragment = false;
          if (rsv1 && perMessageDeflate && perMessageDeflate.params[perMessageDeflate._isServer ? "server_no_context_takeover" : "client_no_context_takeover"]) {
            rsv1 = byteLength >= perMessageDeflate._threshold;
          }
          this._compress = rsv1;
        } else {
          rsv1 = false;
          opcode = 0;
        }
        if (options.fin) this._firstFragment = true;
        const opts = {
          [kByteLength]: byteLength,
          fin: options.fin,
          generateMask: this._generateMask,
          mask: options.mask,
          maskBuffer: this._maskBuffer,
          opcode,
          readOnly,
          rsv1
        };
        if (isBlob(data)) {
          if (this._state !== DEFAULT) {
            this.enqueue([this.getBlobData, data, this._compress, opts, cb]);
          } else {
            this.getBlobData(data, this._compress, opts, cb);
          }
        } else if (this._state !== DEFAULT) {
          this.enqueue([this.dispatch, data, this._compress, opts, cb]);
        } else {
          this.dispatch(data, this._compress, opts, cb);
        }
      }
      /**
       * Gets the contents of a blob as binary data.
       *
       * @param {Blob} blob The blob
       * @param {Boolean} [compress=false] Specifies whether or not to compress
       *     the data
       * @param {Object} options Options object
       * @param {Boolean} [options.fin=false] Specifies whether or not to set the
       *     FIN bit
       * @param {Function} [options.generateMask] The function used to generate the
       *     masking key
       * @param {Boolean} [options.mask=false] Specifies whether or not to mask
       *     `data`
       * @param {Buffer} [options.maskBuffer] The buffer used to store the masking
       *     key
       * @param {Number} options.opcode The opcode
       * @param {Boolean} [options.readOnly=false] Specifies whether `data` can be
       *     modified
       * @param {Boolean} [options.rsv1=false] Specifies whether or not to set the
       *     RSV1 bit
       * @param {Function} [cb] Callback
       * @private
       */
      getBlobData(blob, compress, options, cb) {
        this._bufferedBytes += options[kByteLength];
        this._state = GET_BLOB_DATA;
        blob.arrayBuffer().then((arrayBuffer) => {
          if (this._socket.destroyed) {
            const err = new Error(
              "The socket was closed while the blob was being read"
            );
            process.nextTick(callCallbacks, this, err, cb);
            return;
          }
          this._bufferedBytes -= options[kByteLength];
          const data = toBuffer2(arrayBuffer);
          if (!compress) {
            this._state = DEFAULT;
            this.sendFrame(_Sender.frame(data, options), cb);
            this.dequeue();
          } else {
            this.dispatch(data, compress, options, cb);
          }
        }).catch((err) => {
          process.nextTick(onError, this, err, cb);
        });
      }
      /**
       * Dispatches a message.
       *
       * @param {(Buffer|String)} data The message to send
       * @param {Boolean} [compress=false] Specifies whether or not to compress
       *     `data`
       * @param {Object} options Options object
       * @param {Boolean} [options.fin=false] Specifies whether or not to set the
       *     FIN bit
       * @param {Function} [options.generateMask] The function used to generate the
       *     masking key
       * @param {Boolean} [options.mask=false] Specifies whether or not to mask
       *     `data`
       * @param {Buffer} [options.maskBuffer] The buffer used to store the masking
       *     key
       * @param {Number} options.opcode The opcode
       * @param {Boolean} [options.readOnly=false] Specifies whether `data` can be
       *     modified
       * @param {Boolean} [options.rsv1=false] Specifies whether or not to set the
       *     RSV1 bit
       * @param {Function} [cb] Callback
       * @private
       */
      dispatch(data, compress, options, cb) {
        if (!compress) {
          this.sendFrame(_Sender.frame(data, options), cb);
          return;
        }
        const perMessageDeflate = this._extensions[PerMessageDeflate3.extensionName];
        this._bufferedBytes += options[kByteLength];
        this._state = DEFLATING;
        perMessageDeflate.compress(data, options.fin, (_, buf) => {
          if (this._socket.destroyed) {
            const err = new Error(
              "The socket was closed while data was being compressed"
            );
            callCallbacks(this, err, cb);
            return;
          }
          this._bufferedBytes -= options[kByteLength];
          this._state = DEFAULT;
          options.readOnly = false;
          this.sendFrame(_Sender.frame(buf, options), cb);
          this.dequeue();
        });
      }
      /**
       * Executes queued send operations.
       *
       * @private
       */
      dequeue() {
        while (this._state === DEFAULT && this._queue.length) {
          const params = this._queue.shift();
          this._bufferedBytes -= params[3][kByteLength];
          Reflect.apply(params[0], this, params.slice(1));
        }
      }
      /**
       * Enqueues a send operation.
       *
       * @param {Array} params Send operation parameters.
       * @private
       */
      enqueue(params) {
        this._bufferedBytes += params[3][kByteLength];
        this._queue.push(params);
      }
      /**
       * Sends a frame.
       *
       * @param {(Buffer | String)[]} list The frame to send
       * @param {Function} [cb] Callback
       * @private
       */
      sendFrame(list, cb) {
        if (list.length === 2) {
          this._socket.cork();
          this._socket.write(list[0]);
          this._socket.write(list[1], cb);
          this._socket.uncork();
        } else {
          this._socket.write(list[0], cb);
        }
      }
    };
    module.exports = Sender3;
    function callCallbacks(sender, err, cb) {
      if (typeof cb === "function") cb(err);
      for (let i = 0; i < sender._queue.length; i++) {
        const params = sender._queue[i];
        const callback = params[params.length - 1];
        if (typeof callback === "function") callback(err);
      }
    }
    function onError(sender, err, cb) {
      callCallbacks(sender, err, cb);
      sender.onerror(err);
    }
  }
});

// node_modules/ws/lib/event-target.js
var require_event_target = __commonJS({
  "node_modules/ws/lib/event-target.js"(exports, module) {
    "use strict";
    var { kForOnEventAttribute, kListener } = require_constants();
    var kCode = /* @__PURE__ */ Symbol("kCode");
    var kData = /* @__PURE__ */ Symbol("kData");
    var kError = /* @__PURE__ */ Symbol("kError");
    var kMessage = /* @__PURE__ */ Symbol("kMessage");
    var kReason = /* @__PURE__ */ Symbol("kReason");
    var kTarget = /* @__PURE__ */ Symbol("kTarget");
    var kType = /* @__PURE__ */ Symbol("kType");
    var kWasClean = /* @__PURE__ */ Symbol("kWasClean");
    var Event = class {
      /**
       * Create a new `Event`.
       *
       * @param {String} type The name of the event
       * @throws {TypeError} If the `type` argument is not specified
       */
      constructor(type) {
        this[kTarget] = null;
        this[kType] = type;
      }
      /**
       * @type {*}
       */
      get target() {
        return this[kTarget];
      }
      /**
       * @type {String}
       */
      get type() {
        return this[kType];
      }
    };
    Object.defineProperty(Event.prototype, "target", { enumerable: true });
    Object.defineProperty(Event.prototype, "type", { enumerable: true });
    var CloseEvent = class extends Event {
      /**
       * Create a new `CloseEvent`.
       *
       * @param {String} type The name of the event
       * @param {Object} [options] A dictionary object that allows for setting
       *     attributes via object members of the same name
       * @param {Number} [options.code=0] The status code explaining why the
       *     connection was closed
       * @param {String} [options.reason=''] A human-readable string explaining why
       *     the connection was closed
       * @param {Boolean} [options.wasClean=false] Indicates whether or not the
       *     connection was cleanly closed
       */
      constructor(type, options = {}) {
        super(type);
        this[kCode] = options.code === void 0 ? 0 : options.code;
        this[kReason] = options.reason === void 0 ? "" : options.reason;
        this[kWasClean] = options.wasClean === void 0 ? false : options.wasClean;
      }
      /**
       * @type {Number}
       */
      get code() {
        return this[kCode];
      }
      /**
       * @type {String}
       */
      get reason() {
        return this[kReason];
      }
      /**
       * @type {Boolean}
       */
      get wasClean() {
        return this[kWasClean];
      }
    };
    Object.defineProperty(CloseEvent.prototype, "code", { enumerable: true });
    Object.defineProperty(CloseEvent.prototype, "reason", { enumerable: true });
    Object.defineProperty(CloseEvent.prototype, "wasClean", { enumerable: true });
    var ErrorEvent = class extends Event {
      /**
       * Create a new `ErrorEvent`.
       *
       * @param {String} type The name of the event
       * @param {Object} [options] A dictionary object that allows for setting
       *     attributes via object members of the same name
       * @param {*} [options.error=null] The error that generated this event
       * @param {String} [options.message=''] The error message
       */
      constructor(type, options = {}) {
        super(type);
        this[kError] = options.error === void 0 ? null : options.error;
        this[kMessage] = options.message === void 0 ? "" : options.message;
      }
      /**
       * @type {*}
       */
      get error() {
        return this[kError];
      }
      /**
       * @type {String}
       */
      get message() {
        return this[kMessage];
      }
    };
    Object.defineProperty(ErrorEvent.prototype, "error", { enumerable: true });
    Object.defineProperty(ErrorEvent.prototype, "message", { enumerable: true });
    var MessageEvent = class extends Event {
      /**
       * Create a new `MessageEvent`.
       *
       * @param {String} type The name of the event
       * @param {Object} [options] A dictionary object that allows for setting
       *     attributes via object members of the same name
       * @param {*} [options.data=null] The message content
       */
      constructor(type, options = {}) {
        super(type);
        this[kData] = options.data === void 0 ? null : options.data;
      }
      /**
       * @type {*}
       */
      get data() {
        return this[kData];
      }
    };
    Object.defineProperty(MessageEvent.prototype, "data", { enumerable: true });
    var EventTarget = {
      /**
       * Register an event listener.
       *
       * @param {String} type A string representing the event type to listen for
       * @param {(Function|Object)} handler The listener to add
       * @param {Object} [options] An options object specifies characteristics about
       *     the event listener
       * @param {Boolean} [options.once=false] A `Boolean` indicating that the
       *     listener should be invoked at most once after being added. If `true`,
       *     the listener would be automatically removed when invoked.
       * @public
       */
      addEventListener(type, handler, options = {}) {
        for (const listener of this.listeners(type)) {
          if (!options[kForOnEventAttribute] && listener[kListener] === handler && !listener[kForOnEventAttribute]) {
            return;
          }
        }
        let wrapper;
        if (type === "message") {
          wrapper = function onMessage(data, isBinary) {
            const event = new MessageEvent("message", {
              data: isBinary ? data : data.toString()
            });
            event[kTarget] = this;
            callListener(handler, this, event);
          };
        } else if (type === "close") {
          wrapper = function onClose(code, message2) {
            const event = new CloseEvent("close", {
              code,
              reason: message2.toString(),
              wasClean: this._closeFrameReceived && this._closeFrameSent
            });
            event[kTarget] = this;
            callListener(handler, this, event);
          };
        } else if (type === "error") {
          wrapper = function onError(error) {
            const event = new ErrorEvent("error", {
              error,
              message: error.message
            });
            event[kTarget] = this;
            callListener(handler, this, event);
          };
        } else if (type === "open") {
          wrapper = function onOpen() {
            const event = new Event("open");
            event[kTarget] = this;
            callListener(handler, this, event);
          };
        } else {
          return;
        }
        wrapper[kForOnEventAttribute] = !!options[kForOnEventAttribute];
        wrapper[kListener] = handler;
        if (options.once) {
          this.once(type, wrapper);
        } else {
          this.on(type, wrapper);
        }
      },
      /**
       * Remove an event listener.
       *
       * @param {String} type A string representing the event type to remove
       * @param {(Function|Object)} handler The listener to remove
       * @public
       */
      removeEventListener(type, handler) {
        for (const listener of this.listeners(type)) {
          if (listener[kListener] === handler && !listener[kForOnEventAttribute]) {
            this.removeListener(type, listener);
            break;
          }
        }
      }
    };
    module.exports = {
      CloseEvent,
      ErrorEvent,
      Event,
      EventTarget,
      MessageEvent
    };
    function callListener(listener, thisArg, event) {
      if (typeof listener === "object" && listener.handleEvent) {
        listener.handleEvent.call(listener, event);
      } else {
        listener.call(thisArg, event);
      }
    }
  }
});

// node_modules/ws/lib/extension.js
var require_extension = __commonJS({
  "node_modules/ws/lib/extension.js"(exports, module) {
    "use strict";
    var { tokenChars } = require_validation();
    function push(dest, name, elem) {
      if (dest[name] === void 0) dest[name] = [elem];
      else dest[name].push(elem);
    }
    function parse(header) {
      const offers = /* @__PURE__ */ Object.create(null);
      let params = /* @__PURE__ */ Object.create(null);
      let mustUnescape = false;
      let isEscaping = false;
      let inQuotes = false;
      let extensionName;
      let paramName;
      let start = -1;
      let code = -1;
      let end = -1;
      let i = 0;
      for (; i < header.length; i++) {
        code = header.charCodeAt(i);
        if (extensionName === void 0) {
          if (end === -1 && tokenChars[code] === 1) {
            if (start === -1) start = i;
          } else if (i !== 0 && (code === 32 || code === 9)) {
            if (end === -1 && start !== -1) end = i;
          } else if (code === 59 || code === 44) {
            if (start === -1) {
              throw new SyntaxError(`Unexpected character at index ${i}`);
            }
            if (end === -1) end = i;
            const name = header.slice(start, end);
            if (code === 44) {
              push(offers, name, params);
              params = /* @__PURE__ */ Object.create(null);
            } else {
              extensionName = name;
            }
            start = end = -1;
          } else {
            throw new SyntaxError(`Unexpected character at index ${i}`);
          }
        } else if (paramName === void 0) {
          if (end === -1 && tokenChars[code] === 1) {
            if (start === -1) start = i;
          } else if (code === 32 || code === 9) {
            if (end === -1 && start !== -1) end = i;
          } else if (code === 59 || code === 44) {
            if (start === -1) {
              throw new SyntaxError(`Unexpected character at index ${i}`);
            }
            if (end === -1) end = i;
            push(params, header.slice(start, end), true);
            if (code === 44) {
              push(offers, extensionName, params);
              params = /* @__PURE__ */ Object.create(null);
              extensionName = void 0;
            }
            start = end = -1;
          } else if (code === 61 && start !== -1 && end === -1) {
            paramName = header.slice(start, i);
            start = end = -1;
          } else {
            throw new SyntaxError(`Unexpected character at index ${i}`);
          }
        } else {
          if (isEscaping) {
            if (tokenChars[code] !== 1) {
              throw new SyntaxError(`Unexpected character at index ${i}`);
            }
            if (start === -1) start = i;
            else if (!mustUnescape) mustUnescape = true;
            isEscaping = false;
          } else if (inQuotes) {
            if (tokenChars[code] === 1) {
              if (start === -1) start = i;
            } else if (code === 34 && start !== -1) {
              inQuotes = false;
              end = i;
            } else if (code === 92) {
              isEscaping = true;
            } else {
              throw new SyntaxError(`Unexpected character at index ${i}`);
            }
          } else if (code === 34 && header.charCodeAt(i - 1) === 61) {
            inQuotes = true;
          } else if (end === -1 && tokenChars[code] === 1) {
            if (start === -1) start = i;
          } else if (start !== -1 && (code === 32 || code === 9)) {
            if (end === -1) end = i;
          } else if (code === 59 || code === 44) {
            if (start === -1) {
              throw new SyntaxError(`Unexpected character at index ${i}`);
            }
            if (end === -1) end = i;
            let value = header.slice(start, end);
            if (mustUnescape) {
              value = value.replace(/\\/g, "");
              mustUnescape = false;
            }
            push(params, paramName, value);
            if (code === 44) {
              push(offers, extensionName, params);
              params = /* @__PURE__ */ Object.create(null);
              extensionName = void 0;
            }
            paramName = void 0;
            start = end = -1;
          } else {
            throw new SyntaxError(`Unexpected character at index ${i}`);
          }
        }
      }
      if (start === -1 || inQuotes || code === 32 || code === 9) {
        throw new SyntaxError("Unexpected end of input");
      }
      if (end === -1) end = i;
      const token = header.slice(start, end);
      if (extensionName === void 0) {
        push(offers, token, params);
      } else {
        if (paramName === void 0) {
          push(params, token, true);
        } else if (mustUnescape) {
          push(params, paramName, token.replace(/\\/g, ""));
        } else {
          push(params, paramName, token);
        }
        push(offers, extensionName, params);
      }
      return offers;
    }
    function format(extensions) {
      return Object.keys(extensions).map((extension3) => {
        let configurations = extensions[extension3];
        if (!Array.isArray(configurations)) configurations = [configurations];
        return configurations.map((params) => {
          return [extension3].concat(
            Object.keys(params).map((k) => {
              let values = params[k];
              if (!Array.isArray(values)) values = [values];
              return values.map((v) => v === true ? k : `${k}=${v}`).join("; ");
            })
          ).join("; ");
        }).join(", ");
      }).join(", ");
    }
    module.exports = { format, parse };
  }
});

// node_modules/ws/lib/websocket.js
var require_websocket = __commonJS({
  "node_modules/ws/lib/websocket.js"(exports, module) {
    "use strict";
    var EventEmitter = __require("events");
    var https = __require("https");
    var http = __require("http");
    var net = __require("net");
    var querystring = __require("querystring");
    var tls = __require("tls");
    var { randomBytes: randomBytes2, createHash: createHash3 } = __require("crypto");
    var { Duplex, Readable } = __require("stream");
    var { URL: URL2 } = __require("url");
    var PerMessageDeflate3 = require_permessage_deflate();
    var Receiver3 = require_receiver();
    var Sender3 = require_sender();
    var { isBlob } = require_validation();
    var {
      BINARY_TYPES,
      CLOSE_TIMEOUT,
      EMPTY_BUFFER,
      GUID,
      kForOnEventAttribute,
      kListener,
      kStatusCode,
      kWebSocket,
      NOOP
    } = require_constants();
    var {
      EventTarget: { addEventListener, removeEventListener }
    } = require_event_target();
    var { format, parse } = require_extension();
    var { toBuffer: toBuffer2 } = require_buffer_util();
    var kAborted = /* @__PURE__ */ Symbol("kAborted");
    var protocolVersions = [8, 13];
    var readyStates = ["CONNECTING", "OPEN", "CLOSING", "CLOSED"];
    var subprotocolRegex = /^[!#$%&'*+\-.0-9A-Z^_`|a-z~]+$/;
    var WebSocket2 = class _WebSocket extends EventEmitter {
      /**
       * Create a new `WebSocket`.
       *
       * @param {(String|URL)} address The URL to which to connect
       * @param {(String|String[])} [protocols] The subprotocols
       * @param {Object} [options] Connection options
       */
      constructor(address, protocols, options) {
        super();
        this._binaryType = BINARY_TYPES[0];
        this._closeCode = 1006;
        this._closeFrameReceived = false;
        this._closeFrameSent = false;
        this._closeMessage = EMPTY_BUFFER;
        this._closeTimer = null;
        this._errorEmitted = false;
        this._extensions = {};
        this._paused = false;
        this._protocol = "";
        this._readyState = _WebSocket.CONNECTING;
        this._receiver = null;
        this._sender = null;
        this._socket = null;
        if (address !== null) {
          this._bufferedAmount = 0;
          this._isServer = false;
          this._redirects = 0;
          if (protocols === void 0) {
            if (!options || options.protocols === void 0) {
              protocols = [];
            } else if (Array.isArray(options.protocols)) {
              protocols = options.protocols;
            } else {
              protocols = [options.protocols];
            }
          } else if (!Array.isArray(protocols)) {
            if (typeof protocols === "object" && protocols !== null) {
              options = protocols;
              if (options.protocols === void 0) {
                protocols = [];
              } else if (Array.isArray(options.protocols)) {
                protocols = options.protocols;
              } else {
                protocols = [options.protocols];
              }
            } else {
              protocols = [protocols];
            }
          }
          options = initAsClient(this, address, protocols, options);
        } else {
          this._isServer = true;
        }
        if (options.autoPong) {
          this._autoPong = true;
          this._autoPongComplete = () => autoPongComplete(this);
          this._pendingAutoPongs = 0;
          this._maxPendingAutoPongs = options.maxPendingAutoPongs | 0;
        }
        this._closeTimeout = options.closeTimeout;
      }
      /**
       * For historical reasons, the custom "nodebuffer" type is used by the default
       * instead of "blob".
       *
       * @type {String}
       */
      get binaryType() {
        return this._binaryType;
      }
      set binaryType(type) {
        if (!BINARY_TYPES.includes(type)) return;
        this._binaryType = type;
        if (this._receiver) this._receiver._binaryType = type;
      }
      /**
       * @type {Number}
       */
      get bufferedAmount() {
        if (!this._socket) return this._bufferedAmount;
        return this._socket._writableState.length + this._sender._bufferedBytes;
      }
      /**
       * @type {String}
       */
      get extensions() {
        return Object.keys(this._extensions).join();
      }
      /**
       * @type {Boolean}
       */
      get isPaused() {
        return this._paused;
      }
      /**
       * @type {Function}
       */
      /* istanbul ignore next */
      get onclose() {
        return null;
      }
      /**
       * @type {Function}
       */
      /* istanbul ignore next */
      get onerror() {
        return null;
      }
      /**
       * @type {Function}
       */
      /* istanbul ignore next */
      get onopen() {
        return null;
      }
      /**
       * @type {Function}
       */
      /* istanbul ignore next */
      get onmessage() {
        return null;
      }
      /**
       * @type {String}
       */
      get protocol() {
        return this._protocol;
      }
      /**
       * @type {Number}
       */
      get readyState() {
        return this._readyState;
      }
      /**
       * @type {String}
       */
      get url() {
        return this._url;
      }
      /**
       * Set up the socket and the internal resources.
       *
       * @param {Duplex} socket The network socket between the server and client
       * @param {Buffer} head The first packet of the upgraded stream
       * @param {Object} options Options object
       * @param {Boolean} [options.allowSynchronousEvents=false] Specifies whether
       *     any of the `'message'`, `'ping'`, and `'pong'` events can be emitted
       *     multiple times in the same tick
       * @param {Function} [options.generateMask] The function used to generate the
       *     masking key
       * @param {Number} [options.maxBufferedChunks=0] The maximum number of
       *     buffered data chunks
       * @param {Number} [options.maxFragments=0] The maximum number of message
       *     fragments
       * @param {Number} [options.maxPayload=0] The maximum allowed message size
       * @param {Boolean} [options.skipUTF8Validation=false] Specifies whether or
       *     not to skip UTF-8 validation for text and close messages
       * @private
       */
      setSocket(socket, head2, options) {
        const receiver = new Receiver3({
          allowSynchronousEvents: options.allowSynchronousEvents,
          binaryType: this.binaryType,
          extensions: this._extensions,
          isServer: this._isServer,
          maxBufferedChunks: options.maxBufferedChunks,
          maxFragments: options.maxFragments,
          maxPayload: options.maxPayload,
          skipUTF8Validation: options.skipUTF8Validation
        });
        const sender = new Sender3(socket, this._extensions, options.generateMask);
        this._receiver = receiver;
        this._sender = sender;
        this._socket = socket;
        receiver[kWebSocket] = this;
        sender[kWebSocket] = this;
        socket[kWebSocket] = this;
        receiver.on("conclude", receiverOnConclude);
        receiver.on("drain", receiverOnDrain);
        receiver.on("error", receiverOnError);
        receiver.on("message", receiverOnMessage);
        receiver.on("ping", receiverOnPing);
        receiver.on("pong", receiverOnPong);
        sender.onerror = senderOnError;
        if (socket.setTimeout) socket.setTimeout(0);
        if (socket.setNoDelay) socket.setNoDelay();
        if (head2.length > 0) socket.unshift(head2);
        socket.on("close", socketOnClose);
        socket.on("data", socketOnData);
        socket.on("end", socketOnEnd);
        socket.on("error", socketOnError);
        this._readyState = _WebSocket.OPEN;
        this.emit("open");
      }
      /**
       * Emit the `'close'` event.
       *
       * @private
       */
      emitClose() {
        if (!this._socket) {
          this._readyState = _WebSocket.CLOSED;
          this.emit("close", this._closeCode, this._closeMessage);
          return;
        }
        if (this._extensions[PerMessageDeflate3.extensionName]) {
          this._extensions[PerMessageDeflate3.extensionName].cleanup();
        }
        this._receiver.removeAllListeners();
        this._readyState = _WebSocket.CLOSED;
        this.emit("close", this._closeCode, this._closeMessage);
      }
      /**
       * Start a closing handshake.
       *
       *          +----------+   +-----------+   +----------+
       *     - - -|ws.close()|-->|close frame|-->|ws.close()|- - -
       *    |     +----------+   +-----------+   +----------+     |
       *          +----------+   +-----------+         |
       * CLOSING  |ws.close()|<--|close frame|<--+-----+       CLOSING
       *          +----------+   +-----------+   |
       *    |           |                        |   +---+        |
       *                +------------------------+-->|fin| - - - -
       *    |         +---+                      |   +---+
       *     - - - - -|fin|<---------------------+
       *              +---+
       *
       * @param {Number} [code] Status code explaining why the connection is closing
       * @param {(String|Buffer)} [data] The reason why the connection is
       *     closing
       * @public
       */
      close(code, data) {
        if (this.readyState === _WebSocket.CLOSED) return;
        if (this.readyState === _WebSocket.CONNECTING) {
          const msg = "WebSocket was closed before the connection was established";
          abortHandshake(this, this._req, msg);
          return;
        }
        if (this.readyState === _WebSocket.CLOSING) {
          if (this._closeFrameSent && (this._closeFrameReceived || this._receiver._writableState.errorEmitted)) {
            this._socket.end();
          }
          return;
        }
        this._sender.close(code, data, !this._isServer, (err) => {
          if (err) return;
          this._closeFrameSent = true;
          if (this._closeFrameReceived || this._receiver._writableState.errorEmitted) {
            this._socket.end();
          }
        });
        this._readyState = _WebSocket.CLOSING;
        setCloseTimer(this);
      }
      /**
       * Pause the socket.
       *
       * @public
       */
      pause() {
        if (this.readyState === _WebSocket.CONNECTING || this.readyState === _WebSocket.CLOSED) {
          return;
        }
        this._paused = true;
        this._socket.pause();
      }
      /**
       * Send a ping.
       *
       * @param {*} [data] The data to send
       * @param {Boolean} [mask] Indicates whether or not to mask `data`
       * @param {Function} [cb] Callback which is executed when the ping is sent
       * @public
       */
      ping(data, mask, cb) {
        if (this.readyState === _WebSocket.CONNECTING) {
          throw new Error("WebSocket is not open: readyState 0 (CONNECTING)");
        }
        if (typeof data === "function") {
          cb = data;
          data = mask = void 0;
        } else if (typeof mask === "function") {
          cb = mask;
          mask = void 0;
        }
        if (typeof data === "number") data = data.toString();
        if (this.readyState !== _WebSocket.OPEN) {
          sendAfterClose(this, data, cb);
          return;
        }
        if (mask === void 0) mask = !this._isServer;
        this._sender.ping(data || EMPTY_BUFFER, mask, cb);
      }
      /**
       * Send a pong.
       *
       * @param {*} [data] The data to send
       * @param {Boolean} [mask] Indicates whether or not to mask `data`
       * @param {Function} [cb] Callback which is executed when the pong is sent
       * @public
       */
      pong(data, mask, cb) {
        if (this.readyState === _WebSocket.CONNECTING) {
          throw new Error("WebSocket is not open: readyState 0 (CONNECTING)");
        }
        if (typeof data === "function") {
          cb = data;
          data = mask = void 0;
        } else if (typeof mask === "function") {
          cb = mask;
          mask = void 0;
        }
        if (typeof data === "number") data = data.toString();
        if (this.readyState !== _WebSocket.OPEN) {
          sendAfterClose(this, data, cb);
          return;
        }
        if (mask === void 0) mask = !this._isServer;
        this._sender.pong(data || EMPTY_BUFFER, mask, cb);
      }
      /**
       * Resume the socket.
       *
       * @public
       */
      resume() {
        if (this.readyState === _WebSocket.CONNECTING || this.readyState === _WebSocket.CLOSED) {
          return;
        }
        this._paused = false;
        if (!this._receiver._writableState.needDrain) this._socket.resume();
      }
      /**
       * Send a data message.
       *
       * @param {*} data The message to send
       * @param {Object} [options] Options object
       * @param {Boolean} [options.binary] Specifies whether `data` is binary or
       *     text
       * @param {Boolean} [options.compress] Specifies whether or not to compress
       *     `data`
       * @param {Boolean} [options.fin=true] Specifies whether the fragment is the
       *     last one
       * @param {Boolean} [options.mask] Specifies whether or not to mask `data`
       * @param {Function} [cb] Callback which is executed when data is written out
       * @public
       */
      send(data, options, cb) {
        if (this.readyState === _WebSocket.CONNECTING) {
          throw new Error("WebSocket is not open: readyState 0 (CONNECTING)");
        }
        if (typeof options === "function") {
          cb = options;
          options = {};
        }
        if (typeof data === "number") data = data.toString();
        if (this.readyState !== _WebSocket.OPEN) {
          sendAfterClose(this, data, cb);
          return;
        }
        const opts = {
          binary: typeof data !== "string",
          mask: !this._isServer,
          compress: true,
          fin: true,
          ...options
        };
        if (!this._extensions[PerMessageDeflate3.extensionName]) {
          opts.compress = false;
        }
        this._sender.send(data || EMPTY_BUFFER, opts, cb);
      }
      /**
       * Forcibly close the connection.
       *
       * @public
       */
      terminate() {
        if (this.readyState === _WebSocket.CLOSED) return;
        if (this.readyState === _WebSocket.CONNECTING) {
          const msg = "WebSocket was closed before the connection was established";
          abortHandshake(this, this._req, msg);
          return;
        }
        if (this._socket) {
          this._readyState = _WebSocket.CLOSING;
          this._socket.destroy();
        }
      }
    };
    Object.defineProperty(WebSocket2, "CONNECTING", {
      enumerable: true,
      value: readyStates.indexOf("CONNECTING")
    });
    Object.defineProperty(WebSocket2.prototype, "CONNECTING", {
      enumerable: true,
      value: readyStates.indexOf("CONNECTING")
    });
    Object.defineProperty(WebSocket2, "OPEN", {
      enumerable: true,
      value: readyStates.indexOf("OPEN")
    });
    Object.defineProperty(WebSocket2.prototype, "OPEN", {
      enumerable: true,
      value: readyStates.indexOf("OPEN")
    });
    Object.defineProperty(WebSocket2, "CLOSING", {
      enumerable: true,
      value: readyStates.indexOf("CLOSING")
    });
    Object.defineProperty(WebSocket2.prototype, "CLOSING", {
      enumerable: true,
      value: readyStates.indexOf("CLOSING")
    });
    Object.defineProperty(WebSocket2, "CLOSED", {
      enumerable: true,
      value: readyStates.indexOf("CLOSED")
    });
    Object.defineProperty(WebSocket2.prototype, "CLOSED", {
      enumerable: true,
      value: readyStates.indexOf("CLOSED")
    });
    [
      "binaryType",
      "bufferedAmount",
      "extensions",
      "isPaused",
      "protocol",
      "readyState",
      "url"
    ].forEach((property) => {
      Object.defineProperty(WebSocket2.prototype, property, { enumerable: true });
    });
    ["open", "error", "close", "message"].forEach((method) => {
      Object.defineProperty(WebSocket2.prototype, `on${method}`, {
        enumerable: true,
        get() {
          for (const listener of this.listeners(method)) {
            if (listener[kForOnEventAttribute]) return listener[kListener];
          }
          return null;
        },
        set(handler) {
          for (const listener of this.listeners(method)) {
            if (listener[kForOnEventAttribute]) {
              this.removeListener(method, listener);
              break;
            }
          }
          if (typeof handler !== "function") return;
          this.addEventListener(method, handler, {
            [kForOnEventAttribute]: true
          });
        }
      });
    });
    WebSocket2.prototype.addEventListener = addEventListener;
    WebSocket2.prototype.removeEventListener = removeEventListener;
    module.exports = WebSocket2;
    function initAsClient(websocket, address, protocols, options) {
      const opts = {
        allowSynchronousEvents: true,
        autoPong: true,
        closeTimeout: CLOSE_TIMEOUT,
        protocolVersion: protocolVersions[1],
        maxBufferedChunks: 256 * 1024,
        maxFragments: 16 * 1024,
        maxPayload: 100 * 1024 * 1024,
        maxPendingAutoPongs: 60,
        skipUTF8Validation: false,
        perMessageDeflate: true,
        followRedirects: false,
        maxRedirects: 10,
        ...options,
        socketPath: void 0,
        hostname: void 0,
        protocol: void 0,
        protocols: void 0,
        timeout: void 0,
        method: "GET",
        host: void 0,
        path: void 0,
        port: void 0
      };
      if (!protocolVersions.includes(opts.protocolVersion)) {
        throw new RangeError(
          `Unsupported protocol version: ${opts.protocolVersion} (supported versions: ${protocolVersions.join(", ")})`
        );
      }
      let parsedUrl;
      if (address instanceof URL2) {
        parsedUrl = address;
      } else {
        try {
          parsedUrl = new URL2(address);
        } catch {
          throw new SyntaxError(`Invalid URL: ${address}`);
        }
      }
      if (parsedUrl.protocol === "http:" || parsedUrl.protocol === "https:") {
        parsedUrl = new URL2(parsedUrl);
        parsedUrl.protocol = parsedUrl.protocol === "http:" ? "ws:" : "wss:";
      }
      websocket._url = parsedUrl.href;
      const isSecure = parsedUrl.protocol === "wss:";
      const isIpcUrl = parsedUrl.protocol === "ws+unix:";
      let invalidUrlMessage;
      if (parsedUrl.protocol !== "ws:" && !isSecure && !isIpcUrl) {
        invalidUrlMessage = `The URL's protocol must be one of "ws:", "wss:", "http:", "https:", or "ws+unix:"`;
      } else if (isIpcUrl && !parsedUrl.pathname) {
        invalidUrlMessage = "The URL's pathname is empty";
      } else if (parsedUrl.hash) {
        invalidUrlMessage = "The URL contains a fragment identifier";
      }
      if (invalidUrlMessage) {
        const err = new SyntaxError(invalidUrlMessage);
        if (websocket._redirects === 0) {
          throw err;
        } else {
          emitErrorAndClose(websocket, err);
          return;
        }
      }
      const defaultPort = isSecure ? 443 : 80;
      const key = randomBytes2(16).toString("base64");
      const request = isSecure ? https.request : http.request;
      const protocolSet = /* @__PURE__ */ new Set();
      let perMessageDeflate;
      opts.createConnection = opts.createConnection || (isSecure ? tlsConnect : netConnect);
      opts.defaultPort = opts.defaultPort || defaultPort;
      opts.port = parsedUrl.port || defaultPort;
      opts.host = parsedUrl.hostname.startsWith("[") ? parsedUrl.hostname.slice(1, -1) : parsedUrl.hostname;
      opts.headers = {
        ...opts.headers,
        "Sec-WebSocket-Version": opts.protocolVersion,
        "Sec-WebSocket-Key": key,
        Connection: "Upgrade",
        Upgrade: "websocket"
      };
      opts.path = parsedUrl.pathname + parsedUrl.search;
      opts.timeout = opts.handshakeTimeout;
      if (opts.perMessageDeflate) {
        perMessageDeflate = new PerMessageDeflate3({
          ...opts.perMessageDeflate,
          isServer: false,
          maxPayload: opts.maxPayload
        });
        opts.headers["Sec-WebSocket-Extensions"] = format({
          [PerMessageDeflate3.extensionName]: perMessageDeflate.offer()
        });
      }
      if (protocols.length) {
        for (const protocol of protocols) {
          if (typeof protocol !== "string" || !subprotocolRegex.test(protocol) || protocolSet.has(protocol)) {
            throw new SyntaxError(
              "An invalid or duplicated subprotocol was specified"
            );
          }
          protocolSet.add(protocol);
        }
        opts.headers["Sec-WebSocket-Protocol"] = protocols.join(",");
      }
      if (opts.origin) {
        if (opts.protocolVersion < 13) {
          opts.headers["Sec-WebSocket-Origin"] = opts.origin;
        } else {
          opts.headers.Origin = opts.origin;
        }
      }
      if (parsedUrl.username || parsedUrl.password) {
        const username = querystring.unescape(parsedUrl.username);
        const password = querystring.unescape(parsedUrl.password);
        opts.auth = `${username}:${password}`;
      }
      if (isIpcUrl) {
        const i = opts.path.indexOf(":");
        if (i === -1) {
          opts.socketPath = opts.path;
          opts.path = "";
        } else {
          opts.socketPath = opts.path.slice(0, i);
          opts.path = opts.path.slice(i + 1);
        }
      }
      let req;
      if (opts.followRedirects) {
        if (websocket._redirects === 0) {
          websocket._originalIpc = isIpcUrl;
          websocket._originalSecure = isSecure;
          websocket._originalHostOrSocketPath = isIpcUrl ? opts.socketPath : parsedUrl.host;
          const headers = options && options.headers;
          options = { ...options, headers: {} };
          if (headers) {
            for (const [key2, value] of Object.entries(headers)) {
              options.headers[key2.toLowerCase()] = value;
            }
          }
        } else if (websocket.listenerCount("redirect") === 0) {
          const isSameHost = isIpcUrl ? websocket._originalIpc ? opts.socketPath === websocket._originalHostOrSocketPath : false : websocket._originalIpc ? false : parsedUrl.host === websocket._originalHostOrSocketPath;
          if (!isSameHost || websocket._originalSecure && !isSecure) {
            delete opts.headers.authorization;
            delete opts.headers.cookie;
            if (!isSameHost) delete opts.headers.host;
            opts.auth = void 0;
          }
        }
        if (opts.auth && !options.headers.authorization) {
          options.headers.authorization = "Basic " + Buffer.from(opts.auth).toString("base64");
        }
        req = websocket._req = request(opts);
        if (websocket._redirects) {
          websocket.emit("redirect", websocket.url, req);
        }
      } else {
        req = websocket._req = request(opts);
      }
      if (opts.timeout) {
        req.on("timeout", () => {
          abortHandshake(websocket, req, "Opening handshake has timed out");
        });
      }
      req.on("error", (err) => {
        if (req === null || req[kAborted]) return;
        req = websocket._req = null;
        emitErrorAndClose(websocket, err);
      });
      req.on("response", (res) => {
        const location = res.headers.location;
        const statusCode = res.statusCode;
        if (location && opts.followRedirects && statusCode >= 300 && statusCode < 400) {
          if (++websocket._redirects > opts.maxRedirects) {
            abortHandshake(websocket, req, "Maximum redirects exceeded");
            return;
          }
          req.abort();
          let addr;
          try {
            addr = new URL2(location, address);
          } catch (e) {
            const err = new SyntaxError(`Invalid URL: ${location}`);
            emitErrorAndClose(websocket, err);
            return;
          }
          initAsClient(websocket, addr, protocols, options);
        } else if (!websocket.emit("unexpected-response", req, res)) {
          abortHandshake(
            websocket,
            req,
            `Unexpected server response: ${res.statusCode}`
          );
        }
      });
      req.on("upgrade", (res, socket, head2) => {
        websocket.emit("upgrade", res);
        if (websocket.readyState !== WebSocket2.CONNECTING) return;
        req = websocket._req = null;
        const upgrade = res.headers.upgrade;
        if (upgrade === void 0 || upgrade.toLowerCase() !== "websocket") {
          abortHandshake(websocket, socket, "Invalid Upgrade header");
          return;
        }
        const digest = createHash3("sha1").update(key + GUID).digest("base64");
        if (res.headers["sec-websocket-accept"] !== digest) {
          abortHandshake(websocket, socket, "Invalid Sec-WebSocket-Accept header");
          return;
        }
        const serverProt = res.headers["sec-websocket-protocol"];
        let protError;
        if (serverProt !== void 0) {
          if (!protocolSet.size) {
            protError = "Server sent a subprotocol but none was requested";
          } else if (!protocolSet.has(serverProt)) {
            protError = "Server sent an invalid subprotocol";
          }
        } else if (protocolSet.size) {
          protError = "Server sent no subprotocol";
        }
        if (protError) {
          abortHandshake(websocket, socket, protError);
          return;
        }
        if (serverProt) websocket._protocol = serverProt;
        const secWebSocketExtensions = res.headers["sec-websocket-extensions"];
        if (secWebSocketExtensions !== void 0) {
          if (!perMessageDeflate) {
            const message2 = "Server sent a Sec-WebSocket-Extensions header but no extension was requested";
            abortHandshake(websocket, socket, message2);
            return;
          }
          let extensions;
          try {
            extensions = parse(secWebSocketExtensions);
          } catch (err) {
            const message2 = "Invalid Sec-WebSocket-Extensions header";
            abortHandshake(websocket, socket, message2);
            return;
          }
          const extensionNames = Object.keys(extensions);
          if (extensionNames.length !== 1 || extensionNames[0] !== PerMessageDeflate3.extensionName) {
            const message2 = "Server indicated an extension that was not requested";
            abortHandshake(websocket, socket, message2);
            return;
          }
          try {
            perMessageDeflate.accept(extensions[PerMessageDeflate3.extensionName]);
          } catch (err) {
            const message2 = "Invalid Sec-WebSocket-Extensions header";
            abortHandshake(websocket, socket, message2);
            return;
          }
          websocket._extensions[PerMessageDeflate3.extensionName] = perMessageDeflate;
        }
        websocket.setSocket(socket, head2, {
          allowSynchronousEvents: opts.allowSynchronousEvents,
          generateMask: opts.generateMask,
          maxBufferedChunks: opts.maxBufferedChunks,
          maxFragments: opts.maxFragments,
          maxPayload: opts.maxPayload,
          skipUTF8Validation: opts.skipUTF8Validation
        });
      });
      if (opts.finishRequest) {
        opts.finishRequest(req, websocket);
      } else {
        req.end();
      }
      return opts;
    }
    function emitErrorAndClose(websocket, err) {
      websocket._readyState = WebSocket2.CLOSING;
      websocket._errorEmitted = true;
      websocket.emit("error", err);
      websocket.emitClose();
    }
    function netConnect(options) {
      options.path = options.socketPath;
      return net.connect(options);
    }
    function tlsConnect(options) {
      options.path = void 0;
      if (!options.servername && options.servername !== "") {
        options.servername = net.isIP(options.host) ? "" : options.host;
      }
      return tls.connect(options);
    }
    function abortHandshake(websocket, stream, message2) {
      websocket._readyState = WebSocket2.CLOSING;
      const err = new Error(message2);
      Error.captureStackTrace(err, abortHandshake);
      if (stream.setHeader) {
        stream[kAborted] = true;
        stream.abort();
        if (stream.socket && !stream.socket.destroyed) {
          stream.socket.destroy();
        }
        process.nextTick(emitErrorAndClose, websocket, err);
      } else {
        stream.destroy(err);
        stream.once("error", websocket.emit.bind(websocket, "error"));
        stream.once("close", websocket.emitClose.bind(websocket));
      }
    }
    function sendAfterClose(websocket, data, cb) {
      if (data) {
        const length = isBlob(data) ? data.size : toBuffer2(data).length;
        if (websocket._socket) websocket._sender._bufferedBytes += length;
        else websocket._bufferedAmount += length;
      }
      if (cb) {
        const err = new Error(
          `WebSocket is not open: readyState ${websocket.readyState} (${readyStates[websocket.readyState]})`
        );
        process.nextTick(cb, err);
      }
    }
    function receiverOnConclude(code, reason) {
      const websocket = this[kWebSocket];
      websocket._closeFrameReceived = true;
      websocket._closeCode = code;
      if (reason.length === 0) {
        websocket._closeMessage = EMPTY_BUFFER;
      } else {
        websocket._closeMessage = Buffer.allocUnsafeSlow(reason.length);
        websocket._closeMessage.set(reason);
      }
      if (websocket._socket[kWebSocket] === void 0) return;
      websocket._socket.removeListener("data", socketOnData);
      process.nextTick(resume, websocket._socket);
      if (code === 1005) websocket.close();
      else websocket.close(code, reason);
    }
    function receiverOnDrain() {
      const websocket = this[kWebSocket];
      if (!websocket.isPaused) websocket._socket.resume();
    }
    function receiverOnError(err) {
      const websocket = this[kWebSocket];
      if (websocket._socket[kWebSocket] !== void 0) {
        websocket._socket.removeListener("data", socketOnData);
        process.nextTick(resume, websocket._socket);
        websocket.close(err[kStatusCode]);
      }
      if (!websocket._errorEmitted) {
        websocket._errorEmitted = true;
        websocket.emit("error", err);
      }
    }
    function receiverOnFinish() {
      this[kWebSocket].emitClose();
    }
    function receiverOnMessage(data, isBinary) {
      this[kWebSocket].emit("message", data, isBinary);
    }
    function receiverOnPing(data) {
      const websocket = this[kWebSocket];
      if (websocket._autoPong && websocket.readyState === WebSocket2.OPEN) {
        if (websocket._maxPendingAutoPongs > 0 && websocket._pendingAutoPongs >= websocket._maxPendingAutoPongs) {
          websocket.terminate();
        } else {
          websocket._pendingAutoPongs++;
          websocket.pong(data, !this._isServer, websocket._autoPongComplete);
        }
      }
      websocket.emit("ping", data);
    }
    function autoPongComplete(websocket) {
      websocket._pendingAutoPongs--;
    }
    function receiverOnPong(data) {
      this[kWebSocket].emit("pong", data);
    }
    function resume(stream) {
      stream.resume();
    }
    function senderOnError(err) {
      const websocket = this[kWebSocket];
      if (websocket.readyState === WebSocket2.CLOSED) return;
      if (websocket.readyState === WebSocket2.OPEN) {
        websocket._readyState = WebSocket2.CLOSING;
        setCloseTimer(websocket);
      }
      this._socket.end();
      if (!websocket._errorEmitted) {
        websocket._errorEmitted = true;
        websocket.emit("error", err);
      }
    }
    function setCloseTimer(websocket) {
      websocket._closeTimer = setTimeout(
        websocket._socket.destroy.bind(websocket._socket),
        websocket._closeTimeout
      );
    }
    function socketOnClose() {
      const websocket = this[kWebSocket];
      this.removeListener("close", socketOnClose);
      this.removeListener("data", socketOnData);
      this.removeListener("end", socketOnEnd);
      websocket._readyState = WebSocket2.CLOSING;
      if (!this._readableState.endEmitted && !websocket._closeFrameReceived && !websocket._receiver._writableState.errorEmitted && this._readableState.length !== 0) {
        const chunk = this.read(this._readableState.length);
        websocket._receiver.write(chunk);
      }
      websocket._receiver.end();
      this[kWebSocket] = void 0;
      clearTimeout(websocket._closeTimer);
      if (websocket._receiver._writableState.finished || websocket._receiver._writableState.errorEmitted) {
        websocket.emitClose();
      } else {
        websocket._receiver.on("error", receiverOnFinish);
        websocket._receiver.on("finish", receiverOnFinish);
      }
    }
    function socketOnData(chunk) {
      if (!this[kWebSocket]._receiver.write(chunk)) {
        this.pause();
      }
    }
    function socketOnEnd() {
      const websocket = this[kWebSocket];
      websocket._readyState = WebSocket2.CLOSING;
      websocket._receiver.end();
      this.end();
    }
    function socketOnError() {
      const websocket = this[kWebSocket];
      this.removeListener("error", socketOnError);
      this.on("error", NOOP);
      if (websocket) {
        websocket._readyState = WebSocket2.CLOSING;
        this.destroy();
      }
    }
  }
});

// node_modules/ws/lib/stream.js
var require_stream = __commonJS({
  "node_modules/ws/lib/stream.js"(exports, module) {
    "use strict";
    var WebSocket2 = require_websocket();
    var { Duplex } = __require("stream");
    function emitClose(stream) {
      stream.emit("close");
    }
    function duplexOnEnd() {
      if (!this.destroyed && this._writableState.finished) {
        this.destroy();
      }
    }
    function duplexOnError(err) {
      this.removeListener("error", duplexOnError);
      this.destroy();
      if (this.listenerCount("error") === 0) {
        this.emit("error", err);
      }
    }
    function createWebSocketStream2(ws, options) {
      let terminateOnDestroy = true;
      const duplex = new Duplex({
        ...options,
        autoDestroy: false,
        emitClose: false,
        objectMode: false,
        writableObjectMode: false
      });
      ws.on("message", function message2(msg, isBinary) {
        const data = !isBinary && duplex._readableState.objectMode ? msg.toString() : msg;
        if (!duplex.push(data)) ws.pause();
      });
      ws.once("error", function error(err) {
        if (duplex.destroyed) return;
        terminateOnDestroy = false;
        duplex.destroy(err);
      });
      ws.once("close", function close() {
        if (duplex.destroyed) return;
        duplex.push(null);
      });
      duplex._destroy = function(err, callback) {
        if (ws.readyState === ws.CLOSED) {
          callback(err);
          process.nextTick(emitClose, duplex);
          return;
        }
        let called = false;
        ws.once("error", function error(err2) {
          called = true;
          callback(err2);
        });
        ws.once("close", function close() {
          if (!called) callback(err);
          process.nextTick(emitClose, duplex);
        });
        if (terminateOnDestroy) ws.terminate();
      };
      duplex._final = function(callback) {
        if (ws.readyState === ws.CONNECTING) {
          ws.once("open", function open() {
            duplex._final(callback);
          });
          return;
        }
        if (ws._socket === null) return;
        if (ws._socket._writableState.finished) {
          callback();
          if (duplex._readableState.endEmitted) duplex.destroy();
        } else {
          ws._socket.once("finish", function finish2() {
            callback();
          });
          ws.close();
        }
      };
      duplex._read = function() {
        if (ws.isPaused) ws.resume();
      };
      duplex._write = function(chunk, encoding, callback) {
        if (ws.readyState === ws.CONNECTING) {
          ws.once("open", function open() {
            duplex._write(chunk, encoding, callback);
          });
          return;
        }
        ws.send(chunk, callback);
      };
      duplex.on("end", duplexOnEnd);
      duplex.on("error", duplexOnError);
      return duplex;
    }
    module.exports = createWebSocketStream2;
  }
});

// node_modules/ws/lib/subprotocol.js
var require_subprotocol = __commonJS({
  "node_modules/ws/lib/subprotocol.js"(exports, module) {
    "use strict";
    var { tokenChars } = require_validation();
    function parse(header) {
      const protocols = /* @__PURE__ */ new Set();
      let start = -1;
      let end = -1;
      let i = 0;
      for (i; i < header.length; i++) {
        const code = header.charCodeAt(i);
        if (end === -1 && tokenChars[code] === 1) {
          if (start === -1) start = i;
        } else if (i !== 0 && (code === 32 || code === 9)) {
          if (end === -1 && start !== -1) end = i;
        } else if (code === 44) {
          if (start === -1) {
            throw new SyntaxError(`Unexpected character at index ${i}`);
          }
          if (end === -1) end = i;
          const protocol2 = header.slice(start, end);
          if (protocols.has(protocol2)) {
            throw new SyntaxError(`The "${protocol2}" subprotocol is duplicated`);
          }
          protocols.add(protocol2);
          start = end = -1;
        } else {
          throw new SyntaxError(`Unexpected character at index ${i}`);
        }
      }
      if (start === -1 || end !== -1) {
        throw new SyntaxError("Unexpected end of input");
      }
      const protocol = header.slice(start, i);
      if (protocols.has(protocol)) {
        throw new SyntaxError(`The "${protocol}" subprotocol is duplicated`);
      }
      protocols.add(protocol);
      return protocols;
    }
    module.exports = { parse };
  }
});

// node_modules/ws/lib/websocket-server.js
var require_websocket_server = __commonJS({
  "node_modules/ws/lib/websocket-server.js"(exports, module) {
    "use strict";
    var EventEmitter = __require("events");
    var http = __require("http");
    var { Duplex } = __require("stream");
    var { createHash: createHash3 } = __require("crypto");
    var extension3 = require_extension();
    var PerMessageDeflate3 = require_permessage_deflate();
    var subprotocol2 = require_subprotocol();
    var WebSocket2 = require_websocket();
    var { CLOSE_TIMEOUT, GUID, kWebSocket } = require_constants();
    var keyRegex = /^[+/0-9A-Za-z]{22}==$/;
    var RUNNING = 0;
    var CLOSING = 1;
    var CLOSED = 2;
    var WebSocketServer2 = class extends EventEmitter {
      /**
       * Create a `WebSocketServer` instance.
       *
       * @param {Object} options Configuration options
       * @param {Boolean} [options.allowSynchronousEvents=true] Specifies whether
       *     any of the `'message'`, `'ping'`, and `'pong'` events can be emitted
       *     multiple times in the same tick
       * @param {Boolean} [options.autoPong=true] Specifies whether or not to
       *     automatically send a pong in response to a ping
       * @param {Number} [options.backlog=511] The maximum length of the queue of
       *     pending connections
       * @param {Boolean} [options.clientTracking=true] Specifies whether or not to
       *     track clients
       * @param {Number} [options.closeTimeout=30000] Duration in milliseconds to
       *     wait for the closing handshake to finish after `websocket.close()` is
       *     called
       * @param {Function} [options.handleProtocols] A hook to handle protocols
       * @param {String} [options.host] The hostname where to bind the server
       * @param {Number} [options.maxBufferedChunks=262144] The maximum number of
       *     buffered data chunks
       * @param {Number} [options.maxFragments=16384] The maximum number of message
       *     fragments
       * @param {Number} [options.maxPayload=104857600] The maximum allowed message
       *     size
       * @param {Number} [options.maxPendingAutoPongs=60] The maximum number of
       *     pending automatic pongs
       * @param {Boolean} [options.noServer=false] Enable no server mode
       * @param {String} [options.path] Accept only connections matching this path
       * @param {(Boolean|Object)} [options.perMessageDeflate=false] Enable/disable
       *     permessage-deflate
       * @param {Number} [options.port] The port where to bind the server
       * @param {(http.Server|https.Server)} [options.server] A pre-created HTTP/S
       *     server to use
       * @param {Boolean} [options.skipUTF8Validation=false] Specifies whether or
       *     not to skip UTF-8 validation for text and close messages
       * @param {Function} [options.verifyClient] A hook to reject connections
       * @param {Function} [options.WebSocket=WebSocket] Specifies the `WebSocket`
       *     class to use. It must be the `WebSocket` class or class that extends it
       * @param {Function} [callback] A listener for the `listening` event
       */
      constructor(options, callback) {
        super();
        options = {
          allowSynchronousEvents: true,
          autoPong: true,
          maxBufferedChunks: 256 * 1024,
          maxFragments: 16 * 1024,
          maxPayload: 100 * 1024 * 1024,
          maxPendingAutoPongs: 60,
          skipUTF8Validation: false,
          perMessageDeflate: false,
          handleProtocols: null,
          clientTracking: true,
          closeTimeout: CLOSE_TIMEOUT,
          verifyClient: null,
          noServer: false,
          backlog: null,
          // use default (511 as implemented in net.js)
          server: null,
          host: null,
          path: null,
          port: null,
          WebSocket: WebSocket2,
          ...options
        };
        if (options.port == null && !options.server && !options.noServer || options.port != null && (options.server || options.noServer) || options.server && options.noServer) {
          throw new TypeError(
            'One and only one of the "port", "server", or "noServer" options must be specified'
          );
        }
        if (options.port != null) {
          this._server = http.createServer((req, res) => {
            const body = http.STATUS_CODES[426];
            res.writeHead(426, {
              "Content-Length": body.length,
              "Content-Type": "text/plain"
            });
            res.end(body);
          });
          this._server.listen(
            options.port,
            options.host,
            options.backlog,
            callback
          );
        } else if (options.server) {
          this._server = options.server;
        }
        if (this._server) {
          const emitConnection = this.emit.bind(this, "connection");
          this._removeListeners = addListeners(this._server, {
            listening: this.emit.bind(this, "listening"),
            error: this.emit.bind(this, "error"),
            upgrade: (req, socket, head2) => {
              this.handleUpgrade(req, socket, head2, emitConnection);
            }
          });
        }
        if (options.perMessageDeflate === true) options.perMessageDeflate = {};
        if (options.clientTracking) {
          this.clients = /* @__PURE__ */ new Set();
          this._shouldEmitClose = false;
        }
        this.options = options;
        this._state = RUNNING;
      }
      /**
       * Returns the bound address, the address family name, and port of the server
       * as reported by the operating system if listening on an IP socket.
       * If the server is listening on a pipe or UNIX domain socket, the name is
       * returned as a string.
       *
       * @return {(Object|String|null)} The address of the server
       * @public
       */
      address() {
        if (this.options.noServer) {
          throw new Error('The server is operating in "noServer" mode');
        }
        if (!this._server) return null;
        return this._server.address();
      }
      /**
       * Stop the server from accepting new connections and emit the `'close'` event
       * when all existing connections are closed.
       *
       * @param {Function} [cb] A one-time listener for the `'close'` event
       * @public
       */
      close(cb) {
        if (this._state === CLOSED) {
          if (cb) {
            this.once("close", () => {
              cb(new Error("The server is not running"));
            });
          }
          process.nextTick(emitClose, this);
          return;
        }
        if (cb) this.once("close", cb);
        if (this._state === CLOSING) return;
        this._state = CLOSING;
        if (this.options.noServer || this.options.server) {
          if (this._server) {
            this._removeListeners();
            this._removeListeners = this._server = null;
          }
          if (this.clients) {
            if (!this.clients.size) {
              process.nextTick(emitClose, this);
            } else {
              this._shouldEmitClose = true;
            }
          } else {
            process.nextTick(emitClose, this);
          }
        } else {
          const server = this._server;
          this._removeListeners();
          this._removeListeners = this._server = null;
          server.close(() => {
            emitClose(this);
          });
        }
      }
      /**
       * See if a given request should be handled by this server instance.
       *
       * @param {http.IncomingMessage} req Request object to inspect
       * @return {Boolean} `true` if the request is valid, else `false`
       * @public
       */
      shouldHandle(req) {
        if (this.options.path) {
          const index = req.url.indexOf("?");
          const pathname = index !== -1 ? req.url.slice(0, index) : req.url;
          if (pathname !== this.options.path) return false;
        }
        return true;
      }
      /**
       * Handle a HTTP Upgrade request.
       *
       * @param {http.IncomingMessage} req The request object
       * @param {Duplex} socket The network socket between the server and client
       * @param {Buffer} head The first packet of the upgraded stream
       * @param {Function} cb Callback
       * @public
       */
      handleUpgrade(req, socket, head2, cb) {
        socket.on("error", socketOnError);
        const key = req.headers["sec-websocket-key"];
        const upgrade = req.headers.upgrade;
        const version = +req.headers["sec-websocket-version"];
        if (req.method !== "GET") {
          const message2 = "Invalid HTTP method";
          abortHandshakeOrEmitwsClientError(this, req, socket, 405, message2);
          return;
        }
        if (upgrade === void 0 || upgrade.toLowerCase() !== "websocket") {
          const message2 = "Invalid Upgrade header";
          abortHandshakeOrEmitwsClientError(this, req, socket, 400, message2);
          return;
        }
        if (key === void 0 || !keyRegex.test(key)) {
          const message2 = "Missing or invalid Sec-WebSocket-Key header";
          abortHandshakeOrEmitwsClientError(this, req, socket, 400, message2);
          return;
        }
        if (version !== 13 && version !== 8) {
          const message2 = "Missing or invalid Sec-WebSocket-Version header";
          abortHandshakeOrEmitwsClientError(this, req, socket, 400, message2, {
            "Sec-WebSocket-Version": "13, 8"
          });
          return;
        }
        if (!this.shouldHandle(req)) {
          abortHandshake(socket, 400);
          return;
        }
        const secWebSocketProtocol = req.headers["sec-websocket-protocol"];
        let protocols = /* @__PURE__ */ new Set();
        if (secWebSocketProtocol !== void 0) {
          try {
            protocols = subprotocol2.parse(secWebSocketProtocol);
          } catch (err) {
            const message2 = "Invalid Sec-WebSocket-Protocol header";
            abortHandshakeOrEmitwsClientError(this, req, socket, 400, message2);
            return;
          }
        }
        const secWebSocketExtensions = req.headers["sec-websocket-extensions"];
        const extensions = {};
        if (this.options.perMessageDeflate && secWebSocketExtensions !== void 0) {
          const perMessageDeflate = new PerMessageDeflate3({
            ...this.options.perMessageDeflate,
            isServer: true,
            maxPayload: this.options.maxPayload
          });
          try {
            const offers = extension3.parse(secWebSocketExtensions);
            if (offers[PerMessageDeflate3.extensionName]) {
              perMessageDeflate.accept(offers[PerMessageDeflate3.extensionName]);
              extensions[PerMessageDeflate3.extensionName] = perMessageDeflate;
            }
          } catch (err) {
            const message2 = "Invalid or unacceptable Sec-WebSocket-Extensions header";
            abortHandshakeOrEmitwsClientError(this, req, socket, 400, message2);
            return;
          }
        }
        if (this.options.verifyClient) {
          const info = {
            origin: req.headers[`${version === 8 ? "sec-websocket-origin" : "origin"}`],
            secure: !!(req.socket.authorized || req.socket.encrypted),
            req
          };
          if (this.options.verifyClient.length === 2) {
            this.options.verifyClient(info, (verified, code, message2, headers) => {
              if (!verified) {
                return abortHandshake(socket, code || 401, message2, headers);
              }
              this.completeUpgrade(
                extensions,
                key,
                protocols,
                req,
                socket,
                head2,
                cb
              );
            });
            return;
          }
          if (!this.options.verifyClient(info)) return abortHandshake(socket, 401);
        }
        this.completeUpgrade(extensions, key, protocols, req, socket, head2, cb);
      }
      /**
       * Upgrade the connection to WebSocket.
       *
       * @param {Object} extensions The accepted extensions
       * @param {String} key The value of the `Sec-WebSocket-Key` header
       * @param {Set} protocols The subprotocols
       * @param {http.IncomingMessage} req The request object
       * @param {Duplex} socket The network socket between the server and client
       * @param {Buffer} head The first packet of the upgraded stream
       * @param {Function} cb Callback
       * @throws {Error} If called more than once with the same socket
       * @private
       */
      completeUpgrade(extensions, key, protocols, req, socket, head2, cb) {
        if (!socket.readable || !socket.writable) return socket.destroy();
        if (socket[kWebSocket]) {
          throw new Error(
            "server.handleUpgrade() was called more than once with the same socket, possibly due to a misconfiguration"
          );
        }
        if (this._state > RUNNING) return abortHandshake(socket, 503);
        const digest = createHash3("sha1").update(key + GUID).digest("base64");
        const headers = [
          "HTTP/1.1 101 Switching Protocols",
          "Upgrade: websocket",
          "Connection: Upgrade",
          `Sec-WebSocket-Accept: ${digest}`
        ];
        const ws = new this.options.WebSocket(null, void 0, this.options);
        if (protocols.size) {
          const protocol = this.options.handleProtocols ? this.options.handleProtocols(protocols, req) : protocols.values().next().value;
          if (protocol) {
            headers.push(`Sec-WebSocket-Protocol: ${protocol}`);
            ws._protocol = protocol;
          }
        }
        if (extensions[PerMessageDeflate3.extensionName]) {
          const params = extensions[PerMessageDeflate3.extensionName].params;
          const value = extension3.format({
            [PerMessageDeflate3.extensionName]: [params]
          });
          headers.push(`Sec-WebSocket-Extensions: ${value}`);
          ws._extensions = extensions;
        }
        this.emit("headers", headers, req);
        socket.write(headers.concat("\r\n").join("\r\n"));
        socket.removeListener("error", socketOnError);
        ws.setSocket(socket, head2, {
          allowSynchronousEvents: this.options.allowSynchronousEvents,
          maxBufferedChunks: this.options.maxBufferedChunks,
          maxFragments: this.options.maxFragments,
          maxPayload: this.options.maxPayload,
          skipUTF8Validation: this.options.skipUTF8Validation
        });
        if (this.clients) {
          this.clients.add(ws);
          ws.on("close", () => {
            this.clients.delete(ws);
            if (this._shouldEmitClose && !this.clients.size) {
              process.nextTick(emitClose, this);
            }
          });
        }
        cb(ws, req);
      }
    };
    module.exports = WebSocketServer2;
    function addListeners(server, map) {
      for (const event of Object.keys(map)) server.on(event, map[event]);
      return function removeListeners() {
        for (const event of Object.keys(map)) {
          server.removeListener(event, map[event]);
        }
      };
    }
    function emitClose(server) {
      server._state = CLOSED;
      server.emit("close");
    }
    function socketOnError() {
      this.destroy();
    }
    function abortHandshake(socket, code, message2, headers) {
      message2 = message2 || http.STATUS_CODES[code];
      headers = {
        Connection: "close",
        "Content-Type": "text/html",
        "Content-Length": Buffer.byteLength(message2),
        ...headers
      };
      socket.once("finish", socket.destroy);
      socket.end(
        `HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r
` + Object.keys(headers).map((h) => `${h}: ${headers[h]}`).join("\r\n") + "\r\n\r\n" + message2
      );
    }
    function abortHandshakeOrEmitwsClientError(server, req, socket, code, message2, headers) {
      if (server.listenerCount("wsClientError")) {
        const err = new Error(message2);
        Error.captureStackTrace(err, abortHandshakeOrEmitwsClientError);
        server.emit("wsClientError", err, socket, req);
      } else {
        abortHandshake(socket, code, message2, headers);
      }
    }
  }
});

// src/protocol/constants.ts
var Opcode, CloseCode, AUTOBAHN_DEFAULTS;
var init_constants = __esm({
  "src/protocol/constants.ts"() {
    "use strict";
    Opcode = {
      Continuation: 0,
      Text: 1,
      Binary: 2,
      Close: 8,
      Ping: 9,
      Pong: 10
    };
    CloseCode = {
      Normal: 1e3,
      GoingAway: 1001,
      ProtocolError: 1002,
      UnsupportedData: 1003,
      NoStatus: 1005,
      Abnormal: 1006,
      InvalidPayload: 1007,
      PolicyViolation: 1008,
      MessageTooBig: 1009,
      MandatoryExtension: 1010,
      InternalError: 1011
    };
    AUTOBAHN_DEFAULTS = {
      /** Drop a connection whose opening handshake is not complete by then. */
      openHandshakeTimeoutMs: 5e3,
      /** Drop a connection whose peer does not answer our close frame by then. */
      closeHandshakeTimeoutMs: 1e3,
      /** Fail connections with a close frame, never by dropping TCP (the fuzzers force it). */
      failByDrop: false,
      /** Largest message (and frame) payload accepted; more is refused with 1009. */
      maxMessagePayload: 64 * 1024 * 1024,
      /** A client waits this long after the closing handshake for the server to drop TCP (serverConnectionDropTimeout). */
      serverDropTimeoutMs: 1e3,
      /** zlib level of the fuzzer's own compressed messages (no verdict depends on it). */
      deflateLevel: 1,
      /** Largest opening handshake head read; a longer one gets 431. */
      maxHeadBytes: 16 * 1024
    };
  }
});

// src/cases/data/framing-sizes.ts
var framingSizes;
var init_framing_sizes = __esm({
  "src/cases/data/framing-sizes.ts"() {
    "use strict";
    framingSizes = [
      // 7-bit length field: 0 and its largest value, 125.
      { textId: "1.1.1", binaryId: "1.2.1", length: 0, chopSize: null, killAfter: 1 },
      { textId: "1.1.2", binaryId: "1.2.2", length: 125, chopSize: null, killAfter: 1 },
      // 126 switches to the 16-bit extended length (0x7e + 2 bytes).
      { textId: "1.1.3", binaryId: "1.2.3", length: 126, chopSize: null, killAfter: 1 },
      { textId: "1.1.4", binaryId: "1.2.4", length: 127, chopSize: null, killAfter: 1 },
      { textId: "1.1.5", binaryId: "1.2.5", length: 128, chopSize: null, killAfter: 1 },
      // The largest 16-bit length, then the first 64-bit one (0x7f + 8 bytes).
      { textId: "1.1.6", binaryId: "1.2.6", length: 65535, chopSize: null, killAfter: 10 },
      { textId: "1.1.7", binaryId: "1.2.7", length: 65536, chopSize: null, killAfter: 10 },
      // The same 64 KiB frame written 997 bytes at a time: its 65546 bytes (10 of header) go out as 65
      // writes of 997 bytes and one of 741.
      { textId: "1.1.8", binaryId: "1.2.8", length: 65536, chopSize: 997, killAfter: 10 }
    ];
  }
});

// src/cases/categories.ts
function isWsgateCase(id) {
  return WSGATE_GROUPS.has(id.split(".")[0] ?? "");
}
function deflateParams(tuples) {
  const what = "(requestNoContextTakeover, requestMaxWindowBits)";
  return `Large JSON data file (utf8, 194056 bytes) - client offers ${what}: ${tuples} / server accept ${what}: ${tuples}`;
}
var categoryNames, WSGATE_GROUPS, subcategoryNames;
var init_categories = __esm({
  "src/cases/categories.ts"() {
    "use strict";
    categoryNames = {
      "1": "Framing",
      "2": "Pings/Pongs",
      "3": "Reserved Bits",
      "4": "Opcodes",
      "5": "Fragmentation",
      "6": "UTF-8 Handling",
      "7": "Close Handling",
      "9": "Limits/Performance",
      "10": "Misc",
      "12": "WebSocket Compression (different payloads)",
      "13": "WebSocket Compression (different parameters)",
      // wsgate's own (not in Autobahn|Testsuite): selected with --extended only.
      "14": "Opening Handshake and Extension Negotiation",
      // The same subjects from the other side: a server under test (--role server --extended).
      "15": "Opening Handshake and Framing (server under test)",
      // RFC 8441's own rules, both roles (--http2 --extended): 16.1 for a server under test, 16.2 for a client.
      "16": "WebSocket over HTTP/2 (RFC 8441)",
      // The robustness profile (--robustness only, never by default): the known denial-of-service attacks.
      "17": "Robustness: attacks on a server under test",
      "18": "Robustness: attacks on a client under test"
    };
    WSGATE_GROUPS = /* @__PURE__ */ new Set(["14", "15", "16", "17", "18"]);
    subcategoryNames = {
      "15.1": "Upgrade requests the server must refuse",
      "15.2": "permessage-deflate offers the server must decline",
      "15.3": "Frames the server must refuse",
      "16.1": "Server under test: SETTINGS, extended CONNECT, stream ends, several streams, flow control, PING (RFC 8441)",
      "16.2": "Client under test: extended CONNECT, 2xx without Sec-WebSocket-Accept, stream ends, flow control, PING (RFC 8441)",
      "1.1": "Text Messages",
      "1.2": "Binary Messages",
      "4.1": "Non-control Opcodes",
      "4.2": "Control Opcodes",
      "6.1": "Valid UTF-8 with zero payload fragments",
      "6.2": "Valid UTF-8 unfragmented, fragmented on code-points and within code-points",
      "6.3": "Invalid UTF-8 differently fragmented",
      "6.4": "Fail-fast on invalid UTF-8",
      "6.5": "Some valid UTF-8 sequences",
      "6.6": "All prefixes of a valid UTF-8 string that contains multi-byte code points",
      "6.7": "First possible sequence of a certain length",
      "6.8": "First possible sequence length 5/6 (invalid codepoints)",
      "6.9": "Last possible sequence of a certain length",
      "6.10": "Last possible sequence length 4/5/6 (invalid codepoints)",
      "6.11": "Other boundary conditions",
      "6.12": "Unexpected continuation bytes",
      "6.13": "Lonely start characters",
      "6.14": "Sequences with last continuation byte missing",
      "6.15": "Concatenation of incomplete sequences",
      "6.16": "Impossible bytes",
      "6.17": "Examples of an overlong ASCII character",
      "6.18": "Maximum overlong sequences",
      "6.19": "Overlong representation of the NUL character",
      "6.20": "Single UTF-16 surrogates",
      "6.21": "Paired UTF-16 surrogates",
      "6.22": "Non-character code points (valid UTF-8)",
      "6.23": "Unicode specials (i.e. replacement char)",
      "7.1": "Basic close behavior (fuzzer initiated)",
      "7.3": "Close frame structure: payload length (fuzzer initiated)",
      "7.5": "Close frame structure: payload value (fuzzer initiated)",
      "7.7": "Close frame structure: valid close codes (fuzzer initiated)",
      "7.9": "Close frame structure: invalid close codes (fuzzer initiated)",
      "7.13": "Informational close information (fuzzer initiated)",
      "9.1": "Text Message (increasing size)",
      "9.2": "Binary Message (increasing size)",
      "9.3": "Fragmented Text Message (fixed size, increasing fragment size)",
      "9.4": "Fragmented Binary Message (fixed size, increasing fragment size)",
      "9.5": "Text Message (fixed size, increasing chop size)",
      "9.6": "Binary Text Message (fixed size, increasing chop size)",
      "9.7": "Text Message Roundtrip Time (fixed number, increasing size)",
      "9.8": "Binary Message Roundtrip Time (fixed number, increasing size)",
      "10.1": "Auto-Fragmentation",
      "12.1": "Large JSON data file (utf8, 194056 bytes)",
      "12.2": "Lena Picture, Bitmap 512x512 bw (binary, 263222 bytes)",
      "12.3": "Human readable text, Goethe's Faust I (German) (binary, 222218 bytes)",
      "12.4": "Large HTML file (utf8, 263647 bytes)",
      "12.5": "A larger PDF (binary, 1042328 bytes)",
      "13.1": deflateParams("[(False, 0)]"),
      "13.2": deflateParams("[(True, 0)]"),
      "13.3": deflateParams("[(False, 9)]"),
      "13.4": deflateParams("[(False, 15)]"),
      "13.5": deflateParams("[(True, 9)]"),
      "13.6": deflateParams("[(True, 15)]"),
      "13.7": deflateParams("[(True, 9), (True, 0), (False, 0)]"),
      "14.1": "Responses to refuse: status line and required header fields (RFC 6455 \xA74.1)",
      "14.2": "Responses to refuse: extensions and subprotocols not offered (RFC 6455 \xA74.1)",
      "14.3": "Responses to refuse: permessage-deflate parameters (RFC 7692 \xA77.1)",
      "14.4": "Responses to accept: delivery, letter case, whitespace, lists (RFC 6455 \xA74.1, RFC 7230 \xA73.2)",
      "14.5": "Compressed messages to inflate (RFC 7692 \xA77.2.2, \xA77.2.3)",
      "14.6": "Close reasons at the edges (RFC 6455 \xA75.5.1, \xA78.1)"
    };
  }
});

// src/util/bytes.ts
function toBuffer(data) {
  if (typeof data === "string") return Buffer.from(data, "utf8");
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
var EMPTY;
var init_bytes = __esm({
  "src/util/bytes.ts"() {
    "use strict";
    EMPTY = Buffer.alloc(0);
  }
});

// src/cases/define.ts
function placement(id) {
  if (!ID_PATTERN.test(id)) throw new Error(`case id ${JSON.stringify(id)} is not a dotted number`);
  const parts = id.split(".");
  const category = categoryNames[parts[0] ?? ""];
  if (category === void 0) throw new Error(`case ${id}: no category ${parts[0] ?? ""}`);
  const subcategory = parts.length > 2 ? subcategoryNames[`${parts[0] ?? ""}.${parts[1] ?? ""}`] ?? "" : "";
  return { category, subcategory, origin: isWsgateCase(id) ? "wsgate" : "autobahn" };
}
function defineCase(def) {
  return { ...def, ...placement(def.id) };
}
function defineAttack(def) {
  return { ...def, ...placement(def.id) };
}
function message(data, binary = false) {
  return { kind: "message", data: toBuffer(data), binary };
}
function pong(data = "") {
  return { kind: "pong", data: toBuffer(data) };
}
function closedByMe(codes = [1e3]) {
  return { closedByMe: true, closeCode: codes, requireClean: true };
}
function failedByPeer(codes, options = {}) {
  const close = { closedByMe: false, closeCode: codes, requireClean: false };
  if (options.fatal === true) close.closedByWrongEndpointIsFatal = true;
  return close;
}
function hex(text) {
  return Buffer.from(text.replace(/\s+/g, ""), "hex");
}
function timeout(tag) {
  return { kind: "timeout", tag };
}
function wrongCodeFails(verdict) {
  if (verdict.behaviorClose !== "WRONG CODE") return verdict;
  return { ...verdict, behavior: "FAILED", result: verdict.resultClose };
}
var ID_PATTERN;
var init_define = __esm({
  "src/cases/define.ts"() {
    "use strict";
    init_categories();
    init_bytes();
    ID_PATTERN = /^\d+(\.\d+)+$/;
  }
});

// src/cases/s01-framing.ts
function sizeCase(id, size, binary) {
  const payload2 = binary ? Buffer.alloc(size.length, 254) : "*".repeat(size.length);
  const kind = binary ? "binary" : "text";
  const content = binary ? "the byte 0xfe" : '"*"';
  const chopped = size.chopSize === null ? "" : `, written to TCP in chops of ${size.chopSize} bytes`;
  return defineCase({
    id,
    description: size.length === 0 ? `A ${kind} message with an empty payload, in one frame.` : `A ${kind} message of ${size.length} bytes (${content} repeated), in one frame${chopped}.`,
    expectation: `The client echoes the ${kind} message back unchanged, then answers the fuzzer's close (1000) cleanly.`,
    expect: { OK: [message(payload2, binary)] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: binary ? Opcode.Binary : Opcode.Text, payload: payload2, chopSize: size.chopSize });
      t.killAfter(size.killAfter);
    }
  });
}
var framingCases;
var init_s01_framing = __esm({
  "src/cases/s01-framing.ts"() {
    "use strict";
    init_constants();
    init_framing_sizes();
    init_define();
    framingCases = [
      ...framingSizes.map((s) => sizeCase(s.textId, s, false)),
      ...framingSizes.map((s) => sizeCase(s.binaryId, s, true))
    ];
  }
});

// src/cases/s02-pings.ts
function pingCase(id, description, payload2, options = {}) {
  return defineCase({
    id,
    description,
    expectation: "The client answers with a pong carrying the same payload, then answers the fuzzer's close (1000) cleanly.",
    expect: { OK: [pong(payload2)] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: Opcode.Ping, payload: payload2, chopSize: options.chopSize ?? null });
      t.closeAfter(options.closeAfter ?? 1);
    }
  });
}
function unsolicitedPongCase(id, description, payload2) {
  return defineCase({
    id,
    description,
    expectation: "The client sends nothing in reply to the pong and answers the close (1000) cleanly.",
    expect: { OK: [] },
    close: closedByMe(),
    run(t) {
      t.sendFrame({ opcode: Opcode.Pong, payload: payload2 });
      t.sendClose(CloseCode.Normal);
      t.closeAfter(1);
    }
  });
}
function tenPingsCase(id, description, chopSize) {
  const payloads = Array.from({ length: 10 }, (_, i) => `payload-${i}`);
  return defineCase({
    id,
    description,
    expectation: "The client answers every ping with a pong carrying its payload, in order, then answers the fuzzer's close (1000) cleanly. (The RFC allows a peer to answer only the latest of several pings; this case expects all ten pongs all the same.)",
    expect: { OK: payloads.map((p) => pong(p)) },
    close: closedByMe(),
    run(t) {
      for (const payload2 of payloads) t.sendFrame({ opcode: Opcode.Ping, payload: payload2, chopSize });
      t.closeAfter(3);
    }
  });
}
var pingCases;
var init_s02_pings = __esm({
  "src/cases/s02-pings.ts"() {
    "use strict";
    init_constants();
    init_define();
    pingCases = [
      pingCase("2.1", "A ping with an empty payload.", ""),
      pingCase("2.2", 'A ping with the text payload "Hello, world!".', "Hello, world!"),
      // 0x00 0xff 0xfe 0xfd 0xfc 0xfb 0x00 0xff: not UTF-8, which a ping payload need not be.
      pingCase("2.3", "A ping with the 8-byte binary payload 0x00fffefdfcfb00ff (not UTF-8).", hex("00 ff fe fd fc fb 00 ff")),
      pingCase("2.4", "A ping with a payload of 125 bytes (0xfe repeated), the most a control frame may carry.", Buffer.alloc(125, 254)),
      defineCase({
        id: "2.5",
        description: "A ping with a payload of 126 bytes (0xfe repeated), one more than a control frame may carry.",
        expectation: "The client fails the connection at once (1002, protocol error) and sends no pong.",
        expect: { OK: [] },
        close: failedByPeer([CloseCode.ProtocolError]),
        run(t) {
          t.sendFrame({ opcode: Opcode.Ping, payload: Buffer.alloc(126, 254) });
          t.killAfter(1);
        }
      }),
      pingCase("2.6", "A ping with a payload of 125 bytes (0xfe repeated), written to TCP one byte at a time.", Buffer.alloc(125, 254), {
        chopSize: 1,
        closeAfter: 2
      }),
      unsolicitedPongCase("2.7", "An unsolicited pong with an empty payload, then a close (1000).", ""),
      unsolicitedPongCase("2.8", 'An unsolicited pong with the payload "unsolicited pong payload", then a close (1000).', "unsolicited pong payload"),
      defineCase({
        id: "2.9",
        description: 'An unsolicited pong with the payload "unsolicited pong payload", then a ping with the payload "ping payload".',
        expectation: `The client ignores the pong, answers the ping with a pong carrying "ping payload", then answers the fuzzer's close (1000) cleanly.`,
        expect: { OK: [pong("ping payload")] },
        close: closedByMe(),
        run(t) {
          t.sendFrame({ opcode: Opcode.Pong, payload: "unsolicited pong payload" });
          t.sendFrame({ opcode: Opcode.Ping, payload: "ping payload" });
          t.closeAfter(1);
        }
      }),
      tenPingsCase("2.10", 'Ten pings in a row, with the payloads "payload-0" to "payload-9".', null),
      tenPingsCase("2.11", 'Ten pings in a row, with the payloads "payload-0" to "payload-9", written to TCP one byte at a time.', 1)
    ];
  }
});

// src/cases/data/delivery.ts
function deliveryPhrase(delivery) {
  if (delivery === Delivery.perOctet) return "written to TCP one byte at a time";
  if (delivery === Delivery.perFrame) return "each frame written to TCP on its own";
  return "all written to TCP at once";
}
var Delivery, PER_OCTET_RACE_SCHEDULE;
var init_delivery = __esm({
  "src/cases/data/delivery.ts"() {
    "use strict";
    Delivery = {
      /** Every frame written at once: they usually reach the peer in one TCP segment ("one chop"). */
      together: {},
      /** Each frame a TCP write of its own, after the previous one flushed ("frame-wise chops"). */
      perFrame: { sync: true },
      /** Every byte a TCP write of its own ("octet-wise chops"). */
      perOctet: { chopSize: 1 }
    };
    PER_OCTET_RACE_SCHEDULE = { runsAlone: true };
  }
});

// src/cases/s03-reserved-bits.ts
function rsvFrameCase(id, description, frame) {
  return defineCase({
    id,
    description,
    expectation: "The client fails the connection at once (1002, protocol error): no extension was negotiated that gives the RSV bits a meaning.",
    expect: { OK: [] },
    close: FAIL_1002,
    run(t) {
      t.sendFrame(frame);
      t.killAfter(1);
    }
  });
}
function afterEchoCase(id, rsv, delivery) {
  return defineCase({
    id,
    description: `A text message "${HELLO}", then the same message with RSV = ${rsv}, then a ping with an empty payload, ${deliveryPhrase(delivery)}.`,
    expectation: "The client echoes the first message, then fails the connection (1002, protocol error) on the frame with RSV bits set, and sends no pong.",
    expect: { OK: [message(HELLO)], "NON-STRICT": [] },
    close: FAIL_1002,
    ...delivery === Delivery.perOctet ? { schedule: PER_OCTET_RACE_SCHEDULE } : {},
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: HELLO, ...delivery });
      t.sendFrame({ opcode: Opcode.Text, payload: HELLO, rsv, ...delivery });
      t.sendFrame({ opcode: Opcode.Ping, ...delivery });
      t.killAfter(1);
    }
  });
}
var HELLO, FAIL_1002, reservedBitCases;
var init_s03_reserved_bits = __esm({
  "src/cases/s03-reserved-bits.ts"() {
    "use strict";
    init_constants();
    init_delivery();
    init_define();
    HELLO = "Hello, world!";
    FAIL_1002 = failedByPeer([CloseCode.ProtocolError]);
    reservedBitCases = [
      rsvFrameCase("3.1", `A text message "${HELLO}" with RSV = 1 (RSV3 set).`, { opcode: Opcode.Text, payload: HELLO, rsv: 1 }),
      afterEchoCase("3.2", 2, Delivery.together),
      afterEchoCase("3.3", 3, Delivery.perFrame),
      afterEchoCase("3.4", 4, Delivery.perOctet),
      rsvFrameCase("3.5", "A binary message 0x00fffefdfcfb00ff with RSV = 5 (RSV1 and RSV3 set).", {
        opcode: Opcode.Binary,
        payload: hex("00 ff fe fd fc fb 00 ff"),
        rsv: 5
      }),
      // Autobahn's own description of 3.6 says "Ping", but the frame it sends is a binary message.
      rsvFrameCase("3.6", `A binary message "${HELLO}" with RSV = 6 (RSV1 and RSV2 set).`, {
        opcode: Opcode.Binary,
        payload: HELLO,
        rsv: 6
      }),
      rsvFrameCase("3.7", "A close frame with an empty payload and RSV = 7 (all three bits set).", { opcode: Opcode.Close, rsv: 7 })
    ];
  }
});

// src/cases/data/reserved-opcodes.ts
var reservedOpcodeCases;
var init_reserved_opcodes = __esm({
  "src/cases/data/reserved-opcodes.ts"() {
    "use strict";
    init_delivery();
    reservedOpcodeCases = [
      { id: "4.1.1", opcode: 3, payload: "", betweenMessageAndPing: false, delivery: Delivery.together },
      { id: "4.1.2", opcode: 4, payload: "reserved opcode payload", betweenMessageAndPing: false, delivery: Delivery.together },
      { id: "4.1.3", opcode: 5, payload: "", betweenMessageAndPing: true, delivery: Delivery.together },
      { id: "4.1.4", opcode: 6, payload: "Hello, world!", betweenMessageAndPing: true, delivery: Delivery.together },
      { id: "4.1.5", opcode: 7, payload: "Hello, world!", betweenMessageAndPing: true, delivery: Delivery.perOctet },
      { id: "4.2.1", opcode: 11, payload: "", betweenMessageAndPing: false, delivery: Delivery.together },
      { id: "4.2.2", opcode: 12, payload: "reserved opcode payload", betweenMessageAndPing: false, delivery: Delivery.together },
      { id: "4.2.3", opcode: 13, payload: "", betweenMessageAndPing: true, delivery: Delivery.together },
      { id: "4.2.4", opcode: 14, payload: "Hello, world!", betweenMessageAndPing: true, delivery: Delivery.together },
      { id: "4.2.5", opcode: 15, payload: "Hello, world!", betweenMessageAndPing: true, delivery: Delivery.perOctet }
    ];
  }
});

// src/cases/s04-opcodes.ts
function opcodeCase(c3) {
  const kind = c3.opcode < 8 ? "non-control" : "control";
  const frame = `a frame with the reserved ${kind} opcode ${c3.opcode} and ${c3.payload === "" ? "an empty payload" : `the payload "${c3.payload}"`}`;
  return defineCase({
    id: c3.id,
    description: c3.betweenMessageAndPing ? `A text message "${HELLO2}", then ${frame}, then a ping with an empty payload, ${deliveryPhrase(c3.delivery)}.` : `${frame.charAt(0).toUpperCase()}${frame.slice(1)}.`,
    expectation: c3.betweenMessageAndPing ? "The client echoes the text message, then fails the connection (1002, protocol error) on the reserved opcode, and sends no pong." : "The client fails the connection at once (1002, protocol error) on the reserved opcode.",
    // A peer that fails before echoing the first message (it read all frames first) is NON-STRICT.
    expect: c3.betweenMessageAndPing ? { OK: [message(HELLO2)], "NON-STRICT": [] } : { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    ...c3.betweenMessageAndPing && c3.delivery === Delivery.perOctet ? { schedule: PER_OCTET_RACE_SCHEDULE } : {},
    run(t) {
      if (c3.betweenMessageAndPing) t.sendFrame({ opcode: Opcode.Text, payload: HELLO2, ...c3.delivery });
      t.sendFrame({ opcode: c3.opcode, payload: c3.payload, ...c3.delivery });
      if (c3.betweenMessageAndPing) t.sendFrame({ opcode: Opcode.Ping, ...c3.delivery });
      t.killAfter(1);
    }
  });
}
var HELLO2, opcodeCases;
var init_s04_opcodes = __esm({
  "src/cases/s04-opcodes.ts"() {
    "use strict";
    init_constants();
    init_delivery();
    init_reserved_opcodes();
    init_define();
    HELLO2 = "Hello, world!";
    opcodeCases = reservedOpcodeCases.map(opcodeCase);
  }
});

// src/cases/s05-fragmentation.ts
function send(t, frames, delivery) {
  for (const [opcode, fin, payload2] of frames) t.sendFrame({ opcode, fin, payload: payload2, ...delivery });
}
function failCase(id, description, frames, delivery, why) {
  return defineCase({
    id,
    description,
    expectation: `The client fails the connection at once (1002, protocol error), since ${why}, and echoes nothing.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError]),
    run(t) {
      send(t, frames, delivery);
      t.killAfter(1);
    }
  });
}
function fragmentedControl(id, opcode, name) {
  return failCase(
    id,
    `A ${name} split into two fragments: a ${name} frame "fragment1" with FIN clear, then a continuation frame "fragment2".`,
    [
      [opcode, false, "fragment1"],
      [CONT, true, "fragment2"]
    ],
    Delivery.together,
    "control frames must not be fragmented"
  );
}
function twoFragments(id, delivery) {
  return defineCase({
    id,
    description: `A text message in two fragments, "fragment1" (FIN clear) and a continuation "fragment2", ${deliveryPhrase(delivery)}.`,
    expectation: `The client echoes the message "fragment1fragment2", then answers the fuzzer's close (1000) cleanly.`,
    expect: { OK: [message("fragment1fragment2")] },
    close: closedByMe(),
    schedule: { cost: 1.05 },
    run(t) {
      send(
        t,
        [
          [TEXT, false, "fragment1"],
          [CONT, true, "fragment2"]
        ],
        delivery
      );
      t.closeAfter(1);
    }
  });
}
function pingBetweenFragments(id, delivery) {
  return defineCase({
    id,
    description: `A text message in two fragments, "fragment1" and "fragment2", with a ping "ping payload" between them, ${deliveryPhrase(delivery)}.`,
    expectation: `The client answers the ping with a pong "ping payload" first, then echoes the message "fragment1fragment2", then answers the fuzzer's close (1000) cleanly.`,
    expect: { OK: [pong("ping payload"), message("fragment1fragment2")] },
    close: closedByMe(),
    run(t) {
      send(
        t,
        [
          [TEXT, false, "fragment1"],
          [PING, true, "ping payload"],
          [CONT, true, "fragment2"]
        ],
        delivery
      );
      t.closeAfter(1);
    }
  });
}
function orphanContinuation(id, fin, delivery) {
  return failCase(
    id,
    `A continuation frame "non-continuation payload" with FIN ${fin ? "set" : "clear"} while no message is open, then a text message "Hello, world!", ${deliveryPhrase(delivery)}.`,
    [
      [CONT, fin, "non-continuation payload"],
      [TEXT, true, "Hello, world!"]
    ],
    delivery,
    "there is no message to continue"
  );
}
function orphanThenMessageTwice(id, fin) {
  const round = [
    [CONT, fin, "fragment1"],
    [TEXT, false, "fragment2"],
    [CONT, true, "fragment3"]
  ];
  return failCase(
    id,
    `Twice: a continuation frame "fragment1" with FIN ${fin ? "set" : "clear"} while no message is open, then a text message in two fragments, "fragment2" and "fragment3".`,
    [...round, ...round],
    Delivery.together,
    "the first frame has no message to continue"
  );
}
function slowFragmentsWithPings(id, delivery) {
  const fragments = ["fragment1", "fragment2", "fragment3", "fragment4", "fragment5"];
  return defineCase({
    id,
    description: 'A text message in five fragments "fragment1" to "fragment5": the first two and a ping "pongme 1!", then one second later the next two, a ping "pongme 2!" and the last fragment. Everything is valid.' + (delivery === Delivery.perFrame ? " Each frame is written to TCP on its own." : ""),
    expectation: "The client answers the first ping before the message is complete, then the second, each pong carrying its ping's payload, then echoes the whole message, then answers the fuzzer's close (1000) cleanly.",
    expect: { OK: [pong("pongme 1!"), pong("pongme 2!"), message(fragments.join(""))] },
    close: closedByMe(),
    schedule: { cost: 1.05, idle: true },
    async run(t) {
      send(
        t,
        [
          [TEXT, false, "fragment1"],
          [CONT, false, "fragment2"],
          [PING, true, "pongme 1!"]
        ],
        delivery
      );
      await t.pause(1);
      send(
        t,
        [
          [CONT, false, "fragment3"],
          [CONT, false, "fragment4"],
          [PING, true, "pongme 2!"],
          [CONT, true, "fragment5"]
        ],
        delivery
      );
      t.closeAfter(1);
    }
  });
}
var CONT, TEXT, PING, PONG, fragmentationCases;
var init_s05_fragmentation = __esm({
  "src/cases/s05-fragmentation.ts"() {
    "use strict";
    init_constants();
    init_delivery();
    init_define();
    ({ Continuation: CONT, Text: TEXT, Ping: PING, Pong: PONG } = Opcode);
    fragmentationCases = [
      fragmentedControl("5.1", PING, "ping"),
      fragmentedControl("5.2", PONG, "pong"),
      twoFragments("5.3", Delivery.together),
      twoFragments("5.4", Delivery.perFrame),
      twoFragments("5.5", Delivery.perOctet),
      pingBetweenFragments("5.6", Delivery.together),
      pingBetweenFragments("5.7", Delivery.perFrame),
      pingBetweenFragments("5.8", Delivery.perOctet),
      orphanContinuation("5.9", true, Delivery.together),
      orphanContinuation("5.10", true, Delivery.perFrame),
      orphanContinuation("5.11", true, Delivery.perOctet),
      orphanContinuation("5.12", false, Delivery.together),
      orphanContinuation("5.13", false, Delivery.perFrame),
      orphanContinuation("5.14", false, Delivery.perOctet),
      defineCase({
        id: "5.15",
        description: 'A text message in two fragments, "fragment1" and "fragment2", then a continuation frame "fragment3" with FIN clear while no message is open, then a text message "fragment4", all written to TCP at once.',
        expectation: 'The client echoes the message "fragment1fragment2", then fails the connection (1002, protocol error), since there is no message to continue.',
        // A peer that fails before echoing the valid message (it read all frames first) is NON-STRICT.
        expect: { OK: [message("fragment1fragment2")], "NON-STRICT": [] },
        close: failedByPeer([CloseCode.ProtocolError]),
        run(t) {
          send(
            t,
            [
              [TEXT, false, "fragment1"],
              [CONT, true, "fragment2"],
              [CONT, false, "fragment3"],
              [TEXT, true, "fragment4"]
            ],
            Delivery.together
          );
          t.killAfter(1);
        }
      }),
      orphanThenMessageTwice("5.16", false),
      orphanThenMessageTwice("5.17", true),
      failCase(
        "5.18",
        'A text message in two fragments whose second frame is a text frame again: "fragment1" (text, FIN clear), then "fragment2" (text, FIN set).',
        [
          [TEXT, false, "fragment1"],
          [TEXT, true, "fragment2"]
        ],
        Delivery.together,
        "every frame after the first of a message must be a continuation frame"
      ),
      slowFragmentsWithPings("5.19", Delivery.together),
      slowFragmentsWithPings("5.20", Delivery.perFrame)
    ];
  }
});

// src/cases/data/utf8-vectors.ts
var utf8Vectors;
var init_utf8_vectors = __esm({
  "src/cases/data/utf8-vectors.ts"() {
    "use strict";
    utf8Vectors = [
      // 6.5, some valid text: 'hello' + U+0024 / U+00A2 / U+20AC / U+24B62 (1 to 4 bytes) + 'world', then
      // 'κόσμε' (ce ba | e1 bd b9 | cf 83 | ce bc | ce b5), the Greek word of Kuhn's file.
      { id: "6.5.1", hex: "68656c6c6f24776f726c64", valid: true },
      { id: "6.5.2", hex: "68656c6c6fc2a2776f726c64", valid: true },
      { id: "6.5.3", hex: "68656c6c6fe282ac776f726c64", valid: true },
      { id: "6.5.4", hex: "68656c6c6ff0a4ada2776f726c64", valid: true },
      { id: "6.5.5", hex: "cebae1bdb9cf83cebcceb5", valid: true },
      // 6.6, every prefix of 'κόσμε', 1 to 11 bytes. Autobahn marks each with its incremental validator
      // (valid and ending on a code point boundary), which holds for the prefixes that end after a whole
      // code point: 2, 5, 7, 9 and 11 bytes. The others end inside a sequence: an incomplete message.
      { id: "6.6.1", hex: "ce", valid: false },
      { id: "6.6.2", hex: "ceba", valid: true },
      { id: "6.6.3", hex: "cebae1", valid: false },
      { id: "6.6.4", hex: "cebae1bd", valid: false },
      { id: "6.6.5", hex: "cebae1bdb9", valid: true },
      { id: "6.6.6", hex: "cebae1bdb9cf", valid: false },
      { id: "6.6.7", hex: "cebae1bdb9cf83", valid: true },
      { id: "6.6.8", hex: "cebae1bdb9cf83ce", valid: false },
      { id: "6.6.9", hex: "cebae1bdb9cf83cebc", valid: true },
      { id: "6.6.10", hex: "cebae1bdb9cf83cebcce", valid: false },
      { id: "6.6.11", hex: "cebae1bdb9cf83cebcceb5", valid: true },
      // 6.7, the first code point of each length: U+0000, U+0080, U+0800, U+10000.
      { id: "6.7.1", hex: "00", valid: true },
      { id: "6.7.2", hex: "c280", valid: true },
      { id: "6.7.3", hex: "e0a080", valid: true },
      { id: "6.7.4", hex: "f0908080", valid: true },
      // 6.8, the first five- and six-byte sequences of the old 31-bit scheme (U+200000, U+4000000): beyond
      // U+10FFFF, and 0xf8-0xfd are never valid lead bytes (RFC 3629).
      { id: "6.8.1", hex: "f888808080", valid: false },
      { id: "6.8.2", hex: "fc8480808080", valid: false },
      // 6.9, the last code point of each length: U+007F, U+07FF, U+FFFF, U+10FFFF.
      { id: "6.9.1", hex: "7f", valid: true },
      { id: "6.9.2", hex: "dfbf", valid: true },
      { id: "6.9.3", hex: "efbfbf", valid: true },
      { id: "6.9.4", hex: "f48fbfbf", valid: true },
      // 6.10, the last four-, five- and six-byte sequences of the old scheme (U+1FFFFF, U+3FFFFFF,
      // U+7FFFFFFF): beyond U+10FFFF.
      { id: "6.10.1", hex: "f7bfbfbf", valid: false },
      { id: "6.10.2", hex: "fbbfbfbfbf", valid: false },
      { id: "6.10.3", hex: "fdbfbfbfbfbf", valid: false },
      // 6.11, other boundaries: U+D7FF (just below the surrogates), U+E000 (just above), U+FFFD, U+10FFFF,
      // and 0xf4 0x90 0x80 0x80, U+110000, the first code point too large.
      { id: "6.11.1", hex: "ed9fbf", valid: true },
      { id: "6.11.2", hex: "ee8080", valid: true },
      { id: "6.11.3", hex: "efbfbd", valid: true },
      { id: "6.11.4", hex: "f48fbfbf", valid: true },
      { id: "6.11.5", hex: "f4908080", valid: false },
      // 6.12, continuation bytes (0x80-0xbf) with no lead byte. 6.12.8 is 0x80 to 0xbe in order (Autobahn's
      // range stops before 0xbf).
      { id: "6.12.1", hex: "80", valid: false },
      { id: "6.12.2", hex: "bf", valid: false },
      { id: "6.12.3", hex: "80bf", valid: false },
      { id: "6.12.4", hex: "80bf80", valid: false },
      { id: "6.12.5", hex: "80bf80bf", valid: false },
      { id: "6.12.6", hex: "80bf80bf80", valid: false },
      { id: "6.12.7", hex: "80bf80bf80bf", valid: false },
      {
        id: "6.12.8",
        hex: "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbe",
        valid: false
      },
      // 6.13, lead bytes each followed by a space (0x20) instead of their continuation bytes: 0xc0-0xde,
      // 0xe0-0xee, 0xf0-0xf6, 0xf8-0xfa and 0xfc (each of Autobahn's ranges stops one byte early).
      {
        id: "6.13.1",
        hex: "c020c120c220c320c420c520c620c720c820c920ca20cb20cc20cd20ce20cf20d020d120d220d320d420d520d620d720d820d920da20db20dc20dd20de20",
        valid: false
      },
      { id: "6.13.2", hex: "e020e120e220e320e420e520e620e720e820e920ea20eb20ec20ed20ee20", valid: false },
      { id: "6.13.3", hex: "f020f120f220f320f420f520f620", valid: false },
      { id: "6.13.4", hex: "f820f920fa20", valid: false },
      { id: "6.13.5", hex: "fc20", valid: false },
      // 6.14, sequences of 2 to 6 bytes with the last continuation byte missing: first those of U+0000
      // (0xc0, 0xe0 0x80, ...), then those of the largest value of each length (0xdf, 0xef 0xbf, ...).
      { id: "6.14.1", hex: "c0", valid: false },
      { id: "6.14.2", hex: "e080", valid: false },
      { id: "6.14.3", hex: "f08080", valid: false },
      { id: "6.14.4", hex: "f8808080", valid: false },
      { id: "6.14.5", hex: "fc80808080", valid: false },
      { id: "6.14.6", hex: "df", valid: false },
      { id: "6.14.7", hex: "efbf", valid: false },
      { id: "6.14.8", hex: "f7bfbf", valid: false },
      { id: "6.14.9", hex: "fbbfbfbf", valid: false },
      { id: "6.14.10", hex: "fdbfbfbfbf", valid: false },
      // 6.15, the ten truncated sequences of 6.14 one after the other.
      { id: "6.15.1", hex: "c0e080f08080f8808080fc80808080dfefbff7bfbffbbfbfbffdbfbfbfbf", valid: false },
      // 6.16, 0xfe and 0xff, which never occur in UTF-8.
      { id: "6.16.1", hex: "fe", valid: false },
      { id: "6.16.2", hex: "ff", valid: false },
      { id: "6.16.3", hex: "fefeffff", valid: false },
      // 6.17, '/' (U+002F) in overlong forms of 2 to 6 bytes: a shortest form is required (RFC 3629 §3).
      { id: "6.17.1", hex: "c0af", valid: false },
      { id: "6.17.2", hex: "e080af", valid: false },
      { id: "6.17.3", hex: "f08080af", valid: false },
      { id: "6.17.4", hex: "f8808080af", valid: false },
      { id: "6.17.5", hex: "fc80808080af", valid: false },
      // 6.18, the largest overlong of each length: U+007F in 2 bytes, U+07FF in 3, U+FFFF in 4, U+1FFFFF in
      // 5, U+3FFFFFF in 6.
      { id: "6.18.1", hex: "c1bf", valid: false },
      { id: "6.18.2", hex: "e09fbf", valid: false },
      { id: "6.18.3", hex: "f08fbfbf", valid: false },
      { id: "6.18.4", hex: "f887bfbfbf", valid: false },
      { id: "6.18.5", hex: "fc83bfbfbfbf", valid: false },
      // 6.19, NUL (U+0000) in overlong forms of 2 to 6 bytes.
      { id: "6.19.1", hex: "c080", valid: false },
      { id: "6.19.2", hex: "e08080", valid: false },
      { id: "6.19.3", hex: "f0808080", valid: false },
      { id: "6.19.4", hex: "f880808080", valid: false },
      { id: "6.19.5", hex: "fc8080808080", valid: false },
      // 6.20, single UTF-16 surrogates, which UTF-8 must not encode (RFC 3629 §3): U+D800, U+DB7F, U+DB80,
      // U+DBFF, U+DC00, U+DF80, U+DFFF (0xed followed by 0xa0-0xbf).
      { id: "6.20.1", hex: "eda080", valid: false },
      { id: "6.20.2", hex: "edadbf", valid: false },
      { id: "6.20.3", hex: "edae80", valid: false },
      { id: "6.20.4", hex: "edafbf", valid: false },
      { id: "6.20.5", hex: "edb080", valid: false },
      { id: "6.20.6", hex: "edbe80", valid: false },
      { id: "6.20.7", hex: "edbfbf", valid: false },
      // 6.21, high + low surrogate pairs encoded as two three-byte sequences (CESU-8 style): U+D800, U+DB7F,
      // U+DB80, U+DBFF each followed by U+DC00 and by U+DFFF.
      { id: "6.21.1", hex: "eda080edb080", valid: false },
      { id: "6.21.2", hex: "eda080edbfbf", valid: false },
      { id: "6.21.3", hex: "edadbfedb080", valid: false },
      { id: "6.21.4", hex: "edadbfedbfbf", valid: false },
      { id: "6.21.5", hex: "edae80edb080", valid: false },
      { id: "6.21.6", hex: "edae80edbfbf", valid: false },
      { id: "6.21.7", hex: "edafbfedb080", valid: false },
      { id: "6.21.8", hex: "edafbfedbfbf", valid: false },
      // 6.22, non-characters, which are valid UTF-8: U+FFFE, U+FFFF, then U+nFFFE and U+nFFFF of planes 1 to
      // 16 (lead 0xf0-0xf4, second byte 0x8f/0x9f/0xaf/0xbf; 0xf0 0x8f would be overlong, 0xf4 above 0x8f
      // beyond U+10FFFF, so Autobahn leaves those out).
      { id: "6.22.1", hex: "efbfbe", valid: true },
      { id: "6.22.2", hex: "efbfbf", valid: true },
      { id: "6.22.3", hex: "f09fbfbe", valid: true },
      { id: "6.22.4", hex: "f09fbfbf", valid: true },
      { id: "6.22.5", hex: "f0afbfbe", valid: true },
      { id: "6.22.6", hex: "f0afbfbf", valid: true },
      { id: "6.22.7", hex: "f0bfbfbe", valid: true },
      { id: "6.22.8", hex: "f0bfbfbf", valid: true },
      { id: "6.22.9", hex: "f18fbfbe", valid: true },
      { id: "6.22.10", hex: "f18fbfbf", valid: true },
      { id: "6.22.11", hex: "f19fbfbe", valid: true },
      { id: "6.22.12", hex: "f19fbfbf", valid: true },
      { id: "6.22.13", hex: "f1afbfbe", valid: true },
      { id: "6.22.14", hex: "f1afbfbf", valid: true },
      { id: "6.22.15", hex: "f1bfbfbe", valid: true },
      { id: "6.22.16", hex: "f1bfbfbf", valid: true },
      { id: "6.22.17", hex: "f28fbfbe", valid: true },
      { id: "6.22.18", hex: "f28fbfbf", valid: true },
      { id: "6.22.19", hex: "f29fbfbe", valid: true },
      { id: "6.22.20", hex: "f29fbfbf", valid: true },
      { id: "6.22.21", hex: "f2afbfbe", valid: true },
      { id: "6.22.22", hex: "f2afbfbf", valid: true },
      { id: "6.22.23", hex: "f2bfbfbe", valid: true },
      { id: "6.22.24", hex: "f2bfbfbf", valid: true },
      { id: "6.22.25", hex: "f38fbfbe", valid: true },
      { id: "6.22.26", hex: "f38fbfbf", valid: true },
      { id: "6.22.27", hex: "f39fbfbe", valid: true },
      { id: "6.22.28", hex: "f39fbfbf", valid: true },
      { id: "6.22.29", hex: "f3afbfbe", valid: true },
      { id: "6.22.30", hex: "f3afbfbf", valid: true },
      { id: "6.22.31", hex: "f3bfbfbe", valid: true },
      { id: "6.22.32", hex: "f3bfbfbf", valid: true },
      { id: "6.22.33", hex: "f48fbfbe", valid: true },
      { id: "6.22.34", hex: "f48fbfbf", valid: true },
      // 6.23, the Specials block U+FFF9 to U+FFFF (U+FFFD is the replacement character): valid UTF-8.
      { id: "6.23.1", hex: "efbfb9", valid: true },
      { id: "6.23.2", hex: "efbfba", valid: true },
      { id: "6.23.3", hex: "efbfbb", valid: true },
      { id: "6.23.4", hex: "efbfbc", valid: true },
      { id: "6.23.5", hex: "efbfbd", valid: true },
      { id: "6.23.6", hex: "efbfbe", valid: true },
      { id: "6.23.7", hex: "efbfbf", valid: true }
    ];
  }
});

// src/cases/s06-utf8.ts
function echoCase(id, description, echoed, run) {
  return defineCase({
    id,
    description,
    expectation: "The client echoes the message back unchanged.",
    expect: { OK: [message(echoed)] },
    close: closedByMe(),
    run(t) {
      run(t);
      t.closeAfter(CLOSE_AFTER);
    }
  });
}
function invalidCase(id, framing2, fragmentSize) {
  return defineCase({
    id,
    description: `A text message that is not valid UTF-8 (it holds U+D800, a surrogate), ${framing2}.<br><br>Payload: 0x${WITH_SURROGATE.toString("hex")}`,
    expectation: "The client fails the connection at once, since the payload is not valid UTF-8, and echoes nothing.",
    expect: { OK: [] },
    close: failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    run(t) {
      t.sendMessage(WITH_SURROGATE, fragmentSize === null ? {} : { fragmentSize });
      t.killAfter(FAIL_AFTER);
    }
  });
}
function sendFailFastPart(t, delivery, part, i, piece2) {
  if (delivery === "chops") {
    piece2?.(part);
    if (i === 2) t.sendFrame({ opcode: Opcode.Continuation, payload: "", fin: true });
  } else {
    t.sendFrame({ opcode: i === 0 ? Opcode.Text : Opcode.Continuation, payload: part, fin: i === 2 });
  }
}
function failFastCase(id, delivery, cuts) {
  const parts = [BEYOND_UNICODE.subarray(0, cuts[0]), BEYOND_UNICODE.subarray(cuts[0], cuts[1]), BEYOND_UNICODE.subarray(cuts[1])];
  const partsText = parts.map((p, i) => `Part ${i + 1}: 0x${p.toString("hex")}`).join("<br>");
  const how = delivery === "frames" ? "in three frames (a text frame and two continuation frames)" : "in one text frame without FIN whose payload is written to TCP in three pieces, then an empty final continuation frame";
  let piece2 = null;
  const sendPart = (t, i) => sendFailFastPart(t, delivery, parts[i], i, piece2);
  return defineCase({
    id,
    description: `A text message that is not valid UTF-8 (it holds 0xf4 0x90 0x80 0x80, U+110000, beyond Unicode), sent ${how}, with a pause of a second after the first part and after the second. The second part makes the payload invalid.<br><br>${partsText}`,
    expectation: "The client accepts the first part and fails the connection as soon as the second part arrives (fail fast). Failing it only when the whole message is in is accepted as NON-STRICT.",
    expect: { OK: [timeout("A")], "NON-STRICT": [timeout("A"), timeout("B")] },
    close: failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
    schedule: { cost: 2 * PART_DELAY + 0.05, idle: true },
    async run(t) {
      if (delivery === "chops") {
        piece2 = t.beginFrame(Opcode.Text, false, BEYOND_UNICODE.length);
      }
      sendPart(t, 0);
      await t.pause(PART_DELAY, "A");
      if (!t.isOpen) return;
      t.record(timeout("A"));
      sendPart(t, 1);
      await t.pause(PART_DELAY, "B");
      if (!t.isOpen) return;
      t.record(timeout("B"));
      sendPart(t, 2);
      t.killAfter(FAIL_AFTER);
    }
  });
}
var VECTOR_FAIL_AFTER, CLOSE_AFTER, FAIL_AFTER, PART_DELAY, KOSME, HELLO3, emptyCases, validCases, WITH_SURROGATE, invalidCases, BEYOND_UNICODE, WHOLE_SEQUENCE, UP_TO_INVALID_BYTE, failFastCases, vectorCases, utf8Cases;
var init_s06_utf8 = __esm({
  "src/cases/s06-utf8.ts"() {
    "use strict";
    init_constants();
    init_utf8_vectors();
    init_define();
    VECTOR_FAIL_AFTER = 0.5;
    CLOSE_AFTER = 1;
    FAIL_AFTER = 1;
    PART_DELAY = 1;
    KOSME = hex("ce ba e1 bd b9 cf 83 ce bc ce b5");
    HELLO3 = "Hello-\xB5@\xDF\xF6\xE4\xFC\xE0\xE1-UTF-8!!";
    emptyCases = [
      echoCase("6.1.1", "A text message with an empty payload, in one frame.", "", (t) => {
        t.sendFrame({ opcode: Opcode.Text, payload: "" });
      }),
      echoCase("6.1.2", "A text message in three frames, each with an empty payload.", "", (t) => {
        t.sendFrame({ opcode: Opcode.Text, payload: "", fin: false });
        t.sendFrame({ opcode: Opcode.Continuation, payload: "", fin: false });
        t.sendFrame({ opcode: Opcode.Continuation, payload: "", fin: true });
      }),
      echoCase("6.1.3", 'A text message in three frames: the first and the last empty, the middle one "middle frame payload".', "middle frame payload", (t) => {
        t.sendFrame({ opcode: Opcode.Text, payload: "", fin: false });
        t.sendFrame({ opcode: Opcode.Continuation, payload: "middle frame payload", fin: false });
        t.sendFrame({ opcode: Opcode.Continuation, payload: "", fin: true });
      })
    ];
    validCases = [
      echoCase("6.2.1", `A valid UTF-8 text message in one frame.<br><br>Payload: ${HELLO3}<br>0x${Buffer.from(HELLO3).toString("hex")}`, HELLO3, (t) => {
        t.sendMessage(HELLO3);
      }),
      // The split falls after "ä", the 15th byte: a code point boundary.
      echoCase(
        "6.2.2",
        `A valid UTF-8 text message in two frames, split between two code points.<br><br>Frame 1: Hello-\xB5@\xDF\xF6\xE4<br>0x${Buffer.from("Hello-\xB5@\xDF\xF6\xE4").toString("hex")}<br>Frame 2: \xFC\xE0\xE1-UTF-8!!<br>0x${Buffer.from("\xFC\xE0\xE1-UTF-8!!").toString("hex")}`,
        HELLO3,
        (t) => {
          t.sendFrame({ opcode: Opcode.Text, payload: "Hello-\xB5@\xDF\xF6\xE4", fin: false });
          t.sendFrame({ opcode: Opcode.Continuation, payload: "\xFC\xE0\xE1-UTF-8!!", fin: true });
        }
      ),
      echoCase(
        "6.2.3",
        `A valid UTF-8 text message in frames of one byte each, so that frames end inside code points.<br><br>Payload: ${HELLO3}<br>0x${Buffer.from(HELLO3).toString("hex")}`,
        HELLO3,
        (t) => {
          t.sendMessage(HELLO3, { fragmentSize: 1 });
        }
      ),
      echoCase(
        "6.2.4",
        `A valid UTF-8 text message of multi-byte code points only, in frames of one byte each.<br><br>Payload: ${KOSME.toString("utf8")}<br>0x${KOSME.toString("hex")}`,
        KOSME,
        (t) => {
          t.sendMessage(KOSME, { fragmentSize: 1 });
        }
      )
    ];
    WITH_SURROGATE = Buffer.concat([KOSME, hex("ed a0 80"), Buffer.from("edited")]);
    invalidCases = [invalidCase("6.3.1", "in one frame", null), invalidCase("6.3.2", "in frames of one byte each", 1)];
    BEYOND_UNICODE = Buffer.concat([KOSME, hex("f4 90 80 80"), Buffer.from("edited")]);
    WHOLE_SEQUENCE = [11, 15];
    UP_TO_INVALID_BYTE = [12, 13];
    failFastCases = [
      failFastCase("6.4.1", "frames", WHOLE_SEQUENCE),
      failFastCase("6.4.2", "frames", UP_TO_INVALID_BYTE),
      failFastCase("6.4.3", "chops", WHOLE_SEQUENCE),
      failFastCase("6.4.4", "chops", UP_TO_INVALID_BYTE)
    ];
    vectorCases = utf8Vectors.map((v) => {
      const payload2 = hex(v.hex);
      return defineCase({
        id: v.id,
        description: `A text message whose payload is ${v.valid ? "" : "not "}valid UTF-8, in one frame.<br><br>Payload: 0x${v.hex}`,
        expectation: v.valid ? "The client echoes the message back unchanged." : "The client fails the connection at once, since the payload is not valid UTF-8, and echoes nothing.",
        expect: { OK: v.valid ? [message(payload2)] : [] },
        close: v.valid ? closedByMe() : failedByPeer([CloseCode.InvalidPayload], { fatal: true }),
        run(t) {
          t.sendFrame({ opcode: Opcode.Text, payload: payload2 });
          t.killAfter(VECTOR_FAIL_AFTER);
        }
      });
    });
    utf8Cases = [...emptyCases, ...validCases, ...invalidCases, ...failFastCases, ...vectorCases];
  }
});

// src/errors.ts
var UsageError;
var init_errors = __esm({
  "src/errors.ts"() {
    "use strict";
    UsageError = class extends Error {
    };
  }
});

// src/model/verdicts.ts
var Behavior, CloseBehavior;
var init_verdicts = __esm({
  "src/model/verdicts.ts"() {
    "use strict";
    init_errors();
    Behavior = {
      Ok: "OK",
      NonStrict: "NON-STRICT",
      Failed: "FAILED",
      Informational: "INFORMATIONAL",
      Unimplemented: "UNIMPLEMENTED"
    };
    CloseBehavior = {
      Ok: "OK",
      Failed: "FAILED",
      Unclean: "UNCLEAN",
      WrongCode: "WRONG CODE",
      FailedByClient: "FAILED BY CLIENT",
      Informational: "INFORMATIONAL"
    };
  }
});

// src/cases/data/close-codes.ts
var validCloseCodes, invalidCloseCodes, undefinedCloseCodes;
var init_close_codes = __esm({
  "src/cases/data/close-codes.ts"() {
    "use strict";
    validCloseCodes = [
      { id: "7.7.1", code: 1e3 },
      { id: "7.7.2", code: 1001 },
      { id: "7.7.3", code: 1002 },
      { id: "7.7.4", code: 1003 },
      { id: "7.7.5", code: 1007 },
      { id: "7.7.6", code: 1008 },
      { id: "7.7.7", code: 1009 },
      { id: "7.7.8", code: 1010 },
      { id: "7.7.9", code: 1011 },
      { id: "7.7.10", code: 3e3 },
      { id: "7.7.11", code: 3999 },
      { id: "7.7.12", code: 4e3 },
      { id: "7.7.13", code: 4999 }
    ];
    invalidCloseCodes = [
      { id: "7.9.1", code: 0 },
      { id: "7.9.2", code: 999 },
      { id: "7.9.3", code: 1004 },
      { id: "7.9.4", code: 1005 },
      { id: "7.9.5", code: 1006 },
      { id: "7.9.6", code: 1016 },
      { id: "7.9.7", code: 1100 },
      { id: "7.9.8", code: 2e3 },
      { id: "7.9.9", code: 2999 }
    ];
    undefinedCloseCodes = [
      { id: "7.13.1", code: 5e3 },
      { id: "7.13.2", code: 65535 }
    ];
  }
});

// src/cases/s07-close.ts
function refusedClose(codes) {
  return { closedByMe: true, closeCode: codes, requireClean: false };
}
function informational(result) {
  return (verdict) => ({
    ...verdict,
    behavior: Behavior.Informational,
    behaviorClose: CloseBehavior.Informational,
    result: result(verdict)
  });
}
function closeFirst(def) {
  return defineCase({
    id: def.id,
    description: def.description,
    expectation: def.expectation,
    expect: { OK: [] },
    close: def.close ?? closedByMe([CloseCode.Normal]),
    suppressClose: true,
    adjust: wrongCodeFails,
    run(t) {
      def.send(t);
      t.killAfter(FAIL_AFTER2);
    }
  });
}
var FAIL_AFTER2, basicCases, lengthCases, INVALID_REASON, payloadValueCases, validCodeCases, invalidCodeCases, undefinedCodeCases, closeCases;
var init_s07_close = __esm({
  "src/cases/s07-close.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_close_codes();
    init_define();
    FAIL_AFTER2 = 1;
    basicCases = [
      defineCase({
        id: "7.1.1",
        description: 'A text message "Hello World!"; once it is echoed, a close frame with code 1000.',
        expectation: "The client echoes the message, then answers the close with code 1000 (or no code).",
        expect: { OK: [message("Hello World!")] },
        close: closedByMe([CloseCode.Normal]),
        adjust: wrongCodeFails,
        run(t) {
          t.sendFrame({ opcode: Opcode.Text, payload: "Hello World!" });
          t.killAfter(FAIL_AFTER2);
        }
      }),
      closeFirst({
        id: "7.1.2",
        description: "A close frame with code 1000, then a second, empty close frame.",
        expectation: "The client answers the first close with code 1000 (or no code) and ignores the second.",
        send(t) {
          t.sendClose(CloseCode.Normal);
          t.sendFrame({ opcode: Opcode.Close });
        }
      }),
      closeFirst({
        id: "7.1.3",
        description: "A close frame with code 1000, then an empty ping.",
        expectation: "The client answers the close with code 1000 (or no code) and sends no pong.",
        send(t) {
          t.sendClose(CloseCode.Normal);
          t.sendFrame({ opcode: Opcode.Ping });
        }
      }),
      closeFirst({
        id: "7.1.4",
        description: 'A close frame with code 1000, then a text message "Hello World!".',
        expectation: "The client answers the close with code 1000 (or no code) and does not echo the message.",
        send(t) {
          t.sendClose(CloseCode.Normal);
          t.sendFrame({ opcode: Opcode.Text, payload: "Hello World!" });
        }
      }),
      closeFirst({
        id: "7.1.5",
        description: 'The first fragment "fragment1" of a text message, a close frame with code 1000, then the last fragment "fragment2".',
        expectation: "The client answers the close with code 1000 (or no code) and echoes nothing.",
        send(t) {
          t.sendFrame({ opcode: Opcode.Text, payload: "fragment1", fin: false });
          t.sendClose(CloseCode.Normal);
          t.sendFrame({ opcode: Opcode.Continuation, payload: "fragment2", fin: true });
        }
      }),
      defineCase({
        id: "7.1.6",
        description: 'Back to back: a 256 KiB text message (the pattern "BAsd7&jh23" repeated), a text message "Hello World!", a close frame with code 1000 and an empty ping.',
        expectation: 'Informational only. Whether the client echoes "Hello World!" before it answers the close depends on how it processes its input: a client that handles the close before it has finished writing the large echo may send back part of the messages or none of them.',
        // OK: the close was handled after the small message; NON-STRICT: before it. Only the result text
        // tells them apart, since both axes become INFORMATIONAL.
        expect: { OK: [message("Hello World!")], "NON-STRICT": [] },
        close: closedByMe([CloseCode.Normal]),
        suppressClose: true,
        adjust: informational(
          (v) => v.behavior === Behavior.Ok ? "Text message was processed before close." : v.behavior === Behavior.NonStrict ? "Close was processed before text message could be returned." : v.result
        ),
        run(t) {
          t.sendFrame({ opcode: Opcode.Text, payload: "BAsd7&jh23", payloadLen: 256 * 1024 });
          t.sendFrame({ opcode: Opcode.Text, payload: "Hello World!" });
          t.sendClose(CloseCode.Normal);
          t.sendFrame({ opcode: Opcode.Ping });
          t.killAfter(FAIL_AFTER2);
        }
      })
    ];
    lengthCases = [
      closeFirst({
        id: "7.3.1",
        description: "A close frame with an empty payload: no code, no reason.",
        expectation: "The client answers the close with code 1000 or no code.",
        send(t) {
          t.sendCloseFrame();
        }
      }),
      closeFirst({
        id: "7.3.2",
        description: 'A close frame with a 1-byte payload, "a": too short to hold a close code.',
        expectation: "The client answers with a close frame with code 1002 (or no code), or drops TCP.",
        close: refusedClose([CloseCode.ProtocolError]),
        send(t) {
          t.sendCloseFrame(null, "a");
        }
      }),
      closeFirst({
        id: "7.3.3",
        description: "A close frame with a 2-byte payload: code 1000 and no reason.",
        expectation: "The client answers the close with code 1000 (or no code).",
        send(t) {
          t.sendClose(CloseCode.Normal);
        }
      }),
      closeFirst({
        id: "7.3.4",
        description: 'A close frame with code 1000 and the reason "Hello World!".',
        expectation: "The client answers the close with code 1000 (or no code).",
        send(t) {
          t.sendClose(CloseCode.Normal, "Hello World!");
        }
      }),
      closeFirst({
        id: "7.3.5",
        description: 'A close frame with code 1000 and a reason of 123 "*": the largest close payload (125 bytes).',
        expectation: "The client answers the close with code 1000 (or no code).",
        send(t) {
          t.sendClose(CloseCode.Normal, "*".repeat(123));
        }
      }),
      closeFirst({
        id: "7.3.6",
        description: 'A close frame with code 1000 and a reason of 124 "*": a 126-byte payload, one byte more than a control frame may carry.',
        expectation: "The client answers with a close frame with code 1002 (or no code), or drops TCP.",
        close: refusedClose([CloseCode.ProtocolError]),
        send(t) {
          t.sendCloseFrame(CloseCode.Normal, "*".repeat(124));
        }
      })
    ];
    INVALID_REASON = hex("cebae1bdb9cf83cebcceb5 eda080 656469746564");
    payloadValueCases = [
      closeFirst({
        id: "7.5.1",
        description: `A close frame with code 1000 and a reason that is not valid UTF-8.<br><br>Reason: 0x${INVALID_REASON.toString("hex")}`,
        expectation: "The client answers with a close frame with code 1002 or 1007 (or no code), or drops TCP.",
        close: refusedClose([CloseCode.ProtocolError, CloseCode.InvalidPayload]),
        send(t) {
          t.sendCloseFrame(CloseCode.Normal, INVALID_REASON);
        }
      })
    ];
    validCodeCases = validCloseCodes.map(
      ({ id, code }) => defineCase({
        id,
        description: `A close frame with the valid code ${code} and no reason.`,
        expectation: `The client answers the close with code 1000, code ${code} or no code.`,
        expect: { OK: [] },
        close: closedByMe([CloseCode.Normal, code]),
        adjust: wrongCodeFails,
        run(t) {
          t.sendCloseFrame(code);
          t.killAfter(FAIL_AFTER2);
        }
      })
    );
    invalidCodeCases = invalidCloseCodes.map(
      ({ id, code }) => defineCase({
        id,
        description: `A close frame with the invalid code ${code} and no reason.`,
        expectation: "The client answers with a close frame with code 1002 (or no code), or drops TCP.",
        expect: { OK: [] },
        close: refusedClose([CloseCode.ProtocolError]),
        adjust: wrongCodeFails,
        run(t) {
          t.sendCloseFrame(code);
          t.killAfter(FAIL_AFTER2);
        }
      })
    );
    undefinedCodeCases = undefinedCloseCodes.map(
      ({ id, code }) => defineCase({
        id,
        description: `A close frame with the code ${code}, outside the range RFC 6455 defines (0-4999), and no reason.`,
        expectation: "Informational only: the specification does not say what the client should do.",
        expect: { OK: [] },
        close: refusedClose([CloseCode.Normal, code, CloseCode.ProtocolError]),
        suppressClose: true,
        adjust: informational(() => "Actual events are undefined by the spec."),
        run(t) {
          t.sendCloseFrame(code);
          t.killAfter(FAIL_AFTER2);
        }
      })
    );
    closeCases = [
      ...basicCases,
      ...lengthCases,
      ...payloadValueCases,
      ...validCodeCases,
      ...invalidCodeCases,
      ...undefinedCodeCases
    ];
  }
});

// src/cases/data/limits.ts
var KiB, MiB, TEXT_PATTERN, BINARY_PATTERN, textSizes, binarySizes, FRAGMENTED_LENGTH, FRAGMENTED_WAITSECS, textFragmentSizes, binaryFragmentSizes, CHOPPED_LENGTH, CHOPPED_WAITSECS, textChopSizes, binaryChopSizes, roundTrips;
var init_limits = __esm({
  "src/cases/data/limits.ts"() {
    "use strict";
    KiB = 1024;
    MiB = 1024 * KiB;
    TEXT_PATTERN = "BAsd7&jh23";
    BINARY_PATTERN = Uint8Array.of(0, 254, 35, 250, 240);
    textSizes = [
      { id: "9.1.1", length: 64 * KiB, waitSecs: 10 },
      { id: "9.1.2", length: 256 * KiB, waitSecs: 10 },
      { id: "9.1.3", length: 1 * MiB, waitSecs: 100 },
      { id: "9.1.4", length: 4 * MiB, waitSecs: 100 },
      { id: "9.1.5", length: 8 * MiB, waitSecs: 100 },
      { id: "9.1.6", length: 16 * MiB, waitSecs: 100 }
    ];
    binarySizes = [
      { id: "9.2.1", length: 64 * KiB, waitSecs: 10 },
      { id: "9.2.2", length: 256 * KiB, waitSecs: 10 },
      { id: "9.2.3", length: 1 * MiB, waitSecs: 10 },
      { id: "9.2.4", length: 4 * MiB, waitSecs: 10 },
      { id: "9.2.5", length: 8 * MiB, waitSecs: 100 },
      { id: "9.2.6", length: 16 * MiB, waitSecs: 100 }
    ];
    FRAGMENTED_LENGTH = 4 * MiB;
    FRAGMENTED_WAITSECS = 100;
    textFragmentSizes = [
      { id: "9.3.1", fragmentSize: 64, fill: 42 },
      { id: "9.3.2", fragmentSize: 256, fill: 42 },
      { id: "9.3.3", fragmentSize: 1 * KiB, fill: 42 },
      { id: "9.3.4", fragmentSize: 4 * KiB, fill: 42 },
      { id: "9.3.5", fragmentSize: 16 * KiB, fill: 42 },
      { id: "9.3.6", fragmentSize: 64 * KiB, fill: 42 },
      { id: "9.3.7", fragmentSize: 256 * KiB, fill: 42 },
      { id: "9.3.8", fragmentSize: 1 * MiB, fill: 42 },
      { id: "9.3.9", fragmentSize: 4 * MiB, fill: 42 }
    ];
    binaryFragmentSizes = [
      { id: "9.4.1", fragmentSize: 64, fill: 254 },
      { id: "9.4.2", fragmentSize: 256, fill: 42 },
      { id: "9.4.3", fragmentSize: 1 * KiB, fill: 42 },
      { id: "9.4.4", fragmentSize: 4 * KiB, fill: 42 },
      { id: "9.4.5", fragmentSize: 16 * KiB, fill: 42 },
      { id: "9.4.6", fragmentSize: 64 * KiB, fill: 42 },
      { id: "9.4.7", fragmentSize: 256 * KiB, fill: 42 },
      { id: "9.4.8", fragmentSize: 1 * MiB, fill: 42 },
      { id: "9.4.9", fragmentSize: 4 * MiB, fill: 42 }
    ];
    CHOPPED_LENGTH = 1 * MiB;
    CHOPPED_WAITSECS = 1e3;
    textChopSizes = [
      { id: "9.5.1", chopSize: 64 },
      { id: "9.5.2", chopSize: 128 },
      { id: "9.5.3", chopSize: 256 },
      { id: "9.5.4", chopSize: 512 },
      { id: "9.5.5", chopSize: 1024 },
      { id: "9.5.6", chopSize: 2048 }
    ];
    binaryChopSizes = [
      { id: "9.6.1", chopSize: 64 },
      { id: "9.6.2", chopSize: 128 },
      { id: "9.6.3", chopSize: 256 },
      { id: "9.6.4", chopSize: 512 },
      { id: "9.6.5", chopSize: 1024 },
      { id: "9.6.6", chopSize: 2048 }
    ];
    roundTrips = [
      { textId: "9.7.1", binaryId: "9.8.1", length: 0, count: 1e3, waitSecs: 60 },
      { textId: "9.7.2", binaryId: "9.8.2", length: 16, count: 1e3, waitSecs: 60 },
      { textId: "9.7.3", binaryId: "9.8.3", length: 64, count: 1e3, waitSecs: 60 },
      { textId: "9.7.4", binaryId: "9.8.4", length: 256, count: 1e3, waitSecs: 120 },
      { textId: "9.7.5", binaryId: "9.8.5", length: 1024, count: 1e3, waitSecs: 240 },
      { textId: "9.7.6", binaryId: "9.8.6", length: 4096, count: 1e3, waitSecs: 480 }
    ];
  }
});

// src/cases/s09-limits.ts
function sizeName(bytes2) {
  if (bytes2 >= 1024 * 1024 && bytes2 % (1024 * 1024) === 0) return `${bytes2 / (1024 * 1024)} MiB`;
  if (bytes2 >= 1024 && bytes2 % 1024 === 0) return `${bytes2 / 1024} KiB`;
  return `${bytes2} bytes`;
}
function kindOf(binary) {
  return binary ? "binary" : "text";
}
function setResult(t, result, behavior) {
  const b = behavior ?? behaviors.get(t) ?? Behavior.Failed;
  behaviors.set(t, b);
  t.setOutcome(b, result);
}
function wrongTypeText(binary) {
  return binary ? "Expected binary message with payload, but got text." : "Expected text message with payload, but got binary.";
}
function bigMessageCase(m) {
  const kind = kindOf(m.binary);
  return defineCase({
    id: m.id,
    description: m.description,
    expectation: `The client echoes a ${kind} message of ${m.length} bytes within ${m.waitSecs} s (only type and length are checked), then answers the fuzzer's close (1000) cleanly.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    reportTime: true,
    schedule: { maxSeconds: m.waitSecs + 2, runsAlone: true, cost: 0.1 + 2 * m.length / LOOPBACK_BYTES_PER_SECOND },
    run(t) {
      t.setWirelog(false, { silent: true });
      setResult(t, `Did not receive message within ${m.waitSecs} seconds.`, Behavior.Failed);
      m.send(t);
      t.closeAfter(m.waitSecs);
    },
    messageLengthOnly: true,
    onMessage(t, _data, binary, length) {
      if (binary !== m.binary) setResult(t, m.wrongType);
      else if (length !== m.length) setResult(t, `Expected ${kind} message with payload of length ${m.length}, but got ${length}.`);
      else setResult(t, `Received ${kind} message of length ${length}.`, Behavior.Ok);
      t.setWirelog(true, { silent: true });
      t.sendClose(CloseCode.Normal);
    }
  });
}
function sizeCases() {
  const family = (binary) => (row) => bigMessageCase({
    id: row.id,
    binary,
    length: row.length,
    waitSecs: row.waitSecs,
    description: binary ? `A binary message of ${sizeName(row.length)} (${row.length} bytes: 00 fe 23 fa f0 repeated), in one frame.` : `A text message of ${sizeName(row.length)} (${row.length} bytes: "${TEXT_PATTERN}" repeated), in one frame.`,
    wrongType: wrongTypeText(binary),
    send: (t) => t.sendFrame({
      opcode: binary ? Opcode.Binary : Opcode.Text,
      payload: binary ? BINARY_PATTERN : TEXT_PATTERN,
      payloadLen: row.length
    })
  });
  return [...textSizes.map(family(false)), ...binarySizes.map(family(true))];
}
function fragmentCases() {
  const family = (binary) => (row) => {
    const frames = Math.floor(FRAGMENTED_LENGTH / row.fragmentSize) + 1;
    const split = row.fragmentSize >= FRAGMENTED_LENGTH ? "in one frame (the fragment size is the whole message)" : `in frames of ${sizeName(row.fragmentSize)}: ${frames - 1} full frames and an empty final frame`;
    return bigMessageCase({
      id: row.id,
      binary,
      length: FRAGMENTED_LENGTH,
      waitSecs: FRAGMENTED_WAITSECS,
      description: `A ${kindOf(binary)} message of 4 MiB (${row.fill === 42 ? '"*"' : `the byte 0x${row.fill.toString(16)}`} repeated), ${split}.`,
      // Autobahn's 9.4.x report a text echo as "got binary".
      wrongType: binary ? "Expected binary message with payload, but got binary." : wrongTypeText(false),
      send: (t) => t.sendMessage(Buffer.alloc(FRAGMENTED_LENGTH, row.fill), { binary, fragmentSize: row.fragmentSize })
    });
  };
  return [...textFragmentSizes.map(family(false)), ...binaryFragmentSizes.map(family(true))];
}
function chopCases() {
  const family = (binary) => (row) => bigMessageCase({
    id: row.id,
    binary,
    length: CHOPPED_LENGTH,
    waitSecs: CHOPPED_WAITSECS,
    description: `A ${kindOf(binary)} message of 1 MiB (${binary ? "00 fe 23 fa f0" : `"${TEXT_PATTERN}"`} repeated) in one frame, written to TCP in chops of ${row.chopSize} bytes, each after the previous one was flushed.`,
    wrongType: wrongTypeText(binary),
    send: (t) => t.sendFrame({
      opcode: binary ? Opcode.Binary : Opcode.Text,
      payload: binary ? BINARY_PATTERN : TEXT_PATTERN,
      payloadLen: CHOPPED_LENGTH,
      chopSize: row.chopSize
    })
  });
  return [...textChopSizes.map(family(false)), ...binaryChopSizes.map(family(true))];
}
function roundTripCase(id, row, binary) {
  const kind = kindOf(binary);
  const sendOne = (t) => {
    t.sendFrame(
      binary ? { opcode: Opcode.Binary, payload: Uint8Array.of(254), payloadLen: row.length } : { opcode: Opcode.Text, payload: "*", payloadLen: row.length }
    );
    sentCounts.set(t, (sentCounts.get(t) ?? 0) + 1);
  };
  const finish2 = (t, behavior, result) => {
    setResult(t, result, behavior);
    t.setWirelog(true);
    t.sendClose(CloseCode.Normal);
  };
  const messages = row.length === 0 ? `${row.count} empty ${kind} messages` : `${row.count} ${kind} messages of ${row.length} bytes (${binary ? "the byte 0xfe" : '"*"'} repeated)`;
  return defineCase({
    id,
    description: `${messages}, one at a time: each is sent once the previous one came back, to measure the round trip time.`,
    expectation: `The client echoes every ${kind} message with its length, all ${row.count} within ${row.waitSecs} s, then answers the fuzzer's close (1000) cleanly.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    reportTime: true,
    schedule: { maxSeconds: row.waitSecs + 2, runsAlone: true, cost: 0.1 + row.count * (ROUND_TRIP_SECONDS + 2 * row.length / LOOPBACK_BYTES_PER_SECOND) },
    run(t) {
      t.setWirelog(false);
      setResult(t, `Case did not finish within ${row.waitSecs} seconds.`, Behavior.Failed);
      t.closeAfter(row.waitSecs);
      sentCounts.set(t, 0);
      sendOne(t);
    },
    messageLengthOnly: true,
    onMessage(t, _data, isBinary, length) {
      if (isBinary !== binary || length !== row.length) {
        const flag = isBinary ? "True" : "False";
        finish2(t, Behavior.Failed, `Echo'ed message type or length differs from what I sent (got binary = ${flag}, payload length = ${length}).`);
      } else if ((sentCounts.get(t) ?? 0) < row.count) {
        sendOne(t);
      } else {
        finish2(t, Behavior.Ok, "Ok, received all echo'ed messages in time.");
      }
    }
  });
}
var LOOPBACK_BYTES_PER_SECOND, ROUND_TRIP_SECONDS, behaviors, sentCounts, limitsCases;
var init_s09_limits = __esm({
  "src/cases/s09-limits.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_limits();
    init_define();
    LOOPBACK_BYTES_PER_SECOND = 2e8;
    ROUND_TRIP_SECONDS = 2e-4;
    behaviors = /* @__PURE__ */ new WeakMap();
    sentCounts = /* @__PURE__ */ new WeakMap();
    limitsCases = [
      ...sizeCases(),
      ...fragmentCases(),
      ...chopCases(),
      ...roundTrips.map((row) => roundTripCase(row.textId, row, false)),
      ...roundTrips.map((row) => roundTripCase(row.binaryId, row, true))
    ];
  }
});

// src/cases/s10-misc.ts
function pyDict(counts) {
  return `{${[Opcode.Continuation, Opcode.Text].map((op) => `${op}: ${counts[op] ?? 0}`).join(", ")}}`;
}
var LENGTH, FRAGMENT_SIZE, EXPECTED_TX_FRAMES, payload, miscCases;
var init_s10_misc = __esm({
  "src/cases/s10-misc.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_define();
    LENGTH = 65536;
    FRAGMENT_SIZE = 1300;
    EXPECTED_TX_FRAMES = { [Opcode.Continuation]: 50, [Opcode.Text]: 1 };
    payload = "*".repeat(LENGTH);
    miscCases = [
      defineCase({
        id: "10.1.1",
        description: `A text message of ${LENGTH} bytes ("*" repeated), fragmented by the fuzzer into frames of at most ${FRAGMENT_SIZE} bytes.`,
        expectation: "The client echoes the message back unchanged, then answers the fuzzer's close (1000) cleanly. The fuzzer also checks that it sent one text frame and 50 continuation frames.",
        expect: { OK: [message(payload)] },
        close: closedByMe(),
        run(t) {
          t.sendMessage(payload, { fragmentSize: FRAGMENT_SIZE });
          t.killAfter(10);
        },
        adjust(verdict, facts) {
          if (!facts.connectionWasOpen) return { ...verdict, behavior: Behavior.Failed, result: "WebSocket connection was never open" };
          const sent = {
            [Opcode.Continuation]: facts.txFrameStats[String(Opcode.Continuation)],
            [Opcode.Text]: facts.txFrameStats[String(Opcode.Text)]
          };
          if (sent[Opcode.Continuation] === EXPECTED_TX_FRAMES[Opcode.Continuation] && sent[Opcode.Text] === EXPECTED_TX_FRAMES[Opcode.Text]) {
            return verdict;
          }
          return {
            ...verdict,
            behavior: Behavior.Failed,
            result: `Frames transmitted ${pyDict(sent)} does not match what we expected ${pyDict(EXPECTED_TX_FRAMES)}.`
          };
        }
      })
    ];
  }
});

// src/protocol/deflate/sync-zlib.ts
import zlib from "node:zlib";
function newDeflater(settings) {
  return new SyncZlib(zlib.createDeflateRaw({ chunkSize: zlib.constants.Z_MIN_CHUNK, memLevel: 8, ...settings }));
}
function syncFlush(deflater, input, inOff, inLen, out) {
  let used = 0;
  for (; ; ) {
    const failure = deflater.write(zlib.constants.Z_SYNC_FLUSH, input, inOff, inLen, out, used, out.length - used);
    if (failure !== null) throw new Error(`permessage-deflate: deflate failed: ${failure}`);
    const availOut = deflater.availOut;
    const availIn = deflater.availIn;
    used = out.length - availOut;
    inOff += inLen - availIn;
    inLen = availIn;
    if (availOut !== 0) break;
    const bigger = Buffer.allocUnsafe(out.length * 2);
    out.copy(bigger, 0, 0, used);
    out = bigger;
  }
  if (used < TAIL.length || out.readUInt32BE(used - TAIL.length) !== 65535) {
    throw new Error("permessage-deflate: sync flush did not end with 00 00 ff ff");
  }
  return out.subarray(0, used);
}
var TAIL, SyncZlib;
var init_sync_zlib = __esm({
  "src/protocol/deflate/sync-zlib.ts"() {
    "use strict";
    TAIL = Buffer.from([0, 0, 255, 255]);
    SyncZlib = class {
      stream;
      handle;
      writeState;
      failure = null;
      closed = false;
      constructor(stream) {
        const internals = stream;
        const handle = internals._handle;
        const writeState = internals._writeState;
        if (handle == null || typeof handle.writeSync !== "function" || !(writeState instanceof Uint32Array) || writeState.length < 2) {
          throw new Error("node:zlib internals (_handle.writeSync, _writeState) not found: this Node.js version is not supported");
        }
        this.stream = stream;
        this.handle = handle;
        this.writeState = writeState;
        handle.onerror = (message2) => {
          this.failure = message2;
        };
      }
      /** avail_out after the last write: 0 means the output space was filled and zlib may have more. */
      get availOut() {
        return this.writeState[0];
      }
      /** avail_in after the last write: input not consumed (only after the end of a stream, or a full output). */
      get availIn() {
        return this.writeState[1];
      }
      /** One zlib deflate()/inflate() call; returns zlib's error message, or null. */
      write(flush, input, inOff, inLen, out, outOff, outLen) {
        if (this.closed) throw new Error("permessage-deflate: zlib stream used after close()");
        this.handle.writeSync(flush, input, inOff, inLen, out, outOff, outLen);
        const failure = this.failure;
        this.failure = null;
        return failure;
      }
      /** deflateReset() / inflateReset(): a fresh LZ77 window, same parameters. */
      reset() {
        if (this.closed) return;
        this.handle.reset();
        this.failure = null;
      }
      /** Frees the native stream; idempotent. */
      close() {
        if (this.closed) return;
        this.closed = true;
        this.stream.close();
      }
    };
  }
});

// src/protocol/deflate/document.ts
var DocumentChunks;
var init_document = __esm({
  "src/protocol/deflate/document.ts"() {
    "use strict";
    init_sync_zlib();
    DocumentChunks = class {
      constructor(bytes2, chunkSize = 8192) {
        this.bytes = bytes2;
        this.chunkSize = chunkSize;
        if (bytes2.length === 0) throw new RangeError("DocumentChunks: an empty document");
        if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`DocumentChunks: chunk size ${chunkSize}`);
      }
      bytes;
      chunkSize;
      built = /* @__PURE__ */ new Map();
      /** Bytes [start, start + length) of the document, wrapping around at its end: one view, or two when it wraps. */
      views(start, length) {
        const end = start + length;
        if (end <= this.bytes.length) return [this.bytes.subarray(start, end)];
        return [this.bytes.subarray(start), this.bytes.subarray(0, end - this.bytes.length)];
      }
      /** The same bytes in one buffer (a copy only when they wrap). */
      cut(start, length) {
        const views = this.views(start, length);
        return views.length === 1 ? views[0] : Buffer.concat(views, length);
      }
      /** The chunks for these zlib parameters, each ending with its sync flush's 00 00 ff ff; made on first use. */
      chunksFor(settings) {
        const key = `${settings.level}/${settings.windowBits}/${settings.strategy}`;
        let chunks = this.built.get(key);
        if (chunks === void 0) {
          const deflater = newDeflater(settings);
          const out = Buffer.allocUnsafe(this.chunkSize + (this.chunkSize >>> 3) + 64);
          const list = [];
          try {
            for (let at = 0; at < this.bytes.length; at += this.chunkSize) {
              list.push(Buffer.from(syncFlush(deflater, this.bytes, at, Math.min(this.chunkSize, this.bytes.length - at), out)));
            }
          } finally {
            deflater.close();
          }
          chunks = list;
          this.built.set(key, chunks);
        }
        return chunks;
      }
    };
  }
});

// src/cases/data/deflate-corpus.ts
import { endianness } from "node:os";
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return (t ^ t >>> 14) >>> 0;
  };
}
function asciiFiller(rng, words, n2) {
  let out = "";
  while (out.length < n2) out += (out.length === 0 ? "" : " ") + rng.zipf(words);
  return out.slice(0, n2);
}
function exact(kind, data) {
  if (data.length !== CORPUS_BYTES[kind]) {
    throw new Error(`corpus ${kind}: generated ${data.length} bytes instead of ${CORPUS_BYTES[kind]}`);
  }
  return data;
}
function makeJson() {
  const target = CORPUS_BYTES.json;
  const rng = new Rng(1246973774);
  const out = new TextBuilder();
  out.add('{\n   "source": "wsgate synthetic corpus",\n   "station": "Nordhafen weather mast",\n   "readings": [\n');
  const tail = (note) => `
   ],
   "note": "${note}"
}
`;
  const reserve = Buffer.byteLength(tail(""), "utf8");
  for (let seq = 1; ; seq++) {
    const sensor = rng.pick(SENSORS);
    const minute = seq * 5;
    const time = `2024-03-${String(1 + Math.floor(minute / 1440)).padStart(2, "0")}T${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00Z`;
    const record = `${seq === 1 ? "" : ",\n"}      {
         "seq": ${seq},
         "time": "${time}",
         "sensor": "${sensor}",
         "site": "${rng.pick(SITES)}",
         "value": ${(rng.int(2e3) / 10).toFixed(1)},
         "unit": "${UNITS[sensor] ?? ""}",
         "status": "${rng.pick(STATUSES)}"
      }`;
    if (!out.fits(record, target - reserve)) break;
    out.add(record);
  }
  out.add(tail(asciiFiller(rng, NOTE_WORDS, target - reserve - out.bytes)));
  return exact("json", out.toBuffer());
}
function makeBitmap() {
  const size = 512;
  const headerBytes = 14 + 40 + 256 * 4;
  const out = Buffer.alloc(headerBytes + size * size);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(headerBytes, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(size, 18);
  out.writeInt32LE(size, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(8, 28);
  out.writeUInt32LE(0, 30);
  out.writeUInt32LE(size * size, 34);
  out.writeInt32LE(2835, 38);
  out.writeInt32LE(2835, 42);
  out.writeUInt32LE(256, 46);
  for (let i = 0; i < 256; i++) out.writeUInt32LE(i * 65793, 54 + i * 4);
  const rng = new Rng(1112363057);
  const noise = new Uint8Array(size * size);
  rng.fill(noise);
  const waveX = Float64Array.from({ length: size }, (_, x) => 45 * Math.sin(x / 37));
  const waveY = Float64Array.from({ length: size }, (_, y) => Math.cos(y / 53));
  const diagonal = Float64Array.from({ length: 3 * size }, (_, d) => 30 * Math.sin(d / 91));
  let at = headerBytes;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x - 300;
      const dy = y - 230;
      const disc = dx * dx + dy * dy < 120 * 120 ? 40 : 0;
      const smooth = 110 + waveX[x] * waveY[y] + diagonal[x + 2 * y] + disc;
      const n2 = noise[y * size + x] % 24 - 12;
      out[at++] = Math.max(0, Math.min(255, Math.round(smooth + n2)));
    }
  }
  return exact("bitmap", out);
}
function makeProse() {
  const target = CORPUS_BYTES.prose;
  const rng = new Rng(1178686803);
  const out = new TextBuilder();
  out.add("\uFEFFDas Spiel vom Nebelhain\r\n\r\nEin erfundenes St\xFCck in Versen (wsgate-Testtext)\r\n\r\n");
  const inventedWord = () => {
    let word = "";
    for (let i = 1 + rng.int(3); i >= 0; i--) word += rng.zipf(PROSE_SYLLABLES);
    return rng.int(3) === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word;
  };
  const line = () => {
    const n2 = 4 + rng.int(5);
    const words = [];
    for (let i = 0; i < n2; i++) words.push(rng.int(2) === 0 ? rng.zipf(PROSE_SMALL_WORDS) : inventedWord());
    const first = words[0] ?? "";
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return `  ${words.join(" ")}${rng.pick(PUNCTUATION)}\r
`;
  };
  for (let scene = 1; ; scene++) {
    let block = `\r
${rng.pick(SPEAKERS)}.\r
`;
    if (scene % 9 === 0) block = `\r
\r
SZENE ${scene / 9}\r
(${rng.pick(SPEAKERS)} tritt auf.)\r
${block}`;
    const lines = 2 + rng.int(9);
    for (let i = 0; i < lines; i++) block += line();
    if (!out.fits(block, target - 200)) break;
    out.add(block);
  }
  out.add(`${asciiFiller(rng, ["und", "so", "nun", "ach", "still", "fern"], target - out.bytes - 2)}\r
`);
  return exact("prose", out.toBuffer());
}
function makeHtml() {
  const target = CORPUS_BYTES.html;
  const rng = new Rng(1213484364);
  const out = new TextBuilder();
  out.add(
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>wsgate synthetic report</title>\n<style>\nbody { font-family: sans-serif; margin: 2em; }\ntable { border-collapse: collapse; }\ntd { padding: 2px 8px; border-bottom: 1px solid #ddd; }\ntd.passed { color: #060; }\ntd.failed { color: #a00; }\ntd.skipped { color: #888; }\n</style>\n</head>\n<body>\n<h1>Synthetic test report</h1>\n<table>\n<tr><th>Run</th><th>Site</th><th>Result</th><th>Time</th></tr>\n'
  );
  const tail = (filler) => `</table>
<p class="footer">${filler}</p>
</body>
</html>
`;
  const reserve = Buffer.byteLength(tail(""), "utf8");
  let wide = 0;
  for (let row = 1; ; row++) {
    const city = row % 120 === 0 && wide < WIDE_NAMES.length ? WIDE_NAMES[wide++] : rng.pick(CITIES);
    const result = rng.pick(RESULTS);
    const text = `<tr class="${row % 2 === 0 ? "even" : "odd"}"><td class="run">R-${String(row).padStart(5, "0")}</td><td class="site">${city}</td><td class="${result}">${result}</td><td class="time">${rng.int(900)} ms</td></tr>
`;
    if (!out.fits(text, target - reserve - 40)) break;
    out.add(text);
  }
  if (wide !== WIDE_NAMES.length) throw new Error("corpus html: not every multi-byte name was placed");
  out.add(tail(asciiFiller(rng, ["report", "generated", "by", "wsgate", "for", "testing"], target - reserve - out.bytes)));
  return exact("html", out.toBuffer());
}
function adler32(data) {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 3800, data.length);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16 | a) >>> 0;
}
function storedZlib(rng, length) {
  const blocks = Math.max(1, Math.ceil(length / 65535));
  const out = Buffer.alloc(2 + blocks * 5 + length + 4);
  const raw = new Uint8Array(length);
  rng.fill(raw);
  out[0] = 120;
  out[1] = 1;
  let at = 2;
  for (let i = 0; i < blocks; i++) {
    const n2 = Math.min(65535, length - i * 65535);
    out[at] = i === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(n2, at + 1);
    out.writeUInt16LE(~n2 & 65535, at + 3);
    out.set(raw.subarray(i * 65535, i * 65535 + n2), at + 5);
    at += 5 + n2;
  }
  out.writeUInt32BE(adler32(raw), at);
  return out;
}
function makePdf() {
  const target = CORPUS_BYTES.pdf;
  const rng = new Rng(1346651697);
  const parts = [];
  let length = 0;
  const offsets = [];
  const push = (b) => {
    parts.push(b);
    length += b.length;
  };
  const object = (body) => {
    offsets.push(length);
    push(Buffer.from(`${offsets.length} 0 obj
`, "latin1"));
    for (const b of body) push(b);
    push(Buffer.from("\nendobj\n", "latin1"));
  };
  push(Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1"));
  object([Buffer.from("<< /Type /Catalog /Pages 2 0 R >>", "latin1")]);
  object([Buffer.from("<< /Type /Pages >>", "latin1")]);
  const reserve = 4096;
  for (let _page = 1; ; _page++) {
    let text = "BT\n/F1 10 Tf\n";
    const lines = 60 + rng.int(40);
    for (let i = 0; i < lines; i++) {
      let words = "";
      for (let w = 0; w < 10; w++) words += `${rng.zipf(PDF_WORDS)} `;
      text += `72 ${760 - i * 12} Td (${words.trimEnd()}) Tj
`;
    }
    text += "ET";
    const image = storedZlib(rng, 12e3 + rng.int(2e4));
    const need = text.length + image.length + 200;
    if (length + need > target - reserve) break;
    object([Buffer.from(`<< /Length ${text.length} >>
stream
${text}
endstream`, "latin1")]);
    object([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width 256 /Height 128 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode /Length ${image.length} >>
stream
`,
        "latin1"
      ),
      image,
      Buffer.from("\nendstream", "latin1")
    ]);
  }
  const xref = (start) => {
    let s = `xref
0 ${offsets.length + 1}
0000000000 65535 f 
`;
    for (const o of offsets) s += `${String(o).padStart(10, "0")} 00000 n 
`;
    s += `trailer
<< /Size ${offsets.length + 1} /Root 1 0 R >>
startxref
${start}
%%EOF
`;
    return Buffer.from(s, "latin1");
  };
  const xrefLength = xref(target - xref(length).length).length;
  const fill = target - length - xrefLength;
  let comment = "";
  while (comment.length < fill) {
    const line = `% ${asciiFiller(rng, PDF_WORDS, 70)}
`;
    comment += line;
  }
  comment = `${comment.slice(0, fill - 1)}
`;
  push(Buffer.from(comment, "latin1"));
  push(xref(length));
  return exact("pdf", Buffer.concat(parts));
}
function codePointOffsets(bytes2) {
  let count3 = 0;
  for (let i = 0; i < bytes2.length; i++) if ((bytes2[i] & 192) !== 128) count3++;
  const offsets = new Int32Array(count3 + 1);
  let k = 0;
  for (let i = 0; i < bytes2.length; i++) if ((bytes2[i] & 192) !== 128) offsets[k++] = i;
  offsets[k] = bytes2.length;
  return offsets;
}
function corpusFile(kind) {
  let file = cache.get(kind);
  if (file === void 0) {
    const bytes2 = makers[kind]();
    file = { kind, bytes: bytes2, codePointOffsets: SLICED_AS_TEXT.has(kind) ? codePointOffsets(bytes2) : null };
    cache.set(kind, file);
  }
  return file;
}
var CORPUS_BYTES, LITTLE_ENDIAN, Rng, TextBuilder, SENSORS, UNITS, SITES, STATUSES, NOTE_WORDS, PROSE_SMALL_WORDS, PROSE_SYLLABLES, SPEAKERS, PUNCTUATION, CITIES, WIDE_NAMES, RESULTS, PDF_WORDS, makers, SLICED_AS_TEXT, cache;
var init_deflate_corpus = __esm({
  "src/cases/data/deflate-corpus.ts"() {
    "use strict";
    CORPUS_BYTES = {
      json: 194056,
      bitmap: 263222,
      prose: 222218,
      html: 263647,
      pdf: 1042328
    };
    LITTLE_ENDIAN = endianness() === "LE";
    Rng = class {
      next;
      constructor(seed) {
        this.next = mulberry32(seed);
      }
      /** An integer in [0, n). */
      int(n2) {
        return this.next() % n2;
      }
      /** A float in [0, 1). */
      float() {
        return this.next() / 4294967296;
      }
      /** A uniformly chosen element. */
      pick(items) {
        return items[this.int(items.length)];
      }
      /** An element chosen with a Zipf-like bias towards the front of the list (as words in text are). */
      zipf(items) {
        const u = this.float();
        return items[Math.floor(items.length * u * u)];
      }
      /** Fills a buffer with random bytes (four per draw, least significant byte first). */
      fill(out) {
        let i = 0;
        if (LITTLE_ENDIAN && out.byteOffset % 4 === 0) {
          const words = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
          for (; i < words.length; i++) words[i] = this.next();
          i *= 4;
        }
        for (; i + 4 <= out.length; ) {
          const v = this.next();
          out[i++] = v & 255;
          out[i++] = v >>> 8 & 255;
          out[i++] = v >>> 16 & 255;
          out[i++] = v >>> 24;
        }
        if (i < out.length) {
          const v = this.next();
          for (let shift = 0; i < out.length; shift += 8) out[i++] = v >>> shift & 255;
        }
      }
    };
    TextBuilder = class {
      parts = [];
      bytes = 0;
      add(text) {
        this.parts.push(text);
        this.bytes += Buffer.byteLength(text, "utf8");
      }
      fits(text, limit) {
        return this.bytes + Buffer.byteLength(text, "utf8") <= limit;
      }
      toBuffer() {
        return Buffer.from(this.parts.join(""), "utf8");
      }
    };
    SENSORS = ["temperature", "humidity", "pressure", "wind-speed", "wind-direction", "rain", "radiation", "dew-point"];
    UNITS = {
      temperature: "degC",
      humidity: "percent",
      pressure: "hPa",
      "wind-speed": "m/s",
      "wind-direction": "deg",
      rain: "mm",
      radiation: "W/m2",
      "dew-point": "degC"
    };
    SITES = ["roof-north", "roof-south", "mast-a", "mast-b", "courtyard", "garden"];
    STATUSES = ["ok", "ok", "ok", "ok", "ok", "ok", "ok", "stale", "calibrating", "out-of-range"];
    NOTE_WORDS = ["sensor", "reading", "value", "checked", "station", "interval", "average", "noted", "the", "of", "and"];
    PROSE_SMALL_WORDS = [
      "und",
      "der",
      "die",
      "das",
      "ich",
      "nicht",
      "du",
      "zu",
      "mit",
      "ein",
      "in",
      "es",
      "mir",
      "so",
      "wie",
      "sich",
      "den",
      "auf",
      "ist",
      "was",
      "noch",
      "doch",
      "mich",
      "dem",
      "nur",
      "wer",
      "dich",
      "sein",
      "nun",
      "schon",
      "hier",
      "wohl",
      "gar",
      "dort",
      "auch",
      "ach",
      "\xFCber",
      "f\xFCr",
      "durch",
      "vor",
      "hinter",
      "sch\xF6n"
    ];
    PROSE_SYLLABLES = [
      "ber",
      "gen",
      "wal",
      "ster",
      "lich",
      "keit",
      "hau",
      "mon",
      "tr\xE4",
      "r\xF6",
      "schl",
      "acht",
      "ung",
      "feld",
      "brun",
      "dor",
      "gl\xFC",
      "wen",
      "ka",
      "mer",
      "nel",
      "sin",
      "tal",
      "grau",
      "k\xFC",
      "fen",
      "lau",
      "e\xDF",
      "hei",
      "mu",
      "rin",
      "zau",
      "bern",
      "w\xF6",
      "gel",
      "stra",
      "hen",
      "lo",
      "quel",
      "d\xFC",
      "sam",
      "ten",
      "vo",
      "frei"
    ];
    SPEAKERS = ["DER WANDERER", "DIE KR\xC4UTERFRAU", "DER SCHREIBER", "CHOR DER NEBEL", "DER T\xDCRMER", "MARGA", "DER GAUKLER"];
    PUNCTUATION = [",", ",", ".", ".", ";", "!", "?", ":"];
    CITIES = ["Aachen", "Bergen", "Lyon", "Porto", "Gent", "Turin", "Leeds", "Basel", "Brno", "Graz", "Split", "Tartu"];
    WIDE_NAMES = [
      "Z\xFCrich",
      // ü: +1
      "Malm\xF6",
      // ö: +1
      "Krak\xF3w",
      // ó: +1
      "S\xE3o Paulo",
      // ã: +1
      "Besan\xE7on",
      // ç: +1
      "\xDE\xF3rsh\xF6fn",
      // Þ ó ö: +3
      "\u0395\u03BB\u03BB\u03AC\u03B4\u03B1",
      // six Greek letters: +6
      "\u6771\u4EAC",
      // two CJK ideographs of 3 bytes: +4
      "R\u012Bga \u2014 Tallinn",
      // ī +1, em dash +2: +3
      "K\xF6ln \u{1F642}",
      // ö +1, an emoji of 4 bytes: +4
      "\u20AC Zone"
      // euro sign: +2
    ];
    RESULTS = ["passed", "passed", "passed", "passed", "passed", "failed", "skipped"];
    PDF_WORDS = [
      "the",
      "of",
      "and",
      "model",
      "data",
      "system",
      "results",
      "we",
      "in",
      "is",
      "for",
      "figure",
      "method",
      "value",
      "table",
      "analysis",
      "section",
      "shows"
    ];
    makers = {
      json: makeJson,
      bitmap: makeBitmap,
      prose: makeProse,
      html: makeHtml,
      pdf: makePdf
    };
    SLICED_AS_TEXT = /* @__PURE__ */ new Set(["json", "html"]);
    cache = /* @__PURE__ */ new Map();
  }
});

// src/cases/data/deflate-cases.ts
function acceptOffer(requests, offers) {
  for (const request of requests) {
    for (const offer of offers) {
      if (request.noContextTakeover && !offer.acceptNoContextTakeover) continue;
      if (request.maxWindowBits !== 0 && !offer.acceptMaxWindowBits) continue;
      return { offer, requestNoContextTakeover: request.noContextTakeover, requestMaxWindowBits: request.maxWindowBits };
    }
  }
  return null;
}
var messageSizeRows, payloadSubgroups, paramTestData, plain, noContext, bits9, bits15, noContextBits9, noContextBits15, acceptRules, acceptFirstOffer;
var init_deflate_cases = __esm({
  "src/cases/data/deflate-cases.ts"() {
    "use strict";
    messageSizeRows = [
      { row: "1", length: 16, count: 1e3, waitSeconds: 60, fragmentSize: 0 },
      { row: "2", length: 64, count: 1e3, waitSeconds: 60, fragmentSize: 0 },
      { row: "3", length: 256, count: 1e3, waitSeconds: 120, fragmentSize: 0 },
      { row: "4", length: 1024, count: 1e3, waitSeconds: 240, fragmentSize: 0 },
      { row: "5", length: 4096, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "6", length: 8192, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "7", length: 16384, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "8", length: 32768, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "9", length: 65536, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "10", length: 131072, count: 1e3, waitSeconds: 480, fragmentSize: 0 },
      { row: "11", length: 8192, count: 1e3, waitSeconds: 480, fragmentSize: 256 },
      { row: "12", length: 16384, count: 1e3, waitSeconds: 480, fragmentSize: 256 },
      { row: "13", length: 32768, count: 1e3, waitSeconds: 480, fragmentSize: 256 },
      { row: "14", length: 65536, count: 1e3, waitSeconds: 480, fragmentSize: 256 },
      { row: "15", length: 131072, count: 1e3, waitSeconds: 480, fragmentSize: 256 },
      { row: "16", length: 131072, count: 1e3, waitSeconds: 480, fragmentSize: 1024 },
      { row: "17", length: 131072, count: 1e3, waitSeconds: 480, fragmentSize: 4096 },
      { row: "18", length: 131072, count: 1e3, waitSeconds: 480, fragmentSize: 32768 }
    ];
    payloadSubgroups = [
      { subgroup: "12.1", data: { corpus: "json", binary: false, what: "a 194056-byte JSON document" } },
      { subgroup: "12.2", data: { corpus: "bitmap", binary: true, what: "a 263222-byte 512\xD7512 grayscale bitmap", literalsOnly: true } },
      { subgroup: "12.3", data: { corpus: "prose", binary: true, what: "a 222218-byte German verse text (UTF-8, sent as binary)" } },
      { subgroup: "12.4", data: { corpus: "html", binary: false, what: "a 263647-byte HTML page (263620 code points)" } },
      { subgroup: "12.5", data: { corpus: "pdf", binary: true, what: "a 1042328-byte PDF document" } }
    ];
    paramTestData = payloadSubgroups[0]?.data ?? { corpus: "json", binary: false, what: "" };
    plain = { noContextTakeover: false, maxWindowBits: 0 };
    noContext = { noContextTakeover: true, maxWindowBits: 0 };
    bits9 = { noContextTakeover: false, maxWindowBits: 9 };
    bits15 = { noContextTakeover: false, maxWindowBits: 15 };
    noContextBits9 = { noContextTakeover: true, maxWindowBits: 9 };
    noContextBits15 = { noContextTakeover: true, maxWindowBits: 15 };
    acceptRules = [
      { subgroup: "13.1", requests: [plain] },
      { subgroup: "13.2", requests: [noContext] },
      { subgroup: "13.3", requests: [bits9] },
      { subgroup: "13.4", requests: [bits15] },
      { subgroup: "13.5", requests: [noContextBits9] },
      { subgroup: "13.6", requests: [noContextBits15] },
      { subgroup: "13.7", requests: [noContextBits9, noContext, plain] }
    ];
    acceptFirstOffer = [plain];
  }
});

// src/cases/s12-deflate-payloads.ts
import { createHash } from "node:crypto";
function equalsParts(data, parts) {
  let at = 0;
  for (const p of parts) {
    if (at + p.length > data.length || !data.subarray(at, at + p.length).equals(p)) return false;
    at += p.length;
  }
  return at === data.length;
}
function codePoints(data) {
  let n2 = 0;
  for (let i = 0; i < data.length; i++) if ((data[i] & 192) !== 128) n2++;
  return n2;
}
function framing(row) {
  return row.fragmentSize === 0 ? "each message in a single frame" : `the compressed payload of each message split into frames of at most ${row.fragmentSize} bytes`;
}
function deflateEchoCase(spec) {
  const { data, row } = spec;
  const echo3 = new EchoRun(data, row);
  return defineCase({
    id: spec.id,
    ...echoTexts(data, row, spec.negotiation),
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    closeExpectationAtStart: true,
    reportTime: true,
    reportCompressionRatio: true,
    schedule: {
      maxSeconds: row.waitSeconds + 2,
      cost: 0.1 + row.count * (2e-4 + row.length / (data.corpus === "bitmap" || data.corpus === "pdf" ? 4e6 : 2e7))
    },
    deflate: (offers) => acceptOffer(spec.accept, offers),
    // As a client, wsgate offers what it accepts as a server (Autobahn's CLIENT_OFFERS mirror SERVER_ACCEPT).
    deflateOffers: spec.accept.map((r) => ({ requestNoContextTakeover: r.noContextTakeover, requestMaxWindowBits: r.maxWindowBits })),
    deflateLiteralsOnly: data.literalsOnly === true,
    // An echo is compared with what was sent, then dropped (a difference is reported by its SHA-1).
    transientMessages: true,
    run: (t) => echo3.start(t),
    onMessage: (t, received, binary) => echo3.onEcho(t, received, binary)
  });
}
function echoTexts(data, row, negotiation2) {
  const unit = data.binary ? "bytes" : "code points";
  const fromChunks = row.length >= CUT_FROM;
  return {
    description: `${row.count} ${data.binary ? "binary" : "text"} messages of ${row.length} ${unit} each, cut in turn from ${data.what}, wrapping around at its end; sent compressed with permessage-deflate${data.literalsOnly === true ? " (coded as Huffman literals: LZ77 finds nothing in its noise)" : ""}${fromChunks ? ` from ${CHUNK_SIZE / 1024} KiB chunks of the document deflated once per run, whose back-references reach into earlier messages` : ""}, ${framing(row)}. The next message leaves only when the previous one has come back.<br>${negotiation2}`,
    expectation: `The client echoes every message unchanged (same type, same ${unit}) and all ${row.count} within ${row.waitSeconds} seconds, then answers the server's close (1000) cleanly. Without permessage-deflate negotiated the case is UNIMPLEMENTED.`
  };
}
function finish(t, behavior, result) {
  t.setOutcome(behavior, result);
  t.setWirelog(true);
  t.sendClose(CloseCode.Normal);
}
var documents, CHUNK_SIZE, CUT_FROM, MessageWindow, states, py, sha1, EchoRun, NEGOTIATION_12, deflatePayloadCases;
var init_s12_deflate_payloads = __esm({
  "src/cases/s12-deflate-payloads.ts"() {
    "use strict";
    init_constants();
    init_document();
    init_verdicts();
    init_deflate_corpus();
    init_deflate_cases();
    init_define();
    documents = /* @__PURE__ */ new Map();
    CHUNK_SIZE = 8192;
    CUT_FROM = 4 * CHUNK_SIZE;
    MessageWindow = class {
      constructor(data, length) {
        this.length = length;
        const file = corpusFile(data.corpus);
        let document = documents.get(data.corpus);
        if (document === void 0) {
          document = new DocumentChunks(file.bytes, CHUNK_SIZE);
          documents.set(data.corpus, document);
        }
        this.document = document;
        this.offsets = data.binary ? null : file.codePointOffsets;
        this.units = this.offsets === null ? file.bytes.length : this.offsets.length - 1;
      }
      length;
      document;
      offsets;
      /** Size of the document in the window's units: code points for text, bytes for binary. */
      units;
      byteAt(unit) {
        return this.offsets === null ? unit : this.offsets[unit];
      }
      /** The bytes of the message that starts at unit `from`, wrapping around at the end: first byte and length. */
      range(from) {
        const start = this.byteAt(from);
        const end = this.byteAt((from + this.length) % this.units);
        return { start, length: end > start ? end - start : end + this.document.bytes.length - start };
      }
      /** Where the message after the one at `from` starts. */
      next(from) {
        return (from + this.length) % this.units;
      }
    };
    states = /* @__PURE__ */ new WeakMap();
    py = (b) => b ? "True" : "False";
    sha1 = (...parts) => {
      const hash = createHash("sha1");
      for (const p of parts) hash.update(p);
      return hash.digest("hex");
    };
    EchoRun = class {
      constructor(data, row) {
        this.data = data;
        this.row = row;
        this.fromChunks = row.length >= CUT_FROM;
      }
      data;
      row;
      window = null;
      fromChunks;
      start(t) {
        t.setWirelog(false);
        if (!t.deflateActive) {
          t.setOutcome(Behavior.Unimplemented, "Actual events differ from any expected.");
          t.sendClose(CloseCode.Normal);
          return;
        }
        t.setOutcome(Behavior.Failed, `Case did not finish within ${this.row.waitSeconds} seconds.`);
        t.closeAfter(this.row.waitSeconds);
        this.window ??= new MessageWindow(this.data, this.row.length);
        const s = { window: this.window, position: 0, sent: 0, expected: [], next: null };
        states.set(t, s);
        this.sendNext(t, s);
      }
      onEcho(t, received, binary) {
        const { data, row } = this;
        const s = states.get(t);
        if (s === void 0) return;
        if (binary === data.binary && equalsParts(received, s.expected)) {
          if (s.sent < row.count) {
            this.sendNext(t, s);
          } else {
            t.captureTrafficStats();
            finish(t, Behavior.Ok, "Ok, received all echo'ed messages in time.");
          }
          return;
        }
        const length = data.binary ? received.length : codePoints(received);
        const result = binary !== data.binary ? `Echo'ed message type differs from what I sent (got binary ${py(binary)}, expected binary ${py(data.binary)}).` : length !== row.length ? `Echo'ed message length differs from what I sent (got length ${length}, expected length ${row.length}).` : `Echo'ed message contents differs from what I sent (got SHA1 ${sha1(received)}, expected SHA1 ${sha1(...s.expected)}).`;
        finish(t, Behavior.Failed, result);
      }
      /** Cuts the next message and compresses it (Autobahn's sendOne, without the sending). */
      prepare(t, s) {
        const { start, length } = s.window.range(s.position);
        s.position = s.window.next(s.position);
        const options = { binary: this.data.binary, fragmentSize: this.row.fragmentSize, fromChunks: this.fromChunks };
        return { payload: s.window.document.views(start, length), prepared: t.prepareCut(s.window.document, start, length, options) };
      }
      /**
       * Sends the prepared message, then prepares the one after it, so that its compression overlaps
       * the round trip. Messages are compressed in sending order, so the bytes on the wire are the same
       * as with sendMessage.
       */
      sendNext(t, s) {
        const m = s.next ?? this.prepare(t, s);
        s.expected = m.payload;
        t.sendPrepared(m.prepared);
        s.sent += 1;
        s.next = s.sent < this.row.count ? this.prepare(t, s) : null;
      }
    };
    NEGOTIATION_12 = "Negotiation: the server accepts the client's first permessage-deflate offer, asking nothing of the client's compressor.";
    deflatePayloadCases = payloadSubgroups.flatMap(
      ({ subgroup: subgroup2, data }) => messageSizeRows.map((row) => deflateEchoCase({ id: `${subgroup2}.${row.row}`, data, row, accept: acceptFirstOffer, negotiation: NEGOTIATION_12 }))
    );
  }
});

// src/cases/s13-deflate-params.ts
function asked(r) {
  const params = [
    ...r.noContextTakeover ? ["client_no_context_takeover"] : [],
    ...r.maxWindowBits !== 0 ? [`client_max_window_bits=${r.maxWindowBits}`] : []
  ];
  return params.length === 0 ? "nothing" : params.join(" and ");
}
function negotiation(requests) {
  const tries = requests.map(
    (r) => r.noContextTakeover || r.maxWindowBits !== 0 ? `the first offer that allows ${asked(r)}, asking for ${r.noContextTakeover && r.maxWindowBits !== 0 ? "both" : "it"}` : "the client's first offer, asking nothing"
  );
  const rule = tries.length === 1 ? `accepts ${tries[0] ?? ""}` : `accepts, trying in turn: ${tries.join("; then ")}`;
  return `Negotiation: the server ${rule}. When no offer fits, the server declines permessage-deflate.`;
}
var deflateParamCases;
var init_s13_deflate_params = __esm({
  "src/cases/s13-deflate-params.ts"() {
    "use strict";
    init_deflate_cases();
    init_s12_deflate_payloads();
    deflateParamCases = acceptRules.flatMap(
      ({ subgroup: subgroup2, requests }) => messageSizeRows.map(
        (row) => deflateEchoCase({ id: `${subgroup2}.${row.row}`, data: paramTestData, row, accept: requests, negotiation: negotiation(requests) })
      )
    );
  }
});

// src/cases/handshake-scripts.ts
import { createHash as createHash2 } from "node:crypto";
function head(statusLine, lines) {
  return `${[statusLine, ...lines].map((l) => `${l}\r
`).join("")}\r
`;
}
function upgradeLines(info) {
  return ["Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${info.accept}`];
}
function needsMet(needs, info) {
  if (needs === "deflate-offer") return info.deflateOffers.length > 0;
  if (needs === "no-deflate-offer") return info.deflateOffers.length === 0;
  return true;
}
function unimplementedUnlessScripted(needs) {
  return (verdict, facts) => {
    if (facts.scriptedHandshake === true) return verdict;
    return {
      behavior: Behavior.Unimplemented,
      result: needsText(needs),
      behaviorClose: CloseBehavior.Ok,
      resultClose: "Not judged: the case does not apply to this client."
    };
  };
}
function mustRefuse(def) {
  const needs = def.needs ?? null;
  const statusLine = def.statusLine ?? SWITCHING;
  const switching = statusLine === SWITCHING;
  return defineCase({
    id: def.id,
    description: def.description,
    expectation: `${def.expectation} The client fails the connection: it closes TCP without sending any data frame (a close frame first is tolerated, with any code), and never echoes the text message the server sends right after the response.${needs === null ? "" : ` ${needsText(needs)}`}`,
    expect: { OK: [] },
    close: refused,
    suppressClose: true,
    adjust: unimplementedUnlessScripted(needs),
    handshake(info) {
      if (!needsMet(needs, info)) return null;
      const response = head(statusLine, def.lines(info));
      if (def.deflate !== true) return { head: response, delivery: "together" };
      const offer = info.deflateOffers[0] ?? PLAIN_OFFER;
      return { head: response, delivery: "together", deflate: { offer, requestNoContextTakeover: false, requestMaxWindowBits: 0 } };
    },
    run(t) {
      if (!t.scriptedHandshake) {
        unimplemented(t, needsText(needs));
        return;
      }
      t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
      if (switching) t.killAfter(REFUSE_WAIT);
      else t.continueLater(REFUSE_WAIT, () => t.dropConnection(), "client-kept-http-connection");
    }
  });
}
function needsText(needs) {
  if (needs === "deflate-offer") return "Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.";
  if (needs === "no-deflate-offer") return "When the client offers permessage-deflate the case is UNIMPLEMENTED.";
  return "";
}
function unimplemented(t, why) {
  t.setOutcome(Behavior.Unimplemented, why);
  t.sendClose(CloseCode.Normal);
}
function mustAccept(def) {
  const binary = Buffer.from("wsgate binary \0\xFF", "latin1");
  return defineCase({
    id: def.id,
    description: def.description,
    expectation: `${def.expectation} The client takes the connection as established and echoes a text and a binary message, then answers the close (1000) cleanly.`,
    expect: { OK: [message(PROBE), message(binary, true)] },
    close: closedByMe([CloseCode.Normal]),
    adjust: wrongCodeFails,
    handshake: (info) => ({ head: def.response(info), delivery: def.delivery }),
    run(t) {
      t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
      t.sendFrame({ opcode: Opcode.Binary, payload: binary });
      t.killAfter(ECHO_WAIT);
    }
  });
}
function mustInflate(def) {
  return defineCase({
    id: def.id,
    description: `${def.description} Negotiation: the server accepts the client's first permessage-deflate offer, asking nothing. (${def.rfc})`,
    expectation: `${def.expectation} Without permessage-deflate negotiated the case is UNIMPLEMENTED.`,
    expect: { OK: def.echoes.map((e) => message(e)) },
    close: closedByMe([CloseCode.Normal]),
    adjust: wrongCodeFails,
    deflate: (offers) => acceptOffer(acceptFirstOffer, offers),
    run(t) {
      if (!t.deflateActive) {
        unimplemented(t, "permessage-deflate was not negotiated (the client offered none).");
        return;
      }
      for (const frame of def.frames) t.sendFrame(frame);
      t.killAfter(ECHO_WAIT);
    }
  });
}
function swapCase(text) {
  return text.replace(/[A-Za-z]/g, (c3) => c3 === c3.toUpperCase() ? c3.toLowerCase() : c3.toUpperCase());
}
function acceptWithoutGuid(info) {
  return createHash2("sha1").update(info.request.key, "latin1").digest("base64");
}
var PROBE, REFUSE_WAIT, ECHO_WAIT, ANY_CLOSE_CODE, refused, SWITCHING, PLAIN_OFFER;
var init_handshake_scripts = __esm({
  "src/cases/handshake-scripts.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_deflate_cases();
    init_define();
    PROBE = "Hello, wsgate";
    REFUSE_WAIT = 2;
    ECHO_WAIT = 5;
    ANY_CLOSE_CODE = [1e3, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011];
    refused = { closedByMe: false, closeCode: ANY_CLOSE_CODE, requireClean: false };
    SWITCHING = "HTTP/1.1 101 Switching Protocols";
    PLAIN_OFFER = {
      acceptNoContextTakeover: true,
      acceptMaxWindowBits: false,
      requestNoContextTakeover: false,
      requestMaxWindowBits: 0
    };
  }
});

// src/cases/s14-messages.ts
var RSV1, HELLO_SYNC_FLUSHED, HELLO4, HELLO_BFINAL, EMPTY_BLOCK, inflateCases, REASON_123, REASON_CUT, closeReasonCases;
var init_s14_messages = __esm({
  "src/cases/s14-messages.ts"() {
    "use strict";
    init_constants();
    init_define();
    init_handshake_scripts();
    RSV1 = 4;
    HELLO_SYNC_FLUSHED = hex("f2 48 cd c9 c9 07 00 00 00 ff ff");
    HELLO4 = hex("f2 48 cd c9 c9 07 00");
    HELLO_BFINAL = hex("f3 48 cd c9 c9 07 00");
    EMPTY_BLOCK = hex("00");
    inflateCases = [
      // RFC 7692 §7.2.3.6 (Generating an Empty Fragment): a sender that has flushed what it compressed
      // (the flush's empty stored block kept, as it is not the end of the message yet) and then meets the
      // end of the message sends a final fragment holding the octet 0x00; with the appended 00 00 ff ff it
      // is one more empty stored block.
      mustInflate({
        id: "14.5.1",
        rfc: "RFC 7692 \xA77.2.2, \xA77.2.3.6",
        description: 'A compressed text message "Hello" in two frames: the data of a sync flush with its empty stored block kept (f2 48 cd c9 c9 07 00 00 00 ff ff), then a final continuation frame whose payload is the single octet 00; then a second compressed "Hello" (f2 48 cd c9 c9 07 00).',
        expectation: 'RFC 7692 \xA77.2.3.6: the final octet 00 and the appended 00 00 ff ff make one more empty stored block. The client echoes "Hello" twice.',
        frames: [
          { opcode: Opcode.Text, rsv: RSV1, payload: HELLO_SYNC_FLUSHED, fin: false },
          { opcode: Opcode.Continuation, payload: EMPTY_BLOCK },
          { opcode: Opcode.Text, rsv: RSV1, payload: HELLO4 }
        ],
        echoes: ["Hello", "Hello"]
      }),
      // RFC 6455 §5.4: "A fragmented message consists of a single frame with the FIN bit clear and an
      // opcode other than 0, followed by zero or more frames with the FIN bit clear and the opcode set to
      // 0, and terminated by a single frame with the FIN bit set and an opcode of 0." Nothing bounds a
      // fragment's payload from below.
      mustInflate({
        id: "14.5.2",
        rfc: "RFC 6455 \xA75.4, RFC 7692 \xA77.2.2",
        description: 'A compressed text message "Hello" in two frames: all the compressed data first (f2 48 cd c9 c9 07 00), then a final continuation frame with an empty payload.',
        expectation: 'The 00 00 ff ff appended at the end of the message completes the data. The client echoes "Hello".',
        frames: [
          { opcode: Opcode.Text, rsv: RSV1, payload: HELLO4, fin: false },
          { opcode: Opcode.Continuation, payload: "" }
        ],
        echoes: ["Hello"]
      }),
      mustInflate({
        id: "14.5.3",
        rfc: "RFC 7692 \xA77.2.2, \xA77.2.3.6",
        description: 'An empty text message compressed (payload 00: with the appended 00 00 ff ff, an empty stored block), then a compressed "Hello".',
        expectation: 'The first message inflates to nothing. The client echoes an empty text message, then "Hello".',
        frames: [
          { opcode: Opcode.Text, rsv: RSV1, payload: EMPTY_BLOCK },
          { opcode: Opcode.Text, rsv: RSV1, payload: HELLO4 }
        ],
        echoes: ["", "Hello"]
      }),
      // RFC 7692 §7.2.3.4: "On platforms on which the flush method using an empty DEFLATE block with no
      // compression is not available, implementors can choose to flush data using DEFLATE blocks with
      // "BFINAL" set to 1."
      mustInflate({
        id: "14.5.4",
        rfc: "RFC 7692 \xA77.2.3.4",
        description: 'A compressed text message "Hello" whose only DEFLATE block has BFINAL set (f3 48 cd c9 c9 07 00, as a Z_FINISH flush ends it).',
        expectation: 'RFC 7692 \xA77.2.3.4: a sender may flush with a block that has BFINAL set; the client inflates it (the 00 00 ff ff appended after the end of the stream is ignored) and echoes "Hello".',
        frames: [{ opcode: Opcode.Text, rsv: RSV1, payload: HELLO_BFINAL }],
        echoes: ["Hello"]
      })
    ];
    REASON_123 = "\u20AC".repeat(41);
    REASON_CUT = Buffer.from("Hello \u20AC", "utf8").subarray(0, -1);
    closeReasonCases = [
      // RFC 6455 §5.5: "All control frames MUST have a payload length of 125 bytes or less"; §5.5.1: the
      // body is a 2-byte status code followed by UTF-8 data, so a reason has at most 123 octets.
      defineCase({
        id: "14.6.1",
        description: "A close frame with code 1000 and a 123-octet reason made of 41 three-octet UTF-8 characters (U+20AC): the longest a close reason can be. (RFC 6455 \xA75.5, \xA75.5.1)",
        expectation: "RFC 6455 \xA75.5.1: the client answers the close with 1000 (or no code) and closes cleanly.",
        expect: { OK: [] },
        close: closedByMe([CloseCode.Normal]),
        suppressClose: true,
        adjust: wrongCodeFails,
        run(t) {
          t.sendCloseFrame(CloseCode.Normal, REASON_123);
          t.killAfter(REFUSE_WAIT);
        }
      }),
      // RFC 6455 §5.5.1: "the data ... is not guaranteed to be human readable" but "MUST be UTF-8", and §8.1:
      // "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte stream is not, in
      // fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_."
      defineCase({
        id: "14.6.2",
        description: 'A close frame with code 1000 whose reason ends in the middle of a UTF-8 sequence ("Hello " then e2 82, the first two octets of U+20AC). (RFC 6455 \xA75.5.1, \xA78.1)',
        expectation: "RFC 6455 \xA78.1: the reason is not valid UTF-8, so the client fails the connection: it answers with 1007 (or no code), or drops TCP.",
        expect: { OK: [] },
        close: { closedByMe: true, closeCode: [CloseCode.InvalidPayload], requireClean: false },
        suppressClose: true,
        adjust: wrongCodeFails,
        run(t) {
          t.sendCloseFrame(CloseCode.Normal, REASON_CUT);
          t.killAfter(REFUSE_WAIT);
        }
      })
    ];
  }
});

// src/cases/s14-handshake.ts
function deflateResponse(id, params, what, rule) {
  return mustRefuse({
    id,
    description: `A valid 101 response accepting permessage-deflate with ${what}: "Sec-WebSocket-Extensions: permessage-deflate; ${params}", then an uncompressed text message. (RFC 7692 \xA77.1)`,
    expectation: `RFC 7692 \xA77.1: a response that contains ${rule} means the client MUST _Fail the WebSocket Connection_.`,
    needs: "deflate-offer",
    deflate: true,
    lines: (info) => [...upgradeLines(info), `Sec-WebSocket-Extensions: permessage-deflate; ${params}`]
  });
}
var statusAndHeaderCases, negotiationCases, deflateParamCases2, acceptCases, handshakeCases;
var init_s14_handshake = __esm({
  "src/cases/s14-handshake.ts"() {
    "use strict";
    init_handshake_scripts();
    init_s14_messages();
    statusAndHeaderCases = [
      // RFC 6455 §4.1: "If the response lacks a |Sec-WebSocket-Accept| header field or the
      // |Sec-WebSocket-Accept| contains a value other than the base64-encoded SHA-1 of the concatenation
      // of the |Sec-WebSocket-Key| (as a string, not base64-decoded) with the string
      // "258EAFA5-E914-47DA-95CA-C5AB0DC85B11" but ignoring any leading and trailing whitespace, the
      // client MUST _Fail the WebSocket Connection_."
      mustRefuse({
        id: "14.1.1",
        description: "A 101 response whose Sec-WebSocket-Accept is the base64 SHA-1 of the key alone (the GUID left out), then a text message. (RFC 6455 \xA74.1)",
        expectation: "RFC 6455 \xA74.1: a Sec-WebSocket-Accept other than base64(SHA-1(key + GUID)) means the client MUST _Fail the WebSocket Connection_.",
        lines: (info) => ["Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${acceptWithoutGuid(info)}`]
      }),
      mustRefuse({
        id: "14.1.2",
        description: "A 101 response without a Sec-WebSocket-Accept header field, then a text message. (RFC 6455 \xA74.1)",
        expectation: "RFC 6455 \xA74.1: a response that lacks a Sec-WebSocket-Accept header field means the client MUST _Fail the WebSocket Connection_.",
        lines: () => ["Upgrade: websocket", "Connection: Upgrade"]
      }),
      mustRefuse({
        id: "14.1.8",
        description: "A 101 response whose Sec-WebSocket-Accept is the right value with the letter case of every letter swapped, then a text message. (RFC 6455 \xA74.1, RFC 4648 \xA74)",
        expectation: "RFC 6455 \xA74.1: the value must be the base64-encoded SHA-1; base64 letters are case-sensitive (RFC 4648 \xA74), so this is another value and the client MUST _Fail the WebSocket Connection_.",
        lines: (info) => ["Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Accept: ${swapCase(info.accept)}`]
      }),
      // RFC 6455 §4.1: "If the status code received from the server is not 101, the client handles the
      // response per HTTP [RFC2616] procedures." §4.2.2: "Any status code other than 101 indicates that
      // the WebSocket handshake has not completed and that the semantics of HTTP still apply."
      mustRefuse({
        id: "14.1.3",
        description: "A 200 OK response that otherwise carries every upgrade header field (Upgrade, Connection, a correct Sec-WebSocket-Accept), then a text message as its body. (RFC 6455 \xA74.1, \xA74.2.2)",
        expectation: "RFC 6455 \xA74.1: a status other than 101 is handled per HTTP; the WebSocket handshake has not completed.",
        statusLine: "HTTP/1.1 200 OK",
        lines: upgradeLines
      }),
      mustRefuse({
        id: "14.1.4",
        description: "A 301 Moved Permanently response whose Location is the URL just requested, then a text message. (RFC 6455 \xA74.1)",
        expectation: 'RFC 6455 \xA74.1: "the server might redirect the client using a 3xx status code (but clients are not required to follow them)". A client that follows it meets the same answer and must give up in the end.',
        statusLine: "HTTP/1.1 301 Moved Permanently",
        lines: (info) => [`Location: ws://${info.request.headers.get("host")?.[0] ?? "127.0.0.1"}${info.request.target}`, "Content-Length: 0"]
      }),
      mustRefuse({
        id: "14.1.5",
        description: "A 403 Forbidden response (with Content-Length: 0), then a text message. (RFC 6455 \xA74.1)",
        expectation: "RFC 6455 \xA74.1: a status other than 101 is handled per HTTP; the WebSocket handshake has not completed.",
        statusLine: "HTTP/1.1 403 Forbidden",
        lines: () => ["Content-Length: 0"]
      }),
      // RFC 6455 §4.1: "If the response lacks an |Upgrade| header field or the |Upgrade| header field
      // contains a value that is not an ASCII case-insensitive match for the value "websocket", the
      // client MUST _Fail the WebSocket Connection_."
      mustRefuse({
        id: "14.1.6",
        description: "A 101 response without an Upgrade header field (Connection and a correct Sec-WebSocket-Accept present), then a text message. (RFC 6455 \xA74.1)",
        expectation: "RFC 6455 \xA74.1: a response that lacks an Upgrade header field means the client MUST _Fail the WebSocket Connection_.",
        lines: (info) => ["Connection: Upgrade", `Sec-WebSocket-Accept: ${info.accept}`]
      }),
      // RFC 6455 §4.1: "If the response lacks a |Connection| header field or the |Connection| header
      // field doesn't contain a token that is an ASCII case-insensitive match for the value "Upgrade",
      // the client MUST _Fail the WebSocket Connection_."
      mustRefuse({
        id: "14.1.7",
        description: 'A 101 response with "Connection: keep-alive" (no Upgrade token), then a text message. (RFC 6455 \xA74.1)',
        expectation: 'RFC 6455 \xA74.1: a Connection header field without the token "Upgrade" means the client MUST _Fail the WebSocket Connection_.',
        lines: (info) => ["Upgrade: websocket", "Connection: keep-alive", `Sec-WebSocket-Accept: ${info.accept}`]
      })
    ];
    negotiationCases = [
      // RFC 6455 §4.1: "If the response includes a |Sec-WebSocket-Extensions| header field and this
      // header field indicates the use of an extension that was not present in the client's handshake
      // (the server has indicated an extension not requested by the client), the client MUST _Fail the
      // WebSocket Connection_."
      mustRefuse({
        id: "14.2.1",
        description: 'A valid 101 response that also says "Sec-WebSocket-Extensions: x-wsgate-not-offered", then a text message. (RFC 6455 \xA74.1)',
        expectation: "RFC 6455 \xA74.1: an extension in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.",
        lines: (info) => [...upgradeLines(info), "Sec-WebSocket-Extensions: x-wsgate-not-offered"]
      }),
      // RFC 6455 §4.1: "If the response includes a |Sec-WebSocket-Protocol| header field and this header
      // field indicates the use of a subprotocol that was not present in the client's handshake (the
      // server has indicated a subprotocol not requested by the client), the client MUST _Fail the
      // WebSocket Connection_."
      mustRefuse({
        id: "14.2.2",
        description: 'A valid 101 response that also says "Sec-WebSocket-Protocol: x-wsgate-not-offered", then a text message. (RFC 6455 \xA74.1)',
        expectation: "RFC 6455 \xA74.1: a subprotocol in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.",
        lines: (info) => [...upgradeLines(info), "Sec-WebSocket-Protocol: x-wsgate-not-offered"]
      }),
      mustRefuse({
        id: "14.2.3",
        description: "A valid 101 response that accepts permessage-deflate although the client offered no extension, then a text message. (RFC 6455 \xA74.1, RFC 7692 \xA75)",
        expectation: "RFC 6455 \xA74.1: an extension in the response that the client did not request means the client MUST _Fail the WebSocket Connection_.",
        needs: "no-deflate-offer",
        deflate: true,
        lines: (info) => [...upgradeLines(info), "Sec-WebSocket-Extensions: permessage-deflate"]
      })
    ];
    deflateParamCases2 = [
      deflateResponse("14.3.1", "x-wsgate-not-offered", "a parameter the client did not offer", "an extension parameter not defined for use in a response"),
      // RFC 7692 §7.1.2.1: the value of server_max_window_bits is a decimal integer from 8 to 15.
      deflateResponse(
        "14.3.2",
        "server_max_window_bits=7",
        "server_max_window_bits out of range",
        "an extension parameter with an invalid value (server_max_window_bits must be 8 to 15)"
      ),
      deflateResponse(
        "14.3.3",
        "client_max_window_bits=16",
        "client_max_window_bits out of range",
        "an extension parameter with an invalid value (client_max_window_bits must be 8 to 15)"
      ),
      deflateResponse(
        "14.3.4",
        "server_no_context_takeover; server_no_context_takeover",
        "a parameter given twice",
        "multiple extension parameters with the same name"
      )
    ];
    acceptCases = [
      // RFC 6455 §4.2.2: "At this point, the server may begin sending (and receiving) data." A client
      // reads the frames that follow the response in the same TCP segment.
      mustAccept({
        id: "14.4.1",
        description: "A valid 101 response and two messages (text, binary) in one TCP write. (RFC 6455 \xA74.2.2)",
        expectation: 'RFC 6455 \xA74.2.2: once the response is sent "the server may begin sending (and receiving) data"; frames in the segment of the response are data of the connection.',
        delivery: "together",
        response: (info) => head(SWITCHING, upgradeLines(info))
      }),
      // RFC 6455 §4.1: "The client MUST validate the server's response as follows" — on the response as a
      // byte stream, wherever TCP cuts it.
      mustAccept({
        id: "14.4.2",
        description: "A valid 101 response written one octet per TCP write, each after the previous one was flushed; then two messages. (RFC 6455 \xA74.1)",
        expectation: "RFC 6455 \xA74.1: the client validates the response, wherever TCP cuts it.",
        delivery: "bytewise",
        response: (info) => head(SWITCHING, upgradeLines(info))
      }),
      // RFC 6455 §4.1: "an ASCII case-insensitive match for the value "websocket"" / "a token that is an
      // ASCII case-insensitive match for the value "Upgrade""; RFC 7230 §3.2: "Each header field consists
      // of a case-insensitive field name followed by a colon".
      mustAccept({
        id: "14.4.3",
        description: 'A valid 101 response with header names and tokens in unusual letter case: "uPGRADE: WebSocket", "CONNECTION: UPGRADE", "sec-websocket-accept: ...". (RFC 6455 \xA74.1, RFC 7230 \xA73.2)',
        expectation: "RFC 6455 \xA74.1 matches Upgrade and Connection tokens ASCII case-insensitively; RFC 7230 \xA73.2 field names are case-insensitive.",
        delivery: "separate",
        response: (info) => head(SWITCHING, ["uPGRADE: WebSocket", "CONNECTION: UPGRADE", `sec-websocket-accept: ${info.accept}`])
      }),
      // RFC 7230 §3.2: "header-field = field-name ":" OWS field-value OWS" with §3.2.3 "OWS = *( SP /
      // HTAB )"; RFC 6455 §4.1 compares the Sec-WebSocket-Accept value "ignoring any leading and trailing
      // whitespace".
      mustAccept({
        id: "14.4.4",
        description: 'A valid 101 response with no space after one colon and runs of spaces around the other values: "Upgrade:websocket", "Connection:   Upgrade  ", "Sec-WebSocket-Accept:   ...  ". (RFC 7230 \xA73.2, RFC 6455 \xA74.1)',
        expectation: "RFC 7230 \xA73.2: optional whitespace (spaces or tabs) surrounds a field value; RFC 6455 \xA74.1 ignores leading and trailing whitespace of Sec-WebSocket-Accept.",
        delivery: "separate",
        response: (info) => head(SWITCHING, ["Upgrade:websocket", "Connection:   Upgrade  ", `Sec-WebSocket-Accept:   ${info.accept}  `])
      }),
      mustAccept({
        id: "14.4.5",
        description: 'A valid 101 response with a horizontal tab before and after every header value: "Upgrade:	websocket	", "Connection:	Upgrade	", "Sec-WebSocket-Accept:	...	". (RFC 7230 \xA73.2, RFC 6455 \xA74.1)',
        expectation: 'RFC 7230 \xA73.2.3: "OWS = *( SP / HTAB )"; a tab is whitespace like a space.',
        delivery: "separate",
        response: (info) => head(SWITCHING, ["Upgrade:	websocket	", "Connection:	Upgrade	", `Sec-WebSocket-Accept:	${info.accept}	`])
      }),
      // RFC 7230 §6.1: "Connection = 1#connection-option"; RFC 6455 §4.1 asks for "a token" matching
      // "Upgrade" in the field, not for the whole value.
      mustAccept({
        id: "14.4.6",
        description: 'A valid 101 response with "Connection: keep-alive, Upgrade". (RFC 7230 \xA76.1, RFC 6455 \xA74.1)',
        expectation: 'RFC 7230 \xA76.1: Connection is a list; RFC 6455 \xA74.1 asks for a token "Upgrade" in it.',
        delivery: "separate",
        response: (info) => head(SWITCHING, ["Upgrade: websocket", "Connection: keep-alive, Upgrade", `Sec-WebSocket-Accept: ${info.accept}`])
      }),
      // RFC 7230 §3.1.2: "A client SHOULD ignore the reason-phrase content." §3.2.1: "A proxy MUST forward
      // unrecognized header fields"; a recipient ignores the ones it does not know.
      mustAccept({
        id: "14.4.7",
        description: 'A valid 101 response with another reason phrase ("HTTP/1.1 101 Web Socket Protocol Handshake", as old servers sent it) and an unknown header field first. (RFC 7230 \xA73.1.2, RFC 6455 \xA74.1)',
        expectation: 'RFC 7230 \xA73.1.2: "A client SHOULD ignore the reason-phrase content"; unknown header fields carry no meaning for the handshake.',
        delivery: "separate",
        response: (info) => head("HTTP/1.1 101 Web Socket Protocol Handshake", [
          "X-Wsgate-Note: extra field",
          "Upgrade: websocket",
          "Connection: Upgrade",
          `Sec-WebSocket-Accept: ${info.accept}`
        ])
      })
    ];
    handshakeCases = [
      ...statusAndHeaderCases,
      ...negotiationCases,
      ...deflateParamCases2,
      ...acceptCases,
      ...inflateCases,
      ...closeReasonCases
    ];
  }
});

// src/cases/s15-server-handshake.ts
function changedRequest(normal, change) {
  const lines = [
    ["Host", normal.host],
    ["Upgrade", "websocket"],
    ["Connection", "Upgrade"],
    ["Sec-WebSocket-Key", normal.key],
    ["Sec-WebSocket-Version", "13"],
    ...(normal.headers ?? []).map(([n2, v]) => [n2, v])
  ];
  const changes = change.headers ?? {};
  const out = [`${change.method ?? "GET"} ${normal.target} HTTP/1.1`];
  for (const [name, value] of lines) {
    if (!(name in changes)) out.push(`${name}: ${value}`);
    else if (changes[name] !== null) out.push(`${name}: ${changes[name] ?? ""}`);
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value !== null && !lines.some(([n2]) => n2 === name)) out.push(`${name}: ${value}`);
  }
  return `${out.join("\r\n")}\r
\r
`;
}
function statusOf2(httpResponse) {
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(httpResponse ?? "");
  return m === null ? null : Number(m[1]);
}
function headerMatches(httpResponse, name, value) {
  return (httpResponse ?? "").split("\r\n").some((line) => {
    const colon = line.indexOf(":");
    return colon > 0 && line.slice(0, colon).trim().toLowerCase() === name && value.test(line.slice(colon + 1).trim());
  });
}
function mustRefuse2(spec) {
  return defineCase({
    id: spec.id,
    description: spec.description,
    expectation: spec.expectation,
    expect: {},
    close: failedByPeer([CloseCode.ProtocolError]),
    schedule: { maxSeconds: 6 },
    upgradeRequest: (normal) => changedRequest(normal, spec.change),
    // Opened (only possible where wsgate's own checks of the 101 passed): leave at once.
    run: (t) => t.sendClose(CloseCode.Normal),
    adjust: (_verdict, facts) => {
      const status = statusOf2(facts.httpResponse);
      if (status === 101) return judged(Behavior.Failed, "The server answered 101 Switching Protocols: it accepted a request it must refuse.");
      if (status === null)
        return judged(Behavior.NonStrict, "The server closed the connection without an HTTP response (RFC 6455 \xA74.2.1 asks for an error status, such as 400).");
      const problem = spec.check?.(facts) ?? null;
      if (problem !== null) return judged(Behavior.Failed, `The server refused with HTTP ${status}, but ${problem}.`, false);
      return judged(Behavior.Ok, `The server refused with HTTP ${status}.`);
    }
  });
}
function mustDecline(id, offer, what) {
  return defineCase({
    id,
    description: `An upgrade request offering "${offer}" (${what}), then a text message once open. (RFC 7692 \xA77)`,
    expectation: `RFC 7692 \xA77: the server MUST decline an offer with ${what}: it answers without permessage-deflate (and echoes the message), or refuses the handshake (NON-STRICT).`,
    expect: {},
    close: failedByPeer([CloseCode.Normal]),
    schedule: { maxSeconds: 6 },
    upgradeRequest: (normal) => changedRequest(normal, { headers: { "Sec-WebSocket-Extensions": offer } }),
    run: (t) => {
      if (t.deflateActive) t.setOutcome(Behavior.Failed, "The server accepted the offer (its response names permessage-deflate).");
      else t.setOutcome(Behavior.Ok, "The server declined the offer (its response has no permessage-deflate).");
      t.sendClose(CloseCode.Normal);
    },
    adjust: (verdict, facts) => {
      const status = statusOf2(facts.httpResponse);
      if (status === 101 && !facts.connectionWasOpen) {
        return judged(Behavior.Failed, "The server accepted the offer (its response names permessage-deflate).");
      }
      if (status !== 101)
        return judged(
          Behavior.NonStrict,
          status === null ? "The server closed the connection without a response instead of declining the offer." : `The server refused the handshake (HTTP ${status}) instead of declining the offer.`
        );
      return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: "Connection was properly closed" };
    }
  });
}
var judged, refusedRequests, declinedOffers, unmaskedFrame, serverHandshakeCases;
var init_s15_server_handshake = __esm({
  "src/cases/s15-server-handshake.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_define();
    judged = (behavior, result, established = behavior === Behavior.Failed) => ({
      behavior,
      result,
      behaviorClose: established ? CloseBehavior.Failed : CloseBehavior.Ok,
      resultClose: established ? "The server took the connection as established." : "The server did not establish the connection."
    });
    refusedRequests = [
      // RFC 6455 §4.4: "If this version does not match a version understood by the server, the server
      // MUST abort the WebSocket handshake described in Section 4 and instead send an appropriate HTTP
      // error code (such as 426 Upgrade Required) and a |Sec-WebSocket-Version| header field indicating
      // the version(s) the server is capable of understanding."
      mustRefuse2({
        id: "15.1.1",
        description: "An upgrade request with Sec-WebSocket-Version: 12. (RFC 6455 \xA74.4)",
        expectation: "RFC 6455 \xA74.4: for a version it does not understand the server MUST abort the handshake and send an HTTP error code (such as 426 Upgrade Required) and a Sec-WebSocket-Version header field naming the versions it understands (13).",
        change: { headers: { "Sec-WebSocket-Version": "12" } },
        check: (facts) => headerMatches(facts.httpResponse, "sec-websocket-version", /(^|[\s,])13($|[\s,])/) ? null : "the response has no Sec-WebSocket-Version header field naming 13 (RFC 6455 \xA74.4)"
      }),
      // RFC 6455 §4.2.1: "If the server, while reading the handshake, finds that the client did not send
      // a handshake that matches the description below [...], the server MUST stop processing the
      // client's handshake and return an HTTP response with an appropriate error code (such as 400 Bad
      // Request)." Item 5: "A |Sec-WebSocket-Key| header field with a base64-encoded [...] value that,
      // when decoded, is 16 bytes in length."
      mustRefuse2({
        id: "15.1.2",
        description: "An upgrade request without a Sec-WebSocket-Key header field. (RFC 6455 \xA74.2.1)",
        expectation: "RFC 6455 \xA74.2.1 item 5: a request without Sec-WebSocket-Key does not match the handshake, so the server MUST return an HTTP error (such as 400 Bad Request).",
        change: { headers: { "Sec-WebSocket-Key": null } }
      }),
      mustRefuse2({
        id: "15.1.3",
        description: 'An upgrade request whose Sec-WebSocket-Key decodes to 8 bytes, not 16 ("AAAAAAAAAAA="). (RFC 6455 \xA74.2.1)',
        expectation: "RFC 6455 \xA74.2.1 item 5: the key must decode to 16 bytes; otherwise the server MUST return an HTTP error (such as 400 Bad Request).",
        change: { headers: { "Sec-WebSocket-Key": "AAAAAAAAAAA=" } }
      }),
      // Item 6: "A |Sec-WebSocket-Version| header field, with a value of 13."
      mustRefuse2({
        id: "15.1.4",
        description: "An upgrade request without a Sec-WebSocket-Version header field. (RFC 6455 \xA74.2.1)",
        expectation: "RFC 6455 \xA74.2.1 item 6: a request without Sec-WebSocket-Version: 13 does not match the handshake, so the server MUST return an HTTP error.",
        change: { headers: { "Sec-WebSocket-Version": null } }
      }),
      // Item 3: "An |Upgrade| header field containing the value "websocket", treated as an ASCII
      // case-insensitive value."
      mustRefuse2({
        id: "15.1.5",
        description: 'An upgrade request whose Upgrade header field is "h2c" instead of "websocket". (RFC 6455 \xA74.2.1)',
        expectation: "RFC 6455 \xA74.2.1 item 3: without Upgrade: websocket the request does not match the handshake, so the server MUST return an HTTP error (or answer it as plain HTTP, never with a WebSocket 101).",
        change: { headers: { Upgrade: "h2c" } }
      }),
      // Item 1: "An HTTP/1.1 or higher GET request".
      mustRefuse2({
        id: "15.1.6",
        description: "An upgrade request with the method POST instead of GET. (RFC 6455 \xA74.2.1)",
        expectation: "RFC 6455 \xA74.2.1 item 1: the opening handshake is a GET request; a POST does not match it, so the server MUST return an HTTP error.",
        change: { method: "POST", headers: { "Content-Length": "0" } }
      })
    ];
    declinedOffers = [
      mustDecline("15.2.1", "permessage-deflate; no_such_parameter", "an extension parameter not defined for use in an offer"),
      mustDecline("15.2.2", "permessage-deflate; server_max_window_bits=7", "an extension parameter with an invalid value (window bits 7, below 8)"),
      mustDecline("15.2.3", "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "two extension parameters with the same name")
    ];
    unmaskedFrame = defineCase({
      id: "15.3.1",
      description: 'A text message "Hello, world!" in one frame that is not masked. (RFC 6455 \xA75.1)',
      expectation: "RFC 6455 \xA75.1: the server MUST close the connection upon receiving a frame that is not masked (it MAY send a close frame with 1002 first); it does not echo the message.",
      expect: { OK: [] },
      close: failedByPeer([CloseCode.ProtocolError]),
      schedule: { maxSeconds: 3 },
      run: (t) => {
        t.sendFrame({ opcode: Opcode.Text, payload: "Hello, world!", unmasked: true });
        t.killAfter(1);
      }
    });
    serverHandshakeCases = [...refusedRequests, ...declinedOffers, unmaskedFrame];
  }
});

// src/protocol/h2-connect.ts
var SETTINGS_ENABLE_CONNECT_PROTOCOL;
var init_h2_connect = __esm({
  "src/protocol/h2-connect.ts"() {
    "use strict";
    SETTINGS_ENABLE_CONNECT_PROTOCOL = 8;
  }
});

// src/protocol/h2-frames.ts
function h2ErrorName(code) {
  return `${H2_ERROR_NAMES[code] ?? "unknown error"} (0x${code.toString(16)})`;
}
var H2_PREFACE, H2_ERROR_NAMES;
var init_h2_frames = __esm({
  "src/protocol/h2-frames.ts"() {
    "use strict";
    H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
    H2_ERROR_NAMES = {
      0: "NO_ERROR",
      1: "PROTOCOL_ERROR",
      2: "INTERNAL_ERROR",
      3: "FLOW_CONTROL_ERROR",
      4: "SETTINGS_TIMEOUT",
      5: "STREAM_CLOSED",
      6: "FRAME_SIZE_ERROR",
      7: "REFUSED_STREAM",
      8: "CANCEL",
      9: "COMPRESSION_ERROR",
      10: "CONNECT_ERROR",
      11: "ENHANCE_YOUR_CALM",
      12: "INADEQUATE_SECURITY",
      13: "HTTP_1_1_REQUIRED"
    };
  }
});

// src/cases/h2-judging.ts
function orderlyEnd(verdict, facts) {
  const h2 = facts.h2;
  if (h2 === void 0 || !facts.connectionWasOpen || verdict.behaviorClose !== CloseBehavior.Ok && verdict.behaviorClose !== CloseBehavior.Unclean)
    return verdict;
  const fail = (behaviorClose, resultClose) => ({ ...verdict, behaviorClose, resultClose });
  if (h2.peerReset !== null && h2.peerReset !== CANCEL) {
    return fail(
      CloseBehavior.WrongCode,
      `The peer reset the stream with RST_STREAM ${h2ErrorName(h2.peerReset)}; RFC 8441 \xA75 ends a WebSocket with END_STREAM (an abort with RST_STREAM CANCEL).`
    );
  }
  if (h2.peerReset === CANCEL) {
    return fail(CloseBehavior.Unclean, "The peer reset the stream with RST_STREAM CANCEL (an abort, RFC 8441 \xA75) instead of ending it with END_STREAM.");
  }
  if (!h2.peerEnded) {
    return fail(
      CloseBehavior.Unclean,
      `The peer never ended its side of the stream with END_STREAM; wsgate reset it${h2.ownReset === null ? "" : ` (${h2ErrorName(h2.ownReset)})`} after waiting. RFC 8441 \xA75: the orderly closure is END_STREAM.`
    );
  }
  return verdict;
}
function failOutcome(t, why) {
  t.setOutcome(Behavior.Failed, why);
  t.record(timeout("h2-rule-broken"));
}
function patterned(n2) {
  const out = Buffer.alloc(n2);
  for (let i = 0; i < n2; i++) out[i] = i * 31 + (i >> 10) & 255;
  return out;
}
var CANCEL, H2_PROBE;
var init_h2_judging = __esm({
  "src/cases/h2-judging.ts"() {
    "use strict";
    init_h2_frames();
    init_verdicts();
    init_define();
    CANCEL = 8;
    H2_PROBE = "Hello, wsgate over HTTP/2";
  }
});

// src/cases/s16-h2-server.ts
function outcome(ok, result, close) {
  return { behavior: ok ? Behavior.Ok : Behavior.Failed, result, behaviorClose: close?.verdict ?? CloseBehavior.Ok, resultClose: close?.text ?? NOT_JUDGED };
}
function answerWords(a) {
  if (a.status !== null) return `answered :status ${a.status}`;
  if (a.reset !== null) return `reset the stream with RST_STREAM ${h2ErrorName(a.reset)}`;
  if (a.goaway !== null) return `ended the connection with GOAWAY ${h2ErrorName(a.goaway)}`;
  return a.closed ? "closed the connection without an answer" : "sent no answer in time";
}
async function withSession(s, count3, body) {
  const session = await s.connect();
  if (typeof session === "string") return outcome(false, `No HTTP/2 connection for WebSockets: ${session}.`);
  try {
    const opened = await Promise.all(Array.from({ length: count3 }, () => session.open()));
    const refused2 = opened.find((o) => typeof o === "string");
    if (refused2 !== void 0) return outcome(false, `An extended CONNECT on the connection was not answered 2xx: ${refused2}.`);
    return await body(opened);
  } finally {
    session.close();
  }
}
async function closeAll(ws) {
  const ends = await Promise.all(ws.map((w) => w.close()));
  const bad = ends.findIndex((e2) => !e2.peerEnded || e2.peerReset !== null);
  const e = ends[bad];
  if (e === void 0)
    return { verdict: CloseBehavior.Ok, text: `Each of the ${ws.length} streams ended with the server's END_STREAM after the closing handshake.` };
  const verdict = e.peerReset !== null && e.peerReset !== CANCEL ? CloseBehavior.WrongCode : CloseBehavior.Unclean;
  return {
    verdict,
    text: `Stream ${bad + 1} did not end with the server's END_STREAM (${e.peerReset === null ? "none came" : `RST_STREAM ${h2ErrorName(e.peerReset)}`}); RFC 8441 \xA75: the orderly closure is END_STREAM.`
  };
}
var NOT_JUDGED, settingsCases, closeCase, sessionCases, WINDOWED, streamCases, h2ServerCases;
var init_s16_h2_server = __esm({
  "src/cases/s16-h2-server.ts"() {
    "use strict";
    init_constants();
    init_h2_connect();
    init_h2_frames();
    init_verdicts();
    init_define();
    init_h2_judging();
    NOT_JUDGED = "Not judged: the case opens no single WebSocket to close.";
    settingsCases = [
      // RFC 8441 §3: "Upon receipt of SETTINGS_ENABLE_CONNECT_PROTOCOL with a value of 1, a client MAY
      // use the Extended CONNECT as defined in this document when creating new streams." §3: "A sender
      // MUST NOT send a SETTINGS_ENABLE_CONNECT_PROTOCOL parameter with the value of 0 after previously
      // sending a value of 1." A server that takes WebSockets over HTTP/2 says so in its SETTINGS.
      defineCase({
        id: "16.1.1",
        description: "Opens an HTTP/2 connection (preface and an empty SETTINGS) and reads the server's first SETTINGS; sends no request. (RFC 8441 \xA73)",
        expectation: "RFC 8441 \xA73: the server's SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL (0x8) = 1; without it a client must not send an extended CONNECT.",
        expect: {},
        close: closedByMe(),
        run() {
        },
        h2: {
          async session(s) {
            const a = await s.probe({ send: false });
            if (a.settings === null) return outcome(false, `The server sent no SETTINGS (it ${answerWords(a)}).`);
            const value = a.settings.get(SETTINGS_ENABLE_CONNECT_PROTOCOL);
            if (value === 1) return outcome(true, "The server's SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL = 1.");
            return outcome(
              false,
              `The server's SETTINGS ${value === void 0 ? "do not carry SETTINGS_ENABLE_CONNECT_PROTOCOL" : `carry SETTINGS_ENABLE_CONNECT_PROTOCOL = ${value}`}: a client may not open a WebSocket over HTTP/2 with it (RFC 8441 \xA73).`
            );
          }
        }
      }),
      // RFC 8441 §5: "Implementations using this extended CONNECT to bootstrap WebSockets do not do the
      // processing of the Sec-WebSocket-Key and Sec-WebSocket-Accept request and response header fields
      // of [RFC6455] ..." and "the server ... responds with a 2xx series status code" ("A 2xx series
      // status code ... is the equivalent of the 101 status code"); RFC 9113 §8.6: "HTTP/2 removes support
      // for the 101 (Switching Protocols) informational status code".
      defineCase({
        id: "16.1.2",
        description: "Sends an extended CONNECT (:method CONNECT, :protocol websocket, :scheme, :path, :authority, Sec-WebSocket-Version 13) with no Sec-WebSocket-Key, and reads the answer. (RFC 8441 \xA74, \xA75)",
        expectation: "RFC 8441 \xA75: the server answers a 2xx status (the equivalent of 101 over HTTP/1.1), without asking for a Sec-WebSocket-Key; RFC 9113 \xA78.6: HTTP/2 has no 101.",
        expect: {},
        close: closedByMe(),
        run() {
        },
        h2: {
          async session(s) {
            const a = await s.probe({ send: true });
            if (a.status !== null && a.status >= 200 && a.status < 300) return outcome(true, `The server answered :status ${a.status}.`);
            const hint = a.status === 101 ? " (101 Switching Protocols does not exist in HTTP/2, RFC 9113 \xA78.6)" : "";
            return outcome(false, `The server ${answerWords(a)}${hint} where RFC 8441 \xA75 asks for a 2xx status.`);
          }
        }
      }),
      // RFC 8441 §4: "On requests that contain the :protocol pseudo-header field, the :scheme and :path
      // pseudo-header fields of the target URI (see Section 5) MUST also be included." RFC 9113 §8.1.1: a
      // malformed request is treated as a stream error of type PROTOCOL_ERROR (or answered 4xx).
      defineCase({
        id: "16.1.3",
        description: "Sends an extended CONNECT without the :scheme pseudo-header field (every other field as in 16.1.2), in wsgate's own frames. (RFC 8441 \xA74)",
        expectation: "RFC 8441 \xA74: :scheme MUST be included with :protocol; the malformed request is refused (RST_STREAM PROTOCOL_ERROR, a 4xx, or a connection error), never answered 2xx.",
        expect: {},
        close: closedByMe(),
        run() {
        },
        h2: {
          async session(s) {
            const a = await s.probe({ send: true, omit: [":scheme"] });
            if (a.status !== null && a.status >= 200 && a.status < 300)
              return outcome(false, `The server accepted an extended CONNECT without :scheme: it answered :status ${a.status}.`);
            if (a.status === null && a.reset === null && a.goaway === null && !a.closed)
              return outcome(false, "The server neither answered nor refused an extended CONNECT without :scheme in time.");
            return outcome(true, `The server refused it: it ${answerWords(a)}.`);
          }
        }
      })
    ];
    closeCase = defineCase({
      // RFC 8441 §5: "the orderly TCP-level closures are represented as END_STREAM flags"; RFC 6455
      // §7.1.1: after the closing handshake the server closes the connection first.
      id: "16.1.4",
      description: `Sends a text message ("${H2_PROBE}"), then a close frame once it is echoed. (RFC 8441 \xA75)`,
      expectation: "RFC 8441 \xA75: the server echoes the message, answers the close frame, and ends its side of the stream with END_STREAM (no RST_STREAM).",
      expect: { OK: [message(H2_PROBE)] },
      close: closedByMe(),
      run(t) {
        t.sendMessage(H2_PROBE);
      },
      adjust: orderlyEnd
    });
    sessionCases = [
      // RFC 8441 §1: "... allowing WebSockets to share an HTTP/2 connection with other streams"; RFC 9113
      // §5: "A single HTTP/2 connection can contain multiple concurrently open streams ... Streams can be
      // established and used unilaterally" and frames of several streams interleave.
      defineCase({
        id: "16.1.5",
        description: "Opens three WebSockets on one HTTP/2 connection, sends three text messages on each, interleaved (stream 1, 2, 3, 1, 2, 3, ...), then closes each. (RFC 8441 \xA71, RFC 9113 \xA75)",
        expectation: "Each message comes back on its own stream, in order, and each stream ends with END_STREAM after its closing handshake.",
        expect: {},
        close: closedByMe(),
        run() {
        },
        h2: {
          session: (s) => withSession(s, 3, async (ws) => {
            for (let i = 1; i <= 3; i++) for (const [k, w] of ws.entries()) w.sendText(`stream ${k + 1} message ${i}`);
            for (const [k, w] of ws.entries()) {
              for (let i = 1; i <= 3; i++) {
                const got = await w.nextText(5e3);
                if (got !== `stream ${k + 1} message ${i}`)
                  return outcome(
                    false,
                    `WebSocket ${k + 1} of 3 on the connection answered ${got === null ? "nothing" : JSON.stringify(got.slice(0, 60))} where "stream ${k + 1} message ${i}" was due.`
                  );
              }
            }
            return outcome(true, "Each of the three WebSockets echoed its own three messages, in order.", await closeAll(ws));
          })
        }
      }),
      // RFC 8441 §5: "RST exceptions are represented with the RST_STREAM frame with the CANCEL error
      // code"; RFC 9113 §5.4.2: a stream error "does not affect the processing of other streams".
      defineCase({
        id: "16.1.6",
        description: "Opens a WebSocket, has a message echoed, resets its stream with RST_STREAM CANCEL (an abort); then opens a second WebSocket on the same HTTP/2 connection and has a message echoed there. (RFC 8441 \xA75)",
        expectation: "RFC 8441 \xA75: CANCEL aborts that WebSocket only: the HTTP/2 connection stays usable, and the second WebSocket works and closes with END_STREAM.",
        expect: {},
        close: closedByMe(),
        run() {
        },
        h2: {
          async session(s) {
            const session = await s.connect();
            if (typeof session === "string") return outcome(false, `No HTTP/2 connection for WebSockets: ${session}.`);
            try {
              const first = await session.open();
              if (typeof first === "string") return outcome(false, `The first extended CONNECT was not answered 2xx: ${first}.`);
              first.sendText("before the abort");
              if (await first.nextText(5e3) !== "before the abort") return outcome(false, "The first WebSocket did not echo its message.");
              first.reset(CANCEL);
              const second = await session.open();
              if (typeof second === "string")
                return outcome(false, `After wsgate reset a stream with CANCEL, a new extended CONNECT on the connection failed: ${second}.`);
              second.sendText("after the abort");
              const got = await second.nextText(5e3);
              if (got !== "after the abort")
                return outcome(
                  false,
                  `After wsgate reset a stream with CANCEL, a new WebSocket on the connection answered ${got === null ? "nothing" : JSON.stringify(got.slice(0, 60))}.`
                );
              return outcome(true, "After the abort, a second WebSocket on the same connection echoed its message.", await closeAll([second]));
            } finally {
              session.close();
            }
          }
        }
      })
    ];
    WINDOWED = patterned(1024 * 1024);
    streamCases = [
      // RFC 8441 §5: "... the data is transmitted in DATA frames" under HTTP/2's flow control; RFC 9113
      // §6.9.1: "A sender MUST NOT send a flow-controlled frame with a length that exceeds the space
      // available in either of the flow-control windows advertised by the receiver."
      defineCase({
        id: "16.1.7",
        description: "Advertises a 16 KiB stream window (SETTINGS_INITIAL_WINDOW_SIZE 16384), sends a 1 MiB binary message, and waits for its echo. (RFC 8441 \xA75, RFC 9113 \xA76.9)",
        expectation: "RFC 9113 \xA76.9.1: the server sends the echo within wsgate's windows (64 of them, each opened by a WINDOW_UPDATE), and it comes back whole.",
        expect: { OK: [message(WINDOWED, true)] },
        close: closedByMe(),
        schedule: { cost: 0.3 },
        h2: { settings: { initialWindowSize: 16384 } },
        run(t) {
          t.sendMessage(WINDOWED, { binary: true });
        },
        adjust: orderlyEnd
      }),
      // RFC 8441 §5: the WebSocket's frames are the stream's data; its ping is "handled by the WebSocket
      // layer", apart from HTTP/2's own PING (RFC 9113 §6.7: "Receivers of a PING frame that does not
      // include an ACK flag MUST send a PING frame with the ACK flag set in response, with an identical
      // frame payload").
      defineCase({
        id: "16.1.8",
        description: 'Sends a WebSocket ping ("wsgate ping") on the stream and an HTTP/2 PING (8 bytes) on the connection at the same time. (RFC 8441 \xA75, RFC 9113 \xA76.7)',
        expectation: "Each is answered on its own layer: a pong with the same payload on the stream, a PING with ACK and the same 8 bytes on the connection.",
        expect: { OK: [pong("wsgate ping")] },
        close: closedByMe(),
        suppressClose: true,
        async run(t) {
          t.sendFrame({ opcode: Opcode.Ping, payload: "wsgate ping" });
          const acked = await t.h2?.ping(Buffer.from("wsgate16"), 2e3) === true;
          if (!acked) failOutcome(t, "The HTTP/2 PING got no ACK with the same 8 bytes within 2 s.");
          await t.pause(0.2);
          t.sendClose(1e3);
        },
        adjust: orderlyEnd
      })
    ];
    h2ServerCases = [...settingsCases, closeCase, ...sessionCases, ...streamCases];
  }
});

// src/cases/s16-h2-client.ts
function requestFault(h2) {
  const f = h2.peerFields;
  const scheme = h2.secure ? "https" : "http";
  if (f[":method"] !== "CONNECT") return `its :method is ${JSON.stringify(f[":method"] ?? "")}, not CONNECT`;
  if (f[":protocol"] !== "websocket") return `its :protocol is ${JSON.stringify(f[":protocol"] ?? "")}, not websocket`;
  if (f[":scheme"] !== scheme)
    return `its :scheme is ${JSON.stringify(f[":scheme"] ?? "")} on a connection ${h2.secure ? "over TLS" : "without TLS"} (${scheme} expected)`;
  if (!(f[":path"] ?? "").startsWith("/")) return `its :path ${JSON.stringify(f[":path"] ?? "")} is not a path`;
  if ((f[":authority"] ?? "") === "") return "it has no :authority";
  if (f["sec-websocket-version"] !== "13") return `its sec-websocket-version is ${JSON.stringify(f["sec-websocket-version"] ?? "")}, not 13`;
  return null;
}
function h2Of(t) {
  const h2 = t.h2 ?? null;
  if (h2 === null) t.setOutcome(Behavior.Unimplemented, "The case needs a WebSocket over HTTP/2 (--http2).");
  return h2;
}
var LARGE, cases, h2ClientCases;
var init_s16_h2_client = __esm({
  "src/cases/s16-h2-client.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_define();
    init_h2_judging();
    LARGE = patterned(1024 * 1024);
    cases = [
      // RFC 8441 §4: "A new pseudo-header field :protocol MAY be included on request HEADERS indicating
      // the desired protocol to be spoken on the tunnel created by CONNECT." "On requests that contain
      // the :protocol pseudo-header field, the :scheme and :path pseudo-header fields of the target URI
      // (see Section 5) MUST also be included." §5: ":protocol ... MUST be "websocket"", and
      // "Sec-WebSocket-Version ... MUST be included as in RFC 6455".
      defineCase({
        id: "16.2.1",
        description: `Reads the client's extended CONNECT, answers 200, and sends a text message ("${H2_PROBE}"). (RFC 8441 \xA74, \xA75)`,
        expectation: "RFC 8441 \xA74, \xA75: the request carries :method CONNECT, :protocol websocket, the :scheme of the connection (http, or https over TLS), a :path, an :authority, and sec-websocket-version 13; the client echoes the message.",
        expect: { OK: [message(H2_PROBE)] },
        close: closedByMe(),
        run(t) {
          const h2 = h2Of(t);
          const fault = h2 === null ? null : requestFault(h2);
          if (fault !== null) failOutcome(t, `The client's extended CONNECT is not RFC 8441's: ${fault}.`);
          t.sendMessage(H2_PROBE);
        }
      }),
      // RFC 8441 §5: "Implementations using this extended CONNECT to bootstrap WebSockets do not do the
      // processing of the Sec-WebSocket-Key and Sec-WebSocket-Accept request and response header fields
      // of [RFC6455] as that functionality has been superseded by the :protocol pseudo-header field."
      defineCase({
        id: "16.2.2",
        description: `Answers the extended CONNECT with :status 200 and no Sec-WebSocket-Accept field, then sends a text message ("${H2_PROBE}"). (RFC 8441 \xA75)`,
        expectation: "RFC 8441 \xA75: a 2xx opens the WebSocket; there is no Sec-WebSocket-Accept to check, so the client takes the connection and echoes the message.",
        expect: { OK: [message(H2_PROBE)] },
        close: closedByMe(),
        run(t) {
          h2Of(t);
          t.sendMessage(H2_PROBE);
        }
      }),
      // RFC 8441 §5: "the orderly TCP-level closures are represented as END_STREAM flags"; the client
      // answers the server's END_STREAM with its own, as a TCP endpoint answers a FIN (RFC 6455 §7.1.1:
      // "the server SHOULD close it first").
      defineCase({
        id: "16.2.3",
        description: `Sends a text message ("${H2_PROBE}"), a close frame once it is echoed, and after the client's close frame ends its side of the stream (END_STREAM). (RFC 8441 \xA75)`,
        expectation: "RFC 8441 \xA75: the client answers the close frame and then ends its own side with END_STREAM: no RST_STREAM, no half-open stream left.",
        expect: { OK: [message(H2_PROBE)] },
        close: closedByMe(),
        run(t) {
          h2Of(t);
          t.sendMessage(H2_PROBE);
        },
        adjust: orderlyEnd
      }),
      // RFC 8441 §5: the WebSocket's data travels in DATA frames under HTTP/2's flow control; RFC 9113
      // §6.9: "flow control ... is used for both individual streams and the connection as a whole"; the
      // receiver opens its windows with WINDOW_UPDATE as it reads.
      defineCase({
        id: "16.2.4",
        description: "Sends a 1 MiB binary message (sixteen of HTTP/2's default 64 KiB windows). (RFC 8441 \xA75, RFC 9113 \xA76.9)",
        expectation: "RFC 9113 \xA76.9: the client opens its windows with WINDOW_UPDATE as it reads, so the message arrives whole, and echoes it within wsgate's windows.",
        expect: { OK: [message(LARGE, true)] },
        close: closedByMe(),
        schedule: { cost: 0.3 },
        run(t) {
          h2Of(t);
          t.sendMessage(LARGE, { binary: true });
        }
      }),
      // RFC 9113 §6.7: "Receivers of a PING frame that does not include an ACK flag MUST send a PING
      // frame with the ACK flag set in response, with an identical frame payload." The WebSocket's ping
      // is the stream's (RFC 6455 §5.5.2): the two do not stand for each other.
      defineCase({
        id: "16.2.5",
        description: 'Sends a WebSocket ping ("wsgate ping") on the stream and an HTTP/2 PING (8 bytes) on the connection at the same time. (RFC 8441 \xA75, RFC 9113 \xA76.7)',
        expectation: "Each is answered on its own layer: a pong with the same payload on the stream, a PING with ACK and the same 8 bytes on the connection.",
        expect: { OK: [pong("wsgate ping")] },
        close: closedByMe(),
        suppressClose: true,
        async run(t) {
          const h2 = h2Of(t);
          t.sendFrame({ opcode: Opcode.Ping, payload: "wsgate ping" });
          const acked = await h2?.ping(Buffer.from("wsgate16"), 2e3) === true;
          if (h2 !== null && !acked) failOutcome(t, "The HTTP/2 PING got no ACK with the same 8 bytes within 2 s.");
          await t.pause(0.2);
          t.sendClose(1e3);
        }
      })
    ];
    h2ClientCases = cases;
  }
});

// src/robustness/data/attacks.ts
var ServerAdvisories, ServerBudgets;
var init_attacks = __esm({
  "src/robustness/data/attacks.ts"() {
    "use strict";
    ServerAdvisories = {
      wsProtocolRegex: {
        id: "CVE-2021-32640 (GHSA-6fc8-4gx4-v693)",
        what: "ws before 7.4.6 split Sec-WebSocket-Protocol with / *, */: a value of many spaces between two tokens ('b' + ' '.repeat(n) + 'x') takes time quadratic in n"
      },
      extensionsRegex: {
        id: "CVE-2020-7662 (GHSA-g78m-2chm-r7qv)",
        what: 'websocket-extensions before 0.1.4 (npm; the Ruby gem before 0.1.5: CVE-2020-7663): an unclosed quoted parameter value of repeated backslash pairs (a; b="\\c\\c\\c...) makes its parser backtrack'
      },
      wsHeaderCount: {
        id: "CVE-2024-37890 (GHSA-3h5v-q93c-6h6q)",
        what: "ws before 8.17.1 (7.5.10, 6.2.3, 5.2.4): a request with more header lines than Node's server.maxHeadersCount (2,000) crashed the server (the upgrade headers past the limit are dropped, and ws read a missing one)"
      },
      obsTextValues: {
        id: "http-rs/async-h1#187",
        what: "a server panicked on a request header value with bytes above 0x7f (obs-text, RFC 9110 \xA75.5); Deno (denoland/deno#32594) panicked the same way on such a Sec-WebSocket-Protocol in a 101"
      },
      wsPrototypeNames: {
        id: "GHSA-5v72-xg48-5rpm",
        what: 'ws before 3.3.1 (1.1.5): Sec-WebSocket-Extensions naming an extension or parameter after an Object.prototype property ("constructor") crashed the server'
      },
      gorillaLength: {
        id: "CVE-2020-27813 (GHSA-jf24-p9p9-4rjh)",
        what: "gorilla/websocket before 1.4.1: frame lengths whose sum overflows passed its read limit; a 64-bit length must have its top bit clear (RFC 6455 \xA75.2)"
      },
      declaredGigabyte: {
        id: "TooTallNate/Java-WebSocket#1507",
        what: "Java-WebSocket allocated a frame's declared payload (up to 2 GiB) from its 14-byte header, before reading a byte of it"
      }
    };
    ServerBudgets = {
      /** The longest any handshake answer may take, whatever the size of the request (ms). */
      answerMs: 1e3,
      /** Growth of the answer time under this many ms over the base is noise on a shared machine, whatever its shape. */
      growthFloorMs: 25,
      /**
       * Super-linear growth: the time over the base at the largest size exceeds this many times what
       * linear growth from the quarter size gives (quadratic growth gives 4 for 4× the size: twice 2).
       */
      growthSlack: 2,
      /** Sizes a growth attack tries, in bytes, until the HTTP layer refuses one. */
      growthSizes: [1e3, 2e3, 4e3, 8e3, 16e3, 32e3, 64e3, 128e3, 256e3, 512e3, 1048576],
      /** How long the server has to fail the connection after a frame header it must refuse (ms). */
      refuseAtHeaderMs: 2e3,
      /** How long the server has to answer or drop a request it must survive (ms). */
      survivesMs: 3e3,
      /**
       * The payload written after a header declaring 1 GiB: 1 KiB every 100 ms for 5 s. A server that
       * refuses at the header has closed long before; one that reads it all never refused it.
       */
      trickle: { pieceBytes: 1024, everyMs: 100, totalBytes: 50 * 1024 }
    };
  }
});

// src/model/figures.ts
function budgetFigure(name, label, value, unit, budget) {
  return { name, label, value, unit, budget, over: value > budget };
}
function statedFigure(name, label, value, unit) {
  return { name, label, value, unit, budget: null, over: false };
}
var init_figures = __esm({
  "src/model/figures.ts"() {
    "use strict";
  }
});

// src/cases/judgement.ts
var init_judgement = __esm({
  "src/cases/judgement.ts"() {
    "use strict";
    init_figures();
  }
});

// src/cases/data/budgets.ts
function scaledS(seconds2, budgets) {
  return seconds2 * budgets.timeScale;
}
function scaledMs(ms, budgets) {
  return Math.round(ms * budgets.timeScale);
}
var DEFAULT_BUDGETS, MEMORY_GROWTH;
var init_budgets = __esm({
  "src/cases/data/budgets.ts"() {
    "use strict";
    DEFAULT_BUDGETS = {
      timeScale: 1,
      messageLimit: 100 * 1024 * 1024,
      // The bundled ws client, holding a message at its 100 MiB limit before it refuses the bomb of 18.2.2
      // (16 fragments), grew by 260-291 MiB over five runs (18.2.1, one frame: 196-205 MiB): twice that.
      memoryGrowth: 512 * 1024 * 1024,
      stallMs: 1e5
    };
    MEMORY_GROWTH = {
      /** A handshake, a refused frame header, a stall, a flood of control frames: about nothing. */
      small: 32 * 1024 * 1024,
      /** A few MiB of valid messages echoed (17.2.6, 18.3.7: 3 MB before the random bytes; undici 6.24.0 grew by 30-35 MiB on them). */
      messages: 64 * 1024 * 1024,
      /** 1 MiB of one-byte fragments: 64 bytes a fragment (ws 8.20.1 keeps about 150, GHSA-96hv-2xvq-fx4p; 8.23.0 grows 5-8 MiB refusing them). */
      fragments: 64 * 1024 * 1024,
      /**
       * A 16 MiB message held with its echo, which cannot leave: a few copies of it (its fragments, the
       * message, the echo queued); the bundled ws client grew 66 MiB.
       */
      echo: 128 * 1024 * 1024,
      /**
       * Requests read while their answers could not leave (17.5.5): a fixed server reads about 100,000
       * before the kernel's buffers fill and it stops, and grows by it (Node.js 12.8.1: 58 MiB, the
       * bundled server on Node.js 20.20: 91 MiB): about twice that. 12.8.0, reading on, grew 155-172 MiB
       * (it fails on the answers it held).
       */
      answers: 192 * 1024 * 1024
    };
  }
});

// src/robustness/own-figures.ts
function judgedFigure(name, label, value, unit, budget, over) {
  return { ...budgetFigure(name, label, value, unit, budget), over };
}
function echoedFigure(length, limit) {
  const label = "the peer echoed a message of";
  return limit === void 0 ? statedFigure("echoed-bytes", label, length, "bytes") : budgetFigure("echoed-bytes", label, length, "bytes", limit);
}
function withOwnFigures(facts, adjusted) {
  const own = facts.outcomeFigures ?? [];
  if (own.length === 0) return adjusted;
  return { ...adjusted, figures: [...adjusted.figures ?? [], ...own] };
}
function ownFiguresOnly(verdict, facts) {
  return withOwnFigures(facts, verdict);
}
var init_own_figures = __esm({
  "src/robustness/own-figures.ts"() {
    "use strict";
    init_judgement();
  }
});

// src/robustness/attack-judges.ts
function count(n2) {
  return n2.toLocaleString("en-US");
}
function millis(ms) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${count(Math.round(ms))} ms`;
}
function attackVerdict(behavior, result, figures = []) {
  return { behavior, result, behaviorClose: CloseBehavior.Ok, resultClose: "The attack does not judge the closing handshake.", figures };
}
function probeFigureName(name, index, probes) {
  return probes === 1 ? name : `probe-${index + 1}-${name}`;
}
function answerText(p) {
  if (p.status !== null) return `HTTP ${p.status} after ${millis(p.answerMs ?? 0)}`;
  if (p.ending === "refused") return "no connection (refused)";
  if (p.ending === "timeout") return "no answer";
  return `a dropped connection (${p.ending === "reset" ? "reset" : "closed"}) with no answer`;
}
function unanswered(probes) {
  return probes.find((p) => p.status === null && (p.ending === "timeout" || p.ending === "refused"));
}
function judgeGrowth(header, facts, budgets = DEFAULT_BUDGETS) {
  const b = { ...ServerBudgets, answerMs: scaledMs(ServerBudgets.answerMs, budgets) };
  const { base, largest, quarter } = facts;
  const hung = unanswered(facts.probes);
  if (hung !== void 0)
    return attackVerdict(Behavior.Failed, `${header} of ${count(hung.size)} bytes: ${answerText(hung)} within ${millis(hung.waitMs)}.`, [
      statedFigure("unanswered-bytes", `the size of ${header} no answer came for`, hung.size, "bytes"),
      statedFigure("wait-ms", "wsgate waited for the answer", hung.waitMs, "ms")
    ]);
  const slowestDrop = facts.probes.filter(droppedProbe).reduce((w, p) => dropMs(p) > (w === null ? -1 : dropMs(w)) ? p : w, null);
  const dropFigures = slowestDrop === null ? [] : [
    budgetFigure("slowest-drop-ms", "the slowest connection dropped with no answer was dropped after", dropMs(slowestDrop), "ms", b.answerMs),
    statedFigure("slowest-drop-bytes", `the size of ${header} dropped slowest`, slowestDrop.size, "bytes")
  ];
  if (slowestDrop !== null && dropMs(slowestDrop) > b.answerMs)
    return attackVerdict(
      Behavior.Failed,
      `The server dropped the connection with no answer to ${header} of ${count(slowestDrop.size)} bytes only ${millis(dropMs(slowestDrop))} after it began (budget ${millis(b.answerMs)}): refusing it cost that long, answered or not.`,
      dropFigures
    );
  if (largest === null || base === null)
    return attackVerdict(
      Behavior.Informational,
      slowestDrop === null ? `The server's HTTP layer refused every size of ${header} (from ${count(facts.cap ?? 0)} bytes): nothing to measure.` : `The server refused every size of ${header} up to ${count(Math.max(...facts.probes.map((p) => p.size)))} bytes, each within ${millis(dropMs(slowestDrop))} (budget ${millis(b.answerMs)}): no answer to time beyond that.`,
      [...facts.cap === null ? [] : [statedFigure("cap-bytes", `the smallest size of ${header} the HTTP layer refused`, facts.cap, "bytes")], ...dropFigures]
    );
  const cap = facts.cap === null ? `it took every size up to ${count(largest.size)} bytes` : `its HTTP layer refused ${count(facts.cap)} bytes`;
  const told = `${sized(largest, header)}${quarter === null ? "" : `, ${count(quarter.size)} bytes in ${millis(quarter.ms)}`}, ${count(base.size)} byte${base.size === 1 ? "" : "s"} in ${millis(base.ms)}; ${cap}`;
  const figures = [...sizedFigures(header, facts)];
  const slowest = facts.probes.reduce((w, p) => p.answerMs !== null && p.answerMs > (w?.answerMs ?? -1) ? p : w, null);
  if (slowest !== null)
    figures.push(
      budgetFigure("slowest-answer-ms", "the slowest answer came after", slowest.answerMs ?? 0, "ms", b.answerMs),
      statedFigure("slowest-size-bytes", `the size of ${header} answered slowest`, slowest.size, "bytes")
    );
  if (slowest !== null && (slowest.answerMs ?? 0) > b.answerMs) {
    return attackVerdict(
      Behavior.Failed,
      `Answered ${header} of ${count(slowest.size)} bytes after ${millis(slowest.answerMs ?? 0)} (budget ${millis(b.answerMs)}): ${told}.`,
      figures
    );
  }
  const growth2 = quarter === null ? null : growthFigure(base, largest, quarter);
  if (growth2 !== null) figures.push(growth2);
  if (growth2?.over === true && quarter !== null)
    return attackVerdict(
      Behavior.Failed,
      `The answer time grew super-linearly with ${header}'s size: ${superLinear(base, largest, quarter)}; ${told}.`,
      figures
    );
  return attackVerdict(Behavior.Ok, `The answer time stayed within ${millis(b.answerMs)} and grew no faster than the size: ${told}.`, figures);
}
function sized(t, header) {
  return `answered ${count(t.size)} bytes of ${header} in ${millis(t.ms)}`;
}
function* sizedFigures(header, facts) {
  const points = [
    ["largest", "the largest size answered", facts.largest],
    ["quarter", "the size nearest a quarter of it", facts.quarter],
    ["base", "a small value", facts.base]
  ];
  for (const [name, what, t] of points) {
    if (t === null) continue;
    yield statedFigure(`${name}-bytes`, `${what}: bytes of ${header}`, t.size, "bytes");
    yield statedFigure(`${name}-ms`, `${what}: answered in`, t.ms, "ms");
  }
  if (facts.cap !== null) yield statedFigure("cap-bytes", `the smallest size of ${header} the HTTP layer refused`, facts.cap, "bytes");
}
function growthFigure(base, largest, quarter) {
  const b = ServerBudgets;
  const before = Math.max(quarter.ms - base.ms, 1);
  const allowed = Math.max(b.growthFloorMs, b.growthSlack * (largest.size / quarter.size) * before);
  return budgetFigure("growth-ms", "the largest size's answer time over a small value's", largest.ms - base.ms, "ms", allowed);
}
function superLinear(base, largest, quarter) {
  const b = ServerBudgets;
  const over = largest.ms - base.ms;
  const ratio = largest.size / quarter.size;
  const before = Math.max(quarter.ms - base.ms, 1);
  return `${(over / before).toFixed(1)}\xD7 the time over a small value's for ${ratio.toFixed(1)}\xD7 the size (linear growth: ${ratio.toFixed(1)}\xD7; failing beyond ${(b.growthSlack * ratio).toFixed(1)}\xD7 and ${millis(b.growthFloorMs)})`;
}
function judgeSurvives(probes, budgets = DEFAULT_BUDGETS) {
  const told = probes.map((p) => `${p.label}: ${answerText(p)}`).join("; ");
  const budget = scaledMs(ServerBudgets.survivesMs, budgets);
  const hung = unanswered(probes);
  const figures = probes.flatMap((p, i) => {
    const name = (n2) => probeFigureName(n2, i, probes.length);
    if (p === hung) return [judgedFigure(name("wait-ms"), `${p.label}: wsgate waited for an answer`, p.waitMs, "ms", budget, true)];
    if (p.status === null) return [];
    return [judgedFigure(name("answer-ms"), `${p.label}: the server answered after`, p.answerMs ?? 0, "ms", budget, false)];
  });
  if (hung !== void 0) return attackVerdict(Behavior.Failed, `${hung.label}: ${answerText(hung)} within ${millis(hung.waitMs)}. (${told})`, figures);
  if (probes.some((p) => p.status === null))
    return attackVerdict(
      Behavior.NonStrict,
      `The server dropped the connection without an HTTP answer (RFC 6455 \xA74.2.1 asks for an error status such as 400): ${told}.`,
      figures
    );
  return attackVerdict(Behavior.Ok, `The server answered: ${told} (budget ${millis(budget)}).`, figures);
}
function judgeRefusedAtHeader(probes, budgets = DEFAULT_BUDGETS) {
  const budget = scaledMs(ServerBudgets.refuseAtHeaderMs, budgets);
  const parts = [];
  const figures = [];
  let worst = Behavior.Ok;
  probes.forEach((p, i) => {
    const [behavior, text] = refusal(p, budget);
    parts.push(`${p.label}: ${text}`);
    figures.push(...refusalFigures(p, budget, (n2) => probeFigureName(n2, i, probes.length)));
    if (rank(behavior) > rank(worst)) worst = behavior;
  });
  return attackVerdict(worst, `${parts.join("; ")} (budget ${millis(budget)}).`, figures);
}
function refusal(p, budget) {
  if (p.status !== 101) return [Behavior.Informational, `the opening handshake was not accepted (${answerText(p)}): the frame was never sent`];
  const read = p.trickled > 0 ? ` after reading ${count(p.trickled)} payload bytes` : "";
  if (p.closedMs === null) return [Behavior.Failed, `not refused: the server kept the connection open${read} and did not fail it`];
  const how = p.closeCode === null ? "dropped TCP" : `closed with ${p.closeCode}`;
  if (p.closedMs > budget) return [Behavior.Failed, `${how} only after ${millis(p.closedMs)}${read}: not at the header`];
  if (p.closeCode !== null && !REFUSAL_CODES.has(p.closeCode)) return [Behavior.NonStrict, `${how} after ${millis(p.closedMs)}${read} (1002 or 1009 expected)`];
  return [Behavior.Ok, `${how} after ${millis(p.closedMs)}${read}`];
}
function refusalFigures(p, budget, name) {
  if (p.status !== 101) return p.status === null ? [] : [statedFigure(name("answer-ms"), `${p.label}: the server answered after`, p.answerMs ?? 0, "ms")];
  const figures = [];
  if (p.closedMs !== null)
    figures.push(budgetFigure(name("close-ms"), `${p.label}: the server ended the connection after the header`, p.closedMs, "ms", budget));
  if (p.trickled > 0) figures.push(statedFigure(name("trickled-bytes"), `${p.label}: payload bytes the server took first`, p.trickled, "bytes"));
  return figures;
}
function rank(b) {
  return [Behavior.Ok, Behavior.Informational, Behavior.NonStrict, Behavior.Failed].indexOf(b);
}
function droppedProbe(p) {
  return p.status === null && (p.ending === "closed" || p.ending === "reset");
}
function dropMs(p) {
  return p.elapsedMs;
}
var REFUSAL_CODES;
var init_attack_judges = __esm({
  "src/robustness/attack-judges.ts"() {
    "use strict";
    init_verdicts();
    init_attacks();
    init_judgement();
    init_budgets();
    init_own_figures();
    REFUSAL_CODES = /* @__PURE__ */ new Set([1002, 1009]);
  }
});

// src/robustness/attack-case.ts
function requestWith(normal, after, before = []) {
  const lines = [
    `GET ${normal.target} HTTP/1.1`,
    `Host: ${normal.host}`,
    ...before,
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${normal.key}`,
    "Sec-WebSocket-Version: 13",
    ...after.map(([n2, v]) => `${n2}: ${v}`)
  ];
  return `${lines.join("\r\n")}\r
\r
`;
}
function attackCase(spec) {
  return defineAttack({
    id: spec.id,
    description: `${spec.description} (${spec.rfc}; ${spec.advisory.id}: ${spec.advisory.what})`,
    requirement: spec.requirement,
    expectation: `${spec.expectation} Afterwards the server still echoes a message on a fresh connection, and (when wsgate started it) its process is alive.`,
    schedule: {
      maxSeconds: spec.maxSeconds,
      runsAlone: true,
      cost: spec.stall === true ? 90 : spec.maxSeconds / 4,
      ...spec.stall === true ? { stall: true } : {}
    },
    attack: spec.attack
  });
}
var init_attack_case = __esm({
  "src/robustness/attack-case.ts"() {
    "use strict";
    init_define();
  }
});

// src/robustness/data/floods.ts
var FloodAdvisories, FloodBudgets, ClientFloodAdvisory, ClientFloodBudgets, clientFloodBudgets;
var init_floods = __esm({
  "src/robustness/data/floods.ts"() {
    "use strict";
    init_budgets();
    FloodAdvisories = {
      protocolBurst: {
        id: "CVE-2021-32640 (GHSA-6fc8-4gx4-v693)",
        what: "ws before 7.4.6 split Sec-WebSocket-Protocol with a regular expression quadratic in a run of spaces: a burst of such requests at the HTTP layer's largest size blocks the event loop for every other client"
      },
      extensionsBurst: {
        id: "CVE-2020-7662 (GHSA-g78m-2chm-r7qv)",
        what: "websocket-extensions before 0.1.4: an unclosed quoted parameter value of backslash pairs makes its parser backtrack; a burst of them starves the other clients"
      },
      largeHeaders: {
        id: "CVE-2018-12121",
        what: "Node.js before 6.15.0, 8.14.0, 10.14.0 and 11.3.0 kept up to 80 KB of headers per connection: requests with maximum-sized headers exhausted the heap (the limit became 8 KB, now 16 KB)"
      },
      pacedHead: {
        id: "CVE-2023-43669",
        what: "tungstenite before 0.20.1 parsed the whole handshake again on every read: a long header delivered in small pieces took minutes of CPU"
      },
      slowloris: {
        id: "CVE-2018-12122",
        what: "Node.js before 6.15.0, 8.14.0, 10.14.0 and 11.3.0 kept a connection whose request head arrived one byte at a time open forever (headersTimeout was added); Slowloris, CVE-2007-6750, against Apache"
      },
      halfOpen: {
        id: "CVE-2007-6750",
        what: "Apache HTTP Server 1.x and 2.x: many connections each holding a partial request head (Slowloris) took every worker, and no other client was served"
      }
    };
    FloodBudgets = {
      /** The normal client's wait for its 101 beside a burst or the half-open connections (ms, scaled). */
      normalAnswerMs: 1e3,
      /** Connections of a burst, each with one request at `burstBytes`. */
      burstConnections: 16,
      /** The header value's size in a burst: below Node's 16 KiB limit on a request head, with the other fields. */
      burstBytes: 15e3,
      /** How long a burst's requests, and the normal client beside them, are waited for (ms, scaled). */
      burstWaitMs: 1e4,
      /** The huge header's value: 20 MB, written in pieces of 64 KiB after the previous one drained. */
      hugeHeader: { totalBytes: 20 * 1e3 * 1e3, pieceBytes: 64 * 1024 },
      /** 17.1.8's second request: its padding as header lines of this size (under an 8 KiB line limit), not one line. */
      hugeHeaderLineBytes: 1e3,
      /** A server must refuse (an HTTP error or a drop) the huge header within this many ms of its first byte (scaled). */
      hugeHeaderMs: 5e3,
      /**
       * ... having read at most this much of it: 1 MiB. Request heads are limited to 8-32 KiB by Node
       * (16 KiB), nginx, Tomcat and IIS, about 800 KiB by Apache (100 lines of 8 KiB); a server that
       * reads 16 MB of one header before refusing it lets each connection hold that much (CVE-2018-12121).
       */
      hugeHeaderReadBytes: 1024 * 1024,
      /**
       * The paced request (17.1.9): a head of 1 MiB (the most 17.1.8 lets a server read) in header lines
       * of 1,000 bytes, written in 256-byte pieces, one a millisecond (256 KB/s): about 4,096 reads by a
       * server that keeps up, so a parser that reads the head again from its start on every read scans
       * 2 GiB, and falls behind (then its CPU time is about the attack's whole length).
       */
      pacedHead: { totalBytes: 1024 * 1024, lineBytes: 1e3, pieceBytes: 256, everyMs: 1 },
      /** How long the paced request and the answer after it are waited for (ms, scaled). */
      pacedWaitMs: 2e4,
      /** The answer to the paced request, after its last piece was read (ms, scaled). */
      pacedAnswerMs: 1e3,
      /**
       * The CPU time the server's process tree may spend over 17.1.9 (ms, scaled): reading 1 MiB in 1,024
       * reads and answering, then the liveness check. A parser that keeps its place costs tens of ms (ws
       * behind Node's http with a 2 MiB head limit: measured below 100 ms); one that re-parses the head
       * on every read, seconds (CVE-2023-43669's fault, in test/fixtures/servers/broken-server.ts).
       */
      pacedCpuMs: 1e3,
      /** Slowloris: one byte of a request head that never ends, every this many ms; the `stall` budget bounds the wait. */
      slowlorisEveryMs: 1e3,
      /** Connections each holding a partial request head while a normal client connects. */
      halfOpenConnections: 500
    };
    ClientFloodAdvisory = {
      manyLines: "CVE-2024-37890's shape (ws before 8.17.1 crashed on more header lines than Node keeps), and CVE-2018-12121 (Node.js kept up to 80 KB of headers per connection), in a 101 answer",
      hugeHeader: "CVE-2018-12121 (Node.js kept up to 80 KB of headers per connection, until heap exhaustion), in a 101 answer of several MB",
      paced: "CVE-2023-43669 (tungstenite before 0.20.1 parsed the whole handshake again on every read), in a 101 answer written in small pieces",
      trickled: "CVE-2018-12122 (Node.js kept a head trickled one byte at a time open forever: Slowloris), in a 101 answer trickled one byte per second",
      prototypeNames: "GHSA-5v72-xg48-5rpm (ws before 3.3.1 crashed on extension names such as constructor), in the 101 answer",
      obsText: "denoland/deno#32594 (Deno panicked on a Sec-WebSocket-Protocol or Sec-WebSocket-Extensions value with bytes above 0x7f in a 101)"
    };
    ClientFloodBudgets = {
      /** Header lines of the 101 in 18.4.1. */
      manyLines: 1e4,
      /**
       * The header value of 18.4.2: 8 MiB, written in pieces of 64 KiB, each after the previous one drained
       * and 10 ms after it (6.4 MB/s: all of it in 1.3 s, well within the budget, to a client that reads it).
       */
      hugeHeader: { totalBytes: 8 * 1024 * 1024, pieceBytes: 64 * 1024, everyMs: 10 },
      /** ... of which a client may read at most this much before it refuses the head (as 17.1.8's server: FloodBudgets.hugeHeaderReadBytes). */
      hugeHeaderReadBytes: 1024 * 1024,
      /** How often 18.4.2 looks at what the client read, in seconds. */
      readSampleS: 0.05,
      /** A client completes (echoes) or fails the connection within this many seconds of the 101's first byte. */
      settleWithinS: 5,
      /**
       * 18.4.3: the padding header's value, written in 256-byte pieces one a millisecond (as 17.1.9's
       * request): about 4,096 reads, 5 s of writing (`writeS`, added to the settling time).
       */
      pacedHead: { totalBytes: 1024 * 1024, lineBytes: 100, pieceBytes: 256, everyMs: 1, writeS: 6 },
      /** 18.4.3: the CPU time the client's process tree may spend on the case (ms, scaled), as 17.1.9's server. */
      pacedCpuMs: 1e3,
      /** 18.4.4: one byte of the 101 every this many ms; the padding makes the head outlast any stall budget (an hour). */
      trickleEveryMs: 1e3,
      tricklePadBytes: 3600,
      /** 18.4.5: a client refuses extensions it never offered within this many seconds (as 14.x's refusals). */
      refuseWithinS: 2
    };
    clientFloodBudgets = {
      manyLines: { advisory: ClientFloodAdvisory.manyLines, closeWithinMs: ClientFloodBudgets.settleWithinS * 1e3, memoryGrowth: MEMORY_GROWTH.small },
      hugeHeader: { advisory: ClientFloodAdvisory.hugeHeader, closeWithinMs: ClientFloodBudgets.settleWithinS * 1e3, memoryGrowth: MEMORY_GROWTH.small },
      paced: {
        advisory: ClientFloodAdvisory.paced,
        closeWithinMs: (ClientFloodBudgets.settleWithinS + ClientFloodBudgets.pacedHead.writeS) * 1e3,
        memoryGrowth: MEMORY_GROWTH.small,
        cpuMs: ClientFloodBudgets.pacedCpuMs
      },
      trickled: { advisory: ClientFloodAdvisory.trickled, closeWithinMs: 0, stall: true, memoryGrowth: MEMORY_GROWTH.small },
      prototypeNames: { advisory: ClientFloodAdvisory.prototypeNames, closeWithinMs: ClientFloodBudgets.refuseWithinS * 1e3, memoryGrowth: MEMORY_GROWTH.small },
      obsText: { advisory: ClientFloodAdvisory.obsText, closeWithinMs: ClientFloodBudgets.refuseWithinS * 1e3, memoryGrowth: MEMORY_GROWTH.small }
    };
  }
});

// src/robustness/flood-judges.ts
function crowdTold(crowd, hold) {
  const answers = /* @__PURE__ */ new Map();
  for (const p of crowd) {
    const what = p.status !== null ? `HTTP ${p.status}` : p.ending !== "timeout" ? answerText(p) : hold ? "still open when wsgate closed it" : `no answer within ${millis(p.waitMs)}`;
    answers.set(what, (answers.get(what) ?? 0) + 1);
  }
  return [...answers].map(([what, n2]) => `${count(n2)} ${what}`).join(", ");
}
function judgeCrowd(crowdText, facts, hold, budgets = DEFAULT_BUDGETS) {
  const budget = scaledMs(FloodBudgets.normalAnswerMs, budgets);
  const n2 = facts.normal;
  const beside = `beside ${count(facts.crowd.length)} connections ${crowdText} (${count(facts.ready)} written when it connected; the crowd: ${crowdTold(facts.crowd, hold)})`;
  const crowd = [
    statedFigure("crowd-count", "connections of the crowd", facts.crowd.length, "count"),
    statedFigure("ready-count", "of them written when the normal client connected", facts.ready, "count"),
    statedFigure("crowd-answered-count", "requests of the crowd answered", facts.crowd.filter((p) => p.status !== null).length, "count")
  ];
  if (n2.status === null)
    return attackVerdict(Behavior.Failed, `The normal client got ${answerText(n2)} within ${millis(n2.waitMs)}, ${beside}.`, [
      statedFigure("wait-ms", "wsgate waited for the normal client's answer", n2.waitMs, "ms"),
      ...crowd
    ]);
  if (n2.status !== 101) return attackVerdict(Behavior.Failed, `The normal client was answered HTTP ${n2.status} instead of 101, ${beside}.`, crowd);
  const waited = n2.answerMs ?? 0;
  const answer = budgetFigure("answer-ms", "the normal client's 101 came after its request", waited, "ms", budget);
  if (waited > budget)
    return attackVerdict(Behavior.Failed, `The normal client waited ${millis(waited)} for its 101 (budget ${millis(budget)}), ${beside}.`, [answer, ...crowd]);
  const hung = hold ? void 0 : facts.crowd.find((p) => p.status === null && p.ending === "timeout");
  const unanswered2 = hold ? [] : [
    budgetFigure(
      "crowd-unanswered-count",
      "requests of the crowd never answered",
      facts.crowd.filter((p) => p.status === null && p.ending === "timeout").length,
      "count",
      0
    )
  ];
  if (hung !== void 0)
    return attackVerdict(
      Behavior.Failed,
      `A request of the crowd got no answer within ${millis(hung.waitMs)}, ${beside}; the normal client's 101 came after ${millis(waited)}.`,
      [answer, ...crowd, ...unanswered2, statedFigure("crowd-wait-ms", "wsgate waited for each answer of the crowd", hung.waitMs, "ms")]
    );
  return attackVerdict(Behavior.Ok, `The normal client's 101 came ${millis(waited)} after its request (budget ${millis(budget)}), ${beside}.`, [
    answer,
    ...crowd,
    ...unanswered2
  ]);
}
function judgeHugeHeader(probes, budgets = DEFAULT_BUDGETS) {
  if (probes.length === 0) return attackVerdict(Behavior.Failed, "The attack was not played.");
  const each = probes.map((p, i) => renamed(judgeOneHugeHeader(p, budgets), i === 0 ? "" : "lines-"));
  const failed = each.filter((j) => j.behavior === Behavior.Failed);
  const told = [...failed, ...each.filter((j) => j.behavior !== Behavior.Failed)];
  return attackVerdict(
    failed.length > 0 ? Behavior.Failed : each[0].behavior,
    told.map((j) => j.result).join(" "),
    each.flatMap((j) => j.figures ?? [])
  );
}
function renamed(j, prefix) {
  return prefix === "" ? j : { ...j, figures: (j.figures ?? []).map((f) => ({ ...f, name: `${prefix}${f.name}` })) };
}
function judgeOneHugeHeader(p, budgets) {
  const budget = scaledMs(FloodBudgets.hugeHeaderMs, budgets);
  const bytesBudget = FloodBudgets.hugeHeaderReadBytes;
  const measured = p.peerReadBytes ?? null;
  const took = measured === null ? `what the server read was not measured (its socket is not on this machine, or was gone at the first look)` : `the server had read ${count(measured)} of them (budget ${count(bytesBudget)})`;
  const wrote = `wsgate had written ${count(p.requestBytes)} of the request's bytes`;
  const read = `${wrote}; ${took}`;
  const bytes2 = (over) => [
    statedFigure("request-bytes", "of the request's bytes wsgate had written", p.requestBytes, "bytes"),
    ...measured === null ? [] : [judgedFigure("peer-read-bytes", "of the request's bytes the server had read", measured, "bytes", bytesBudget, over)]
  ];
  const elapsed = (over) => judgedFigure("elapsed-ms", "the server answered or ended the connection after the request began", p.elapsedMs, "ms", budget, over);
  if (p.status === 101)
    return attackVerdict(Behavior.Failed, `The server took ${p.label} and answered 101 after ${millis(p.elapsedMs)} (${read}): it has no limit on a request head.`, [
      ...bytes2(false),
      elapsed(false)
    ]);
  if (p.ending === "timeout" && p.status === null)
    return attackVerdict(Behavior.Failed, `The server neither refused ${p.label} nor ended the connection within ${millis(p.waitMs)} (${read}).`, [
      // Reading on past the byte budget is a failure of its own, whenever the wait ran out.
      ...bytes2(measured !== null && measured > bytesBudget),
      budgetFigure("wait-ms", "wsgate waited for an answer or the end after the request began", p.waitMs, "ms", budget)
    ]);
  if (p.ending === "refused") return attackVerdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  const how = p.status === null ? `dropped the connection (${p.ending === "reset" ? "reset" : "closed"}) with no answer` : `answered HTTP ${p.status}`;
  if (p.status !== null && p.status < 400)
    return attackVerdict(Behavior.Failed, `The server ${how} to ${p.label}, not an error status, after ${millis(p.elapsedMs)} (${read}).`, [
      ...bytes2(false),
      elapsed(false)
    ]);
  if (measured !== null && measured > bytesBudget)
    return attackVerdict(
      Behavior.Failed,
      `The server ${how} to ${p.label} only after reading ${count(measured)} bytes of it (budget ${count(bytesBudget)}): its limit on a request head lets each connection hold that much (${wrote}).`,
      bytes2(true)
    );
  if (p.elapsedMs > budget)
    return attackVerdict(Behavior.Failed, `The server ${how} only ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}; ${read}).`, [
      ...bytes2(false),
      elapsed(true)
    ]);
  return attackVerdict(
    Behavior.Ok,
    `The server ${how} ${millis(p.elapsedMs)} after the request began (budget ${millis(budget)}): ${read} when it refused ${p.label}.`,
    [...bytes2(false), elapsed(false)]
  );
}
function judgePacedHead(probes, budgets = DEFAULT_BUDGETS) {
  const budget = scaledMs(FloodBudgets.pacedAnswerMs, budgets);
  const p = probes[0];
  if (p === void 0) return attackVerdict(Behavior.Failed, "The attack was not played.");
  const read = p.peerReadBytes == null ? `${count(p.requestBytes)} bytes written` : `${count(p.peerReadBytes)} bytes read by the server`;
  const what = `${p.label} (${read})`;
  const bytes2 = p.peerReadBytes == null ? statedFigure("request-bytes", "of the request's bytes wsgate had written", p.requestBytes, "bytes") : statedFigure("peer-read-bytes", "of the request's bytes the server had read", p.peerReadBytes, "bytes");
  const elapsed = statedFigure("elapsed-ms", "the server answered or ended the connection after the request began", p.elapsedMs, "ms");
  if (p.ending === "refused") return attackVerdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.status === 101) {
    const ms = p.answerMs ?? 0;
    const answer = budgetFigure("answer-ms", "the 101 came after the last piece", ms, "ms", budget);
    if (ms > budget) return attackVerdict(Behavior.Failed, `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}).`, [bytes2, answer]);
    return attackVerdict(
      Behavior.Ok,
      `${what}: the 101 came ${millis(ms)} after the last piece (budget ${millis(budget)}); the whole request took ${millis(p.elapsedMs)}.`,
      [bytes2, answer, elapsed]
    );
  }
  if (p.status === null && p.ending === "timeout")
    return attackVerdict(Behavior.Failed, `${what}: the server neither answered nor ended the connection within ${millis(p.waitMs)}.`, [
      bytes2,
      statedFigure("wait-ms", "wsgate waited for an answer or the end after the request began", p.waitMs, "ms")
    ]);
  if (p.status !== null && p.status < 400) return attackVerdict(Behavior.Failed, `${what}: answered HTTP ${p.status}, neither 101 nor an error status.`, [bytes2]);
  const how = p.status === null ? `dropped the connection (${p.ending === "reset" ? "reset" : "closed"})` : `answered HTTP ${p.status}`;
  return attackVerdict(Behavior.Ok, `${what}: the server ${how} at its own limit on a request head, ${millis(p.elapsedMs)} after the request began.`, [
    bytes2,
    elapsed
  ]);
}
function judgeSlowloris(probes, budgets = DEFAULT_BUDGETS) {
  const p = probes[0];
  if (p === void 0) return attackVerdict(Behavior.Failed, "The attack was not played.");
  const budget = `stall budget ${millis(budgets.stallMs)}`;
  const trickled = statedFigure("request-bytes", "bytes of the request head trickled", p.requestBytes, "bytes");
  if (p.ending === "refused") return attackVerdict(Behavior.Failed, `No connection: ${answerText(p)}.`);
  if (p.ending === "timeout" && p.status === null) {
    const held = judgedFigure("wait-ms", "the server still held the connection after the request began", p.waitMs, "ms", budgets.stallMs, true);
    return attackVerdict(
      Behavior.Failed,
      `The server still held the connection ${millis(p.waitMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled: it never times out a stalled request head.`,
      [held, trickled]
    );
  }
  const how = p.status === null ? `dropped the connection (${p.ending === "reset" ? "reset" : "closed"})` : `answered HTTP ${p.status}`;
  return attackVerdict(Behavior.Ok, `The server ${how} ${millis(p.elapsedMs)} after the request began (${budget}), ${count(p.requestBytes)} bytes trickled.`, [
    budgetFigure("elapsed-ms", "the server answered or ended the connection after the request began", p.elapsedMs, "ms", budgets.stallMs),
    trickled
  ]);
}
var init_flood_judges = __esm({
  "src/robustness/flood-judges.ts"() {
    "use strict";
    init_verdicts();
    init_attack_judges();
    init_budgets();
    init_floods();
    init_judgement();
    init_own_figures();
  }
});

// src/robustness/handshake-floods.ts
function burst(id, shape, advisory, rfc, requirement) {
  const s = SHAPES[shape];
  const value = s.value(B.burstBytes);
  const crowdText = `each with a ${bytes(B.burstBytes)}-byte ${s.header}`;
  const attack = {
    kind: "crowd",
    connections: B.burstConnections,
    crowd: {
      label: `${s.header} of ${bytes(B.burstBytes)} bytes`,
      size: B.burstBytes,
      waitMs: B.burstWaitMs,
      request: (normal) => requestWith(normal, [[s.header, value]])
    },
    hold: false,
    normalWaitMs: B.burstWaitMs,
    judge: (facts, budgets) => judgeCrowd(crowdText, facts, false, budgets)
  };
  return attackCase({
    id,
    requirement,
    advisory,
    rfc,
    description: `${B.burstConnections} upgrade requests at once, on parallel connections, each with a ${s.header} of ${bytes(B.burstBytes)} bytes (${s.words}: below Node's 16 KiB limit on a request head); once they are written, a normal client's upgrade request, timed.`,
    expectation: `The normal client's 101 comes within ${bytes(B.normalAnswerMs)} ms of its request, and every request of the burst is answered (101 or an HTTP error).`,
    attack,
    maxSeconds: 40
  });
}
function padLines(total, lineBytes) {
  return Array.from({ length: Math.ceil(total / lineBytes) }, (_, i) => [`X-Wsgate-Pad-${i + 1}`, "a".repeat(Math.min(lineBytes, total - i * lineBytes))]);
}
function endlessHead(normal) {
  return requestWith(normal, [["X-Wsgate-Pad", "a".repeat(3600)]]).replace(/\r\n\r\n$/, "");
}
function partialHead(normal) {
  return requestWith(normal, []).replace(/\r\n$/, "");
}
var B, bytes, SHAPES, hugeHeader, P, paced, slowlorisProbe, slowloris, halfOpen, handshakeFloodCases;
var init_handshake_floods = __esm({
  "src/robustness/handshake-floods.ts"() {
    "use strict";
    init_budgets();
    init_floods();
    init_flood_judges();
    init_attack_case();
    B = FloodBudgets;
    bytes = (n2) => n2.toLocaleString("en-US");
    SHAPES = {
      protocol: { header: "Sec-WebSocket-Protocol", value: (n2) => `b${" ".repeat(n2)}x`, words: "'b', spaces, 'x'" },
      extensions: {
        header: "Sec-WebSocket-Extensions",
        value: (n2) => `a; b="${"\\c".repeat(Math.ceil(n2 / 2))}`,
        words: 'a; b=" and backslash-c pairs, never closed'
      }
    };
    hugeHeader = attackCase({
      id: "17.1.8",
      requirement: {
        key: "huge-header-refused",
        rfc: "RFC 7230 \xA73.2.5",
        text: "a server refuses a request header far larger than it wishes to process with a 4xx (431) or a drop, soon after its limit, not after reading it all, and keeps serving (CVE-2018-12121: Node.js kept 80 KB of headers per connection)",
        subject: "a 20 MB request header"
      },
      advisory: FloodAdvisories.largeHeaders,
      rfc: "RFC 7230 \xA73.2.5, RFC 6455 \xA74.2.1",
      description: `A normal upgrade request with one more header line whose value is ${bytes(B.hugeHeader.totalBytes)} bytes, streamed in pieces of ${bytes(B.hugeHeader.pieceBytes)} bytes, each after the previous one drained, until the server answers or ends the connection; then, on a fresh connection, the same ${bytes(B.hugeHeader.totalBytes)} bytes as header lines of ${bytes(B.hugeHeaderLineBytes)} bytes each (under any limit on a line, as the advisory's exploits send them).`,
      expectation: `The server refuses the request (431, 400 or 413, or a dropped connection) within ${bytes(B.hugeHeaderMs)} ms of its first byte, long before its end, and keeps serving.`,
      attack: {
        kind: "probes",
        probes: [
          {
            label: `a ${bytes(B.hugeHeader.totalBytes / 1e6)} MB header`,
            size: B.hugeHeader.totalBytes,
            waitMs: 2 * B.hugeHeaderMs,
            delivery: { kind: "streamed", header: "X-Wsgate-Pad", ...B.hugeHeader }
          },
          {
            label: `${bytes(B.hugeHeader.totalBytes / 1e6)} MB of ${bytes(B.hugeHeaderLineBytes)}-byte header lines`,
            size: B.hugeHeader.totalBytes,
            waitMs: 2 * B.hugeHeaderMs,
            delivery: { kind: "streamed", header: "X-Wsgate-Pad", ...B.hugeHeader, lineBytes: B.hugeHeaderLineBytes }
          }
        ],
        judge: judgeHugeHeader
      },
      maxSeconds: 20
    });
    P = B.pacedHead;
    paced = attackCase({
      id: "17.1.9",
      requirement: {
        key: "paced-request",
        rfc: "RFC 7230 \xA73, RFC 6455 \xA74.1",
        text: "a server reads a long request head written in small pieces at a cost that grows with its length, not its square: it answers or refuses it promptly, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)",
        subject: "a 1 MiB request head written in small pieces"
      },
      advisory: FloodAdvisories.pacedHead,
      rfc: "RFC 7230 \xA73, RFC 6455 \xA74.1",
      description: `A normal upgrade request with ${bytes(P.totalBytes)} bytes of padding in header lines of ${bytes(P.lineBytes)} bytes (X-Wsgate-Pad-1, -2 ...), written in ${bytes(P.pieceBytes)}-byte pieces, one every ${P.everyMs} ms, Nagle off: about ${bytes(Math.round(P.totalBytes / P.pieceBytes))} reads for a server that keeps up.`,
      expectation: `The server answers 101 within ${bytes(B.pacedAnswerMs)} ms of the last piece, or refuses the head at its own limit (an HTTP error or a drop), and its process tree spends at most ${bytes(B.pacedCpuMs)} ms of CPU time on the case (a parser that reads the head again from its start on every read spends time quadratic in its length).`,
      attack: {
        kind: "probes",
        cpuMs: B.pacedCpuMs,
        probes: [
          {
            label: `a request of ${bytes(P.totalBytes)} bytes of padding in ${bytes(P.pieceBytes)}-byte pieces`,
            size: P.totalBytes,
            waitMs: B.pacedWaitMs,
            request: (normal) => requestWith(normal, padLines(P.totalBytes, P.lineBytes)),
            delivery: { kind: "paced", pieceBytes: P.pieceBytes, everyMs: P.everyMs }
          }
        ],
        judge: judgePacedHead
      },
      maxSeconds: 40
    });
    slowlorisProbe = {
      label: "a request head trickled one byte per second",
      size: 0,
      waitMs: DEFAULT_BUDGETS.stallMs,
      request: endlessHead,
      delivery: { kind: "trickle", everyMs: B.slowlorisEveryMs }
    };
    slowloris = attackCase({
      id: "17.1.10",
      requirement: {
        key: "slowloris",
        rfc: "RFC 7230 \xA76.5, RFC 6455 \xA710.1",
        text: "a server drops a request head trickled one byte per second by a timeout of its own, within the stall budget (CVE-2018-12122: Node.js held such a connection forever; Slowloris)",
        subject: "a request head trickled one byte per second"
      },
      advisory: FloodAdvisories.slowloris,
      rfc: "RFC 7230 \xA76.5, RFC 6455 \xA710.1",
      description: `An upgrade request head written one byte every ${bytes(B.slowlorisEveryMs)} ms, never ended (a padding header of an hour's bytes after the upgrade fields).`,
      expectation: `The server drops the connection (or answers an error such as 408) by a timeout of its own within the stall budget (--budget stall, default ${bytes(DEFAULT_BUDGETS.stallMs / 1e3)} s; Node's http drops a stalled head after 60 to 90 s), and keeps serving. This case takes as long as the server's timeout.`,
      attack: { kind: "probes", probes: [slowlorisProbe], judge: judgeSlowloris },
      // Its limit: the run's stall budget plus these seconds (policy/case-limits.ts).
      maxSeconds: 10,
      stall: true
    });
    halfOpen = attackCase({
      id: "17.1.11",
      requirement: {
        key: "half-open-upgrades",
        rfc: "RFC 6455 \xA710.1, RFC 7230 \xA76.5",
        text: "hundreds of connections holding a partial upgrade request do not keep a normal client from its 101 within the budget (CVE-2007-6750: Slowloris took every worker of Apache)",
        subject: "a normal client beside half-open upgrades"
      },
      advisory: FloodAdvisories.halfOpen,
      rfc: "RFC 6455 \xA710.1, RFC 7230 \xA76.5",
      description: `${bytes(B.halfOpenConnections)} connections at once, each with an upgrade request whose final empty line never comes, held open; then a normal client's upgrade request from another loopback address than theirs (a cap on connections per client address is a defence, not a refusal), timed; then wsgate closes the ${bytes(B.halfOpenConnections)}.`,
      expectation: `The normal client's 101 comes within ${bytes(B.normalAnswerMs)} ms of its request, whatever the half-open connections hold.`,
      attack: {
        kind: "crowd",
        connections: B.halfOpenConnections,
        crowd: { label: "a partial request head", size: 0, waitMs: 3e4, request: partialHead },
        hold: true,
        normalWaitMs: 5e3,
        judge: (facts, budgets) => judgeCrowd("each holding a partial request head", facts, true, budgets)
      },
      maxSeconds: 40
    });
    handshakeFloodCases = [
      burst("17.1.6", "protocol", FloodAdvisories.protocolBurst, "RFC 6455 \xA74.1, \xA711.3.4", {
        key: "burst-beside-normal-client",
        rfc: "RFC 6455 \xA74.1, \xA711.3.4",
        text: "a burst of upgrade requests with the longest Sec-WebSocket-Protocol the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2021-32640: ws before 7.4.6's quadratic split blocked every client)",
        subject: "a normal client beside a burst of slow requests"
      }),
      burst("17.1.7", "extensions", FloodAdvisories.extensionsBurst, "RFC 6455 \xA79.1, RFC 7230 \xA73.2.6", {
        key: "burst-beside-normal-client",
        rfc: "RFC 6455 \xA79.1, RFC 7230 \xA73.2.6",
        text: "a burst of upgrade requests with the longest malformed Sec-WebSocket-Extensions the HTTP layer takes does not keep a normal client from its 101 within the budget (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)",
        subject: "a normal client beside a burst of slow requests"
      }),
      hugeHeader,
      paced,
      slowloris,
      halfOpen
    ];
  }
});

// src/robustness/subgroup.ts
function subgroup(id, title, cases2) {
  return cases2.map((c3) => {
    if (!c3.id.startsWith(`${id}.`)) throw new Error(`case ${c3.id} is declared in subgroup ${id}`);
    if (c3.requirement === void 0) throw new Error(`case ${c3.id} declares no requirement`);
    return { ...c3, subcategory: title };
  });
}
var init_subgroup = __esm({
  "src/robustness/subgroup.ts"() {
    "use strict";
  }
});

// src/robustness/s17-1-handshake.ts
function fillerLines(n2) {
  const chars = "!#$%&'*+-.0123456789abcdefghijklmnopqrstuvwxyz^_`|~";
  const width = n2 <= chars.length ** 2 ? 2 : 3;
  const name = (i) => Array.from({ length: width }, (_, d) => chars[Math.floor(i / chars.length ** d) % chars.length]).join("");
  return Array.from({ length: n2 }, (_, i) => `${name(i)}:x`);
}
function growth(header, value) {
  return {
    kind: "growth",
    header,
    value,
    sizes: ServerBudgets.growthSizes,
    stopAfterMs: ServerBudgets.answerMs,
    judge: (facts, budgets) => judgeGrowth(header, facts, budgets)
  };
}
function survives(probes) {
  return { kind: "probes", probes: probes.map((p) => ({ ...p, waitMs: ServerBudgets.survivesMs })), judge: judgeSurvives };
}
function headerLines(id, n2) {
  return attackCase({
    id,
    requirement: MANY_HEADER_LINES,
    advisory: ServerAdvisories.wsHeaderCount,
    rfc: "RFC 6455 \xA74.2.1, RFC 7230 \xA73.2.5",
    description: `An upgrade request with ${n2.toLocaleString("en-US")} header lines ("ab:x") ahead of Upgrade, Connection, Sec-WebSocket-Key and Sec-WebSocket-Version.`,
    expectation: `The server answers (101, an HTTP error such as 400 or 431) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
    attack: survives([{ label: `${n2.toLocaleString("en-US")} header lines`, size: n2, request: (normal) => requestWith(normal, [], fillerLines(n2)) }]),
    maxSeconds: 10
  });
}
var protocolGrowth, extensionsGrowth, MANY_HEADER_LINES, PROTOTYPE_NAMES, prototypeNames, OBS_TEXT_VALUES, obsTextValues, handshakeServerCases;
var init_s17_1_handshake = __esm({
  "src/robustness/s17-1-handshake.ts"() {
    "use strict";
    init_attack_judges();
    init_attacks();
    init_attack_case();
    init_handshake_floods();
    init_subgroup();
    protocolGrowth = attackCase({
      id: "17.1.1",
      requirement: {
        key: "protocol-header-growth",
        rfc: "RFC 6455 \xA74.1, \xA711.3.4",
        text: "a server answers a long Sec-WebSocket-Protocol (up to what its HTTP layer accepts) within the budget, in time no more than linear in its size, and keeps serving (CVE-2021-32640: ws before 7.4.6 took quadratic time)",
        subject: "a long Sec-WebSocket-Protocol header"
      },
      advisory: ServerAdvisories.wsProtocolRegex,
      rfc: "RFC 6455 \xA74.1, \xA711.3.4",
      description: "Upgrade requests whose Sec-WebSocket-Protocol is 'b', n spaces, 'x', for n from 1,000 up to what the server's HTTP layer accepts, each on a fresh connection; the answer time measured at each size.",
      expectation: `Each answer (101 or an HTTP error) comes within ${ServerBudgets.answerMs} ms, and its time grows no faster than the header's size.`,
      attack: growth("Sec-WebSocket-Protocol", (n2) => `b${" ".repeat(n2)}x`),
      maxSeconds: 60
    });
    extensionsGrowth = attackCase({
      id: "17.1.2",
      requirement: {
        key: "extensions-header-growth",
        rfc: "RFC 6455 \xA79.1, RFC 7230 \xA73.2.6",
        text: "a server answers a long, malformed Sec-WebSocket-Extensions within the budget, in time no more than linear in its size, and keeps serving (CVE-2020-7662: websocket-extensions before 0.1.4 backtracked)",
        subject: "a long malformed Sec-WebSocket-Extensions header"
      },
      advisory: ServerAdvisories.extensionsRegex,
      rfc: "RFC 6455 \xA79.1, RFC 7230 \xA73.2.6",
      description: 'Upgrade requests whose Sec-WebSocket-Extensions is a; b=" followed by n bytes of backslash-c pairs, never closed, for growing n, each on a fresh connection; the answer time measured at each size.',
      expectation: `Each answer (an HTTP error, or a 101 without the extension) comes within ${ServerBudgets.answerMs} ms, and its time grows no faster than the header's size.`,
      attack: growth("Sec-WebSocket-Extensions", (n2) => `a; b="${"\\c".repeat(Math.ceil(n2 / 2))}`),
      maxSeconds: 60
    });
    MANY_HEADER_LINES = {
      key: "many-header-lines",
      rfc: "RFC 6455 \xA74.2.1, RFC 7230 \xA73.2.5",
      text: "a server answers a request with thousands of header lines (an error status, or 101) and keeps serving (CVE-2024-37890: ws before 8.17.1 crashed past Node's 2,000-header limit)",
      subject: "a request with thousands of header lines"
    };
    PROTOTYPE_NAMES = [
      "constructor",
      ",;constructor",
      "permessage-deflate; constructor",
      "__proto__; __proto__=1",
      "permessage-deflate; __proto__=1, toString; hasOwnProperty=x"
    ];
    prototypeNames = attackCase({
      id: "17.1.5",
      requirement: {
        key: "prototype-extension-names",
        rfc: "RFC 6455 \xA79.1",
        text: "a server answers extension offers named after Object.prototype properties (constructor, __proto__) and keeps serving (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed)",
        subject: "extension names such as constructor and __proto__"
      },
      advisory: ServerAdvisories.wsPrototypeNames,
      rfc: "RFC 6455 \xA79.1",
      description: `Upgrade requests whose Sec-WebSocket-Extensions name extensions and parameters after Object.prototype's properties: ${PROTOTYPE_NAMES.map((v) => JSON.stringify(v)).join(", ")}, one request each.`,
      expectation: `The server answers each (a 101 without those extensions, or an HTTP error) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
      attack: survives(
        PROTOTYPE_NAMES.map((v, i) => ({
          label: JSON.stringify(v),
          size: i,
          request: (normal) => requestWith(normal, [["Sec-WebSocket-Extensions", v]])
        }))
      ),
      maxSeconds: 20
    });
    OBS_TEXT_VALUES = [
      ["Sec-WebSocket-Protocol", "chat\xFF\xFE"],
      ["Sec-WebSocket-Protocol", "\xE9\xE8, chat"],
      ["Sec-WebSocket-Extensions", "permessage-deflate; x=\xFF"],
      ["Sec-WebSocket-Extensions", "\xC3\xA9-ext"]
    ];
    obsTextValues = attackCase({
      id: "17.1.12",
      requirement: {
        key: "obs-text-values",
        rfc: "RFC 9110 \xA75.5, RFC 6455 \xA74.1, \xA79.1",
        text: "a server answers an upgrade whose Sec-WebSocket-Protocol or Sec-WebSocket-Extensions holds bytes above 0x7f (a 101 without the value, or an error such as 400) and keeps serving (http-rs/async-h1#187: a server panicked on such a value)",
        subject: "header values with bytes above 0x7f"
      },
      advisory: ServerAdvisories.obsTextValues,
      rfc: "RFC 9110 \xA75.5, RFC 6455 \xA74.1, \xA79.1",
      description: `Upgrade requests whose Sec-WebSocket-Protocol or Sec-WebSocket-Extensions holds bytes above 0x7f (obs-text): ${OBS_TEXT_VALUES.map(([n2, v]) => `${n2}: ${JSON.stringify(v)}`).join("; ")} (each character one byte, latin1), one request each.`,
      expectation: `The server answers each (a 101 without the value, or an HTTP error such as 400) within ${ServerBudgets.survivesMs} ms and keeps serving.`,
      attack: survives(
        OBS_TEXT_VALUES.map(([name, value], i) => ({
          label: `${name}: ${JSON.stringify(value)}`,
          size: i,
          request: (normal) => requestWith(normal, [[name, value]])
        }))
      ),
      maxSeconds: 20
    });
    handshakeServerCases = subgroup(
      "17.1",
      "Opening handshake: header values, lines and names, floods and slow requests that broke servers",
      [protocolGrowth, extensionsGrowth, headerLines("17.1.3", 2e3), headerLines("17.1.4", 1e4), prototypeNames, ...handshakeFloodCases, obsTextValues]
    );
  }
});

// src/robustness/data/attacks-frames.ts
var FrameAdvisory, REFUSE_AT_HEADER_S, RESERVED_GIB, LIMIT_PLUS_ONE, ENDLESS, RANDOM_BYTES, reservedGiBBudget, limitPlusOneBudget, endlessBudget, randomBytesBudget, windowBitsOfferBudget;
var init_attacks_frames = __esm({
  "src/robustness/data/attacks-frames.ts"() {
    "use strict";
    init_budgets();
    FrameAdvisory = {
      reservedOpcode: "Java-WebSocket#1507 (the declared length allocated from the header, before a byte of payload), here behind a reserved opcode, which RFC 6455 \xA75.2 makes a reason to fail on its own",
      limitPlusOne: 'ws#2331 and ws#2332: a message cut into many small fragments cost its receiver far more memory than the message limit it was checked against; RFC 6455 \xA710.4 asks for a limit "after reassembly from multiple frames"',
      endless: "Netty CVE-2014-0193: a text frame followed by an endless series of continuation frames grew the aggregator without bound (fixed in 3.9.1 and 4.0.19); ws#2331 and ws#2332: per-fragment overhead",
      randomBytes: "no single advisory: frame parsers that crashed or hung on malformed input (CVE-2020-27813, undici CVE-2026-1528) are the class; RFC 6455 \xA77.1.7 asks a peer to fail the connection on invalid data",
      bomb: "Python websockets CVE-2018-1000518 (a server inflated a compressed message without limit), undici CVE-2026-1526 (the same in a client)",
      windowBits: "RFC 7692 \xA77.1.2: window bits are 8 to 15; a value passed on to zlib unchecked throws (undici CVE-2026-2229 died of it as a client); 15.2.2 checks the decline, this the survival"
    };
    REFUSE_AT_HEADER_S = 2;
    RESERVED_GIB = {
      opcode: 3,
      declared: 1024 * 1024 * 1024,
      /** Bytes per write, one write every `everyS` seconds, while the connection is open. */
      pieceBytes: 1024,
      everyS: 0.1
    };
    LIMIT_PLUS_ONE = {
      fragmentBytes: 4096,
      /**
       * The message goes on past the limit by this much before its last fragment (FIN): a peer that
       * checks its limit only at FIN reads on to it, one that counts as fragments come refuses at the limit.
       */
      pastBytes: 16 * 1024 * 1024,
      /**
       * What a peer may have read of the message beyond its limit when it refuses it: its reads ahead of
       * its check (a socket read, 64 KiB in Node) and what was in flight, with room to spare.
       */
      slackBytes: 4 * 1024 * 1024,
      /** Fragments per batch: 256 KiB, then wsgate waits until its socket has taken them. */
      batch: 64,
      /** The peer has this long to refuse (or wsgate to send it all and see it taken), in seconds. */
      withinS: 30,
      /** After the last fragment, how long wsgate waits for an echo or a refusal, in seconds. */
      afterS: 5
    };
    ENDLESS = {
      frames: 1024 * 1024,
      /** Frames per batch, then wsgate waits until its socket has taken them. */
      batch: 16 * 1024,
      withinS: 30
    };
    RANDOM_BYTES = {
      seed: 25119326,
      seconds: 10,
      pieceBytes: 64 * 1024,
      everyS: 0.1,
      /** Valid frames first: this many messages, ... */
      messages: 100,
      /** ... each at most this long (all three length encodings: 0-125, 126-65535, and 65536 itself needs the 64-bit one) ... */
      maxMessageBytes: 65536,
      /** ... a third of them in up to this many fragments, a ping of random payload (at most 125 bytes) after each fragment but the last. */
      maxFragments: 8
    };
    reservedGiBBudget = {
      advisory: FrameAdvisory.reservedOpcode,
      closeWithinMs: REFUSE_AT_HEADER_S * 1e3,
      memoryGrowth: MEMORY_GROWTH.small
    };
    limitPlusOneBudget = {
      advisory: FrameAdvisory.limitPlusOne,
      closeWithinMs: LIMIT_PLUS_ONE.withinS * 1e3,
      memoryPerMessageLimit: 2
    };
    endlessBudget = { advisory: FrameAdvisory.endless, closeWithinMs: ENDLESS.withinS * 1e3, memoryGrowth: MEMORY_GROWTH.fragments };
    randomBytesBudget = {
      advisory: FrameAdvisory.randomBytes,
      closeWithinMs: RANDOM_BYTES.seconds * 1e3,
      memoryGrowth: MEMORY_GROWTH.messages
    };
    windowBitsOfferBudget = { advisory: FrameAdvisory.windowBits, closeWithinMs: 4e3, memoryGrowth: MEMORY_GROWTH.small };
  }
});

// src/robustness/frame-attacks.ts
function anyCode(verdict) {
  if (verdict.behaviorClose !== CloseBehavior.WrongCode) return verdict;
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: "The peer failed the connection (any close code, or a drop, passes this case)." };
}
function frameCase(spec) {
  const { budget, codes, maxSeconds, ...rest } = spec;
  return defineCase({
    expect: {},
    close: failedByPeer(codes),
    suppressClose: true,
    attackBudget: budget,
    schedule: { maxSeconds, runsAlone: true, cost: 1 },
    ...rest
  });
}
function reservedOpcodeGiB(id, peer) {
  return frameCase({
    id,
    requirement: reservedOpcodeRequirement,
    description: `A frame with the reserved opcode 0x3 (FIN set) whose header declares 1 GiB (127, then 00 00 00 00 40 00 00 00), then its payload trickled: ${RESERVED_GIB.pieceBytes} bytes every ${RESERVED_GIB.everyS * 1e3} ms while the connection is open. (RFC 6455 \xA75.2, \xA710.4; ${reservedGiBBudget.advisory})`,
    expectation: `RFC 6455 \xA75.2: an unknown opcode MUST fail the connection: the ${peer} refuses the frame at its header (1002, or 1009, or a drop) within ${REFUSE_AT_HEADER_S} s, not after reading the payload; ${peer === "server" ? "afterwards it still serves" : "its process does not die"}.`,
    budget: reservedGiBBudget,
    codes: [CloseCode.ProtocolError, CloseCode.MessageTooBig],
    maxSeconds: REFUSE_AT_HEADER_S + 3,
    async run(t) {
      t.setOutcome(Behavior.Ok, `The ${peer} failed the connection on the frame header.`);
      const write = t.beginFrame(RESERVED_GIB.opcode, true, RESERVED_GIB.declared);
      t.killAfter(scaledS(REFUSE_AT_HEADER_S, t.budgets));
      const piece2 = Buffer.alloc(RESERVED_GIB.pieceBytes);
      while (t.isOpen) {
        await t.pause(RESERVED_GIB.everyS);
        write(piece2);
      }
    }
  });
}
function limitPlusOne(id, peer) {
  const f = LIMIT_PLUS_ONE;
  return frameCase({
    id,
    requirement: limitPlusOneRequirement,
    description: `A binary message that goes ${count(f.pastBytes)} bytes past the message limit (the run's \`message\` budget, 100 MiB by default: ws's maxPayload) before its last fragment, in fragments of ${count(f.fragmentBytes)} bytes, generated ${f.batch} fragments at a time as the ${peer} reads them (wsgate never holds the message). (RFC 6455 \xA710.4, \xA77.4.1; ${limitPlusOneBudget.advisory})`,
    expectation: `RFC 6455 \xA710.4: a ${peer} with a message limit fails the connection (1009, or 1008 for a limit on fragments, or a drop) once the message passes it, within ${f.withinS} s, its process having read at most its limit and ${count(f.slackBytes)} beside it; a lower limit refuses earlier, which passes. Reading on past the limit (a limit checked only at the last fragment), or taking the whole message (echoing it, or nothing to say against it), is FAILED.`,
    budget: limitPlusOneBudget,
    codes: TOO_BIG,
    maxSeconds: f.withinS + 3,
    messageLengthOnly: true,
    run: (t) => sendLimitPlusOne(t, peer),
    adjust(verdict, facts) {
      if (!verdict.result.includes(CROSSED) || verdict.behaviorClose !== CloseBehavior.Failed) return withOwnFigures(facts, verdict);
      return withOwnFigures(facts, {
        ...verdict,
        behavior: Behavior.Failed,
        result: `The ${peer} took the whole message (its limit + ${count(f.pastBytes)} bytes) without failing the connection: it said nothing for ${f.afterS} s after the last fragment, or echoed it past wsgate's own frame limit (wsgate then ended the connection).`
      });
    },
    onMessage(t, _data, binary, length) {
      t.record({ kind: "message", data: Buffer.alloc(0), binary });
      const limit = t.budgets.messageLimit;
      const past = length > limit;
      const what = past ? `the whole message (${count(length)} bytes, past the limit of ${count(limit)})` : `a message of ${count(length)} bytes`;
      t.setOutcome(Behavior.Failed, `The ${peer} echoed ${what}: it took a message past the limit instead of failing the connection.`, [
        echoedFigure(length, past ? limit : void 0)
      ]);
      t.sendClose(CloseCode.Normal);
    }
  });
}
async function sendLimitPlusOne(t, peer) {
  const f = LIMIT_PLUS_ONE;
  t.setWirelog(false, { silent: true });
  const limit = t.budgets.messageLimit;
  const total = limit + f.pastBytes;
  const fragments = Math.ceil(total / f.fragmentBytes);
  t.killAfter(scaledS(f.withinS, t.budgets));
  const message2 = statedFigure("message-bytes", `the message: the limit + ${count(f.pastBytes)}`, total, "bytes");
  const before = t.peerRead();
  let read = null;
  let written = 0;
  for (let i = 0; i < fragments && t.isOpen; ) {
    for (let k = 0; k < f.batch && i < fragments; k++, i++) {
      const length = Math.min(f.fragmentBytes, total - written);
      t.beginFrame(i === 0 ? Opcode.Binary : Opcode.Continuation, i === fragments - 1, length)(length === f.fragmentBytes ? ZEROS : ZEROS.subarray(0, length));
      written += length;
    }
    const now = t.peerRead();
    if (now !== null && before !== null) read = Math.max(read ?? 0, now - before);
    limitOutcome(t, peer, { written, total, fragments: i, read, limit, message: message2 });
    await t.flushed({ below: FLUSH_BELOW });
  }
  if (!t.isOpen) return;
  if (read === null || read <= limit + f.slackBytes)
    t.setOutcome(Behavior.Ok, `The ${peer} failed the connection as wsgate wrote the last of its ${count(total)} bytes (${CROSSED}).`, [message2]);
  t.killAfter(scaledS(f.afterS, t.budgets));
}
function limitOutcome(t, peer, m) {
  const f = LIMIT_PLUS_ONE;
  const over = m.read !== null && m.read > m.limit + f.slackBytes;
  const figures = [
    statedFigure("message-written-bytes", "of the message wsgate had written when it saw the peer's refusal", m.written, "bytes"),
    m.message,
    statedFigure("fragment-count", "fragments of it written", m.fragments, "count"),
    ...m.read === null ? [] : [judgedFigure("message-read-bytes", "of the message the peer's process had read", m.read, "bytes", m.limit + f.slackBytes, over)]
  ];
  const read = m.read === null ? "what the peer's process read was not measured (its socket is not on this machine)" : `the ${peer}'s process had read ${count(m.read)} (its limit ${count(m.limit)})`;
  if (over)
    t.setOutcome(
      Behavior.Failed,
      `The ${peer} read ${count(m.read ?? 0)} bytes of the message's frames, ${count((m.read ?? 0) - m.limit)} past its limit of ${count(m.limit)}, and had not refused it: it holds a message past its limit (checking it only at the last fragment, say). wsgate had written ${count(m.written)} of its ${count(m.total)} bytes (${count(m.fragments)} fragments).`,
      figures
    );
  else
    t.setOutcome(
      Behavior.Ok,
      `The ${peer} failed the connection before the message ended: wsgate had written ${count(m.written)} of its ${count(m.total)} bytes (${count(m.fragments)} fragments) when it saw the ${peer}'s refusal; ${read}.`,
      figures
    );
}
function endlessContinuations(id, peer) {
  const e = ENDLESS;
  return frameCase({
    id,
    requirement: endlessRequirement,
    description: `A binary frame without FIN holding 1 byte, then continuation frames of 1 byte each, never a final one: up to ${count(e.frames)} of them, ${count(e.batch)} at a time as the ${peer} reads them; then, if the ${peer} took them all, a close frame (1000). (RFC 6455 \xA75.4, \xA710.4; ${endlessBudget.advisory})`,
    expectation: `The ${peer} fails the connection (any code, 1009 or 1008 expected, or a drop) before the ${count(e.frames)} frames end: OK. Taking them all and answering the close within ${e.withinS} s is NON-STRICT (it kept up, but limits neither the number of fragments nor what each costs it; ws's maxFragments refuses past 16,384), unless its memory grew past ${MEMORY_GROWTH.fragments / 1024 / 1024} MiB for this 1 MiB message (ws 8.20.1: about 150 MiB), which is FAILED, as are falling behind past ${e.withinS} s and dying. Where wsgate did not start the ${peer}, its memory is not measured and the result says so.`,
    budget: endlessBudget,
    codes: [CloseCode.MessageTooBig, CloseCode.PolicyViolation],
    maxSeconds: e.withinS + 3,
    run: (t) => sendEndless(t, peer),
    adjust(verdict, facts) {
      const judged2 = anyCode(verdict);
      if (judged2.result.includes(TOOK_ALL))
        return withOwnFigures(facts, { ...judged2, behaviorClose: CloseBehavior.Ok, resultClose: "Not judged: wsgate closed after the last frame." });
      return withOwnFigures(facts, judged2);
    }
  });
}
async function sendEndless(t, peer) {
  const e = ENDLESS;
  t.setWirelog(false, { silent: true });
  t.killAfter(scaledS(e.withinS, t.budgets));
  t.beginFrame(Opcode.Binary, false, 1)(ONE);
  let sent = 0;
  while (sent < e.frames && t.isOpen) {
    for (let k = 0; k < e.batch; k++) t.beginFrame(Opcode.Continuation, false, 1)(ONE);
    sent += e.batch;
    t.setOutcome(Behavior.Ok, `The ${peer} failed the connection after wsgate had written ${count(sent)} one-byte continuation frames.`, [
      statedFigure("continuation-count", "one-byte continuation frames wsgate had written", sent, "count")
    ]);
    await t.flushed({ below: FLUSH_BELOW });
  }
  if (!t.isOpen) return;
  t.setOutcome(
    Behavior.NonStrict,
    `The ${peer} ${TOOK_ALL}: ${count(sent + 1)} frames of one message (${count(sent + 1)} bytes) without failing the connection, then answered wsgate's close.`,
    [statedFigure("frame-count", "frames of one message the peer took", sent + 1, "count"), statedFigure("message-bytes", "the message", sent + 1, "bytes")]
  );
  t.sendClose(CloseCode.Normal);
}
function randomPiece(next, length) {
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i += 4) out.writeUInt32LE(next(), i);
  return out;
}
function below(next, n2) {
  return next() % n2;
}
function randomMessage(t, next) {
  const r = RANDOM_BYTES;
  const band = below(next, 3);
  const size = band === 0 ? below(next, 126) : band === 1 ? 126 + below(next, 65536 - 126) : 65536 - below(next, 1024);
  const payload2 = randomPiece(next, Math.ceil(size / 4) * 4).subarray(0, Math.min(size, r.maxMessageBytes));
  const parts = below(next, 3) === 0 ? 1 + below(next, r.maxFragments) : 1;
  for (let i = 0; i < parts; i++) {
    const from = Math.floor(payload2.length * i / parts);
    const to = Math.floor(payload2.length * (i + 1) / parts);
    t.sendFrame({ opcode: i === 0 ? Opcode.Binary : Opcode.Continuation, fin: i === parts - 1, payload: payload2.subarray(from, to) });
    if (i < parts - 1) t.sendFrame({ opcode: Opcode.Ping, payload: randomPiece(next, 128).subarray(0, below(next, 126)) });
  }
  return payload2.length;
}
function randomBytes(id, peer) {
  const r = RANDOM_BYTES;
  return frameCase({
    id,
    requirement: randomBytesRequirement,
    description: `After the opening handshake, from seeded PRNGs (mulberry32; the random bytes seed 0x${r.seed.toString(16)}, the messages the next seed): first ${r.messages} valid binary messages of random sizes (0 to ${count(r.maxMessageBytes)} bytes, all three length encodings) and random bytes, a third of them in up to ${r.maxFragments} fragments with a ping of random payload between fragments; then random bytes, ${count(r.pieceBytes)} every ${r.everyS * 1e3} ms, until ${r.seconds} s from the start or until the ${peer} ends the connection. (RFC 6455 \xA75.2, \xA75.4, \xA77.1.7; ${randomBytesBudget.advisory})`,
    expectation: `The valid frames are taken (echoed or not: not judged) without failing the connection; the random bytes soon break a rule of \xA75.2 (reserved bits, a reserved opcode, an unmasked or masked frame in the wrong role, a length past any limit): the ${peer} fails the connection (any close code, or a drop) within ${r.seconds} s of the start and ${peer === "server" ? "still serves afterwards" : "its process does not die"}. Failing the connection on the valid frames, or still open after ${r.seconds} s, is FAILED.`,
    budget: randomBytesBudget,
    codes: [CloseCode.ProtocolError],
    maxSeconds: r.seconds + 3,
    messageLengthOnly: true,
    // The peer's echoes of the valid messages and its pongs: not judged, never held.
    onMessage: () => void 0,
    onPong: () => void 0,
    async run(t) {
      t.setWirelog(false, { silent: true });
      t.killAfter(scaledS(r.seconds, t.budgets));
      const contents = mulberry32(r.seed + 1);
      const next = mulberry32(r.seed);
      t.setOutcome(Behavior.Failed, `The ${peer} failed the connection on valid frames (random binary messages, fragments and pings), before any random byte.`);
      let bytes2 = 0;
      for (let i = 0; i < r.messages; i++) {
        bytes2 += randomMessage(t, contents);
        await t.flushed({ below: FLUSH_BELOW });
        if (!t.isOpen) return;
      }
      t.setOutcome(
        Behavior.Ok,
        `The ${peer} took ${r.messages} valid random messages (${count(bytes2)} payload bytes), then failed the connection on the random bytes.`,
        [
          statedFigure("valid-message-count", "valid messages the peer took", r.messages, "count"),
          statedFigure("valid-payload-bytes", "of their payload", bytes2, "bytes")
        ]
      );
      for (; ; ) {
        t.sendRaw(randomPiece(next, r.pieceBytes));
        await t.pause(r.everyS);
        await t.flushed({ below: FLUSH_BELOW });
        if (!t.isOpen) return;
      }
    },
    adjust: (verdict, facts) => withOwnFigures(facts, anyCode(verdict))
  });
}
var TOO_BIG, FLUSH_BELOW, reservedOpcodeRequirement, limitPlusOneRequirement, endlessRequirement, randomBytesRequirement, ZEROS, CROSSED, ONE, TOOK_ALL;
var init_frame_attacks = __esm({
  "src/robustness/frame-attacks.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_attack_judges();
    init_attacks_frames();
    init_budgets();
    init_deflate_corpus();
    init_define();
    init_judgement();
    init_own_figures();
    TOO_BIG = [CloseCode.MessageTooBig, CloseCode.PolicyViolation];
    FLUSH_BELOW = 256 * 1024;
    reservedOpcodeRequirement = {
      key: "reserved-opcode-length",
      rfc: "RFC 6455 \xA75.2, \xA710.4",
      text: "a peer fails the connection at a frame header with a reserved opcode declaring 1 GiB (1002, 1009 or a drop), without reading the payload, and survives (Java-WebSocket#1507 allocated the declared size up front)",
      subject: "a reserved opcode declaring 1 GiB"
    };
    limitPlusOneRequirement = {
      key: "limit-plus-one-fragments",
      rfc: "RFC 6455 \xA710.4, \xA77.4.1",
      text: "a peer with a message limit fails the connection (1009, 1008 or a drop) once a message in 4 KiB fragments passes it, having taken at most the limit, and survives (ws#2331, ws#2332: per-fragment overhead far above the limit)",
      subject: "a message one byte past the limit, in small fragments"
    };
    endlessRequirement = {
      key: "endless-continuations",
      rfc: "RFC 6455 \xA75.4, \xA710.4",
      text: "a peer fails the connection on an endless series of one-byte continuation frames, or at least keeps up with them and stays responsive (Netty CVE-2014-0193 grew without bound)",
      subject: "endless one-byte continuation frames"
    };
    randomBytesRequirement = {
      key: "random-bytes",
      rfc: "RFC 6455 \xA75.2, \xA77.1.7",
      text: "a peer fails the connection on random bytes after the opening handshake (any close code, or a drop) within 10 s, and survives",
      subject: "random bytes after the 101"
    };
    ZEROS = Buffer.alloc(LIMIT_PLUS_ONE.fragmentBytes);
    CROSSED = "its refusal and the last fragments crossed";
    ONE = Buffer.from([97]);
    TOOK_ALL = "took them all";
  }
});

// src/robustness/s17-2-frames.ts
function frameHeader(label, length64, trickle = false) {
  const t = ServerBudgets.trickle;
  const waitMs = ServerBudgets.refuseAtHeaderMs + (trickle ? t.totalBytes / t.pieceBytes * t.everyMs : 1e3);
  return { label, size: 0, afterOpen: { head: hex(`82 ff ${length64} 37 fa 21 3d`), ...trickle ? { trickle: t } : {} }, waitMs };
}
var topBitLengths, declaredGigabyte, frameServerCases;
var init_s17_2_frames = __esm({
  "src/robustness/s17-2-frames.ts"() {
    "use strict";
    init_attack_judges();
    init_attack_case();
    init_attacks();
    init_frame_attacks();
    init_subgroup();
    init_define();
    topBitLengths = attackCase({
      id: "17.2.1",
      requirement: {
        key: "length-top-bit",
        rfc: "RFC 6455 \xA75.2, \xA77.1.7",
        text: "a server fails the connection at a frame header whose 64-bit length has its most significant bit set, or is 2^64 - 1 (1002, 1009 or a drop), and keeps serving (CVE-2020-27813: gorilla/websocket overflowed its read limit)",
        subject: "a 64-bit frame length with the top bit set"
      },
      advisory: ServerAdvisories.gorillaLength,
      rfc: "RFC 6455 \xA75.2, \xA77.1.7",
      description: "After a normal opening handshake, a binary frame header (0x82 0xff) with the 64-bit length 0x8000000000000000 (its most significant bit set) and no payload; then, on a fresh connection, 0xffffffffffffffff (2^64 - 1).",
      expectation: `The server fails the connection at the header, within ${ServerBudgets.refuseAtHeaderMs} ms: a close frame with 1002 (or 1009), or a dropped TCP connection.`,
      attack: {
        kind: "probes",
        probes: [frameHeader("length 0x8000000000000000", "80 00 00 00 00 00 00 00"), frameHeader("length 2^64 - 1", "ff ff ff ff ff ff ff ff")],
        judge: judgeRefusedAtHeader
      },
      maxSeconds: 15
    });
    declaredGigabyte = attackCase({
      id: "17.2.2",
      requirement: {
        key: "declared-length-refused",
        rfc: "RFC 6455 \xA710.4, \xA77.4.1",
        text: "a server with a message limit refuses a frame declaring more at its header (1009, 1002 or a drop), not after reading the payload, and keeps serving (Java-WebSocket#1507 allocated the declared size up front)",
        subject: "a frame declaring 1 GiB"
      },
      advisory: ServerAdvisories.declaredGigabyte,
      rfc: "RFC 6455 \xA710.4, \xA77.4.1",
      description: `After a normal opening handshake, a binary frame header declaring 1 GiB (0x82 0xff 00 00 00 00 40 00 00 00), then its payload trickled: ${ServerBudgets.trickle.pieceBytes} bytes every ${ServerBudgets.trickle.everyMs} ms, at most ${ServerBudgets.trickle.totalBytes.toLocaleString("en-US")} bytes.`,
      expectation: `A server with a message limit below 1 GiB refuses the frame at its header, within ${ServerBudgets.refuseAtHeaderMs} ms (1009, 1002 or a dropped connection), not after reading the payload.`,
      attack: { kind: "probes", probes: [frameHeader("1 GiB declared, trickled", "00 00 00 00 40 00 00 00", true)], judge: judgeRefusedAtHeader },
      maxSeconds: 20
    });
    frameServerCases = subgroup(
      "17.2",
      "Frames: lengths refused at the header, limit + 1 in fragments, endless continuations, random bytes",
      [
        topBitLengths,
        declaredGigabyte,
        reservedOpcodeGiB("17.2.3", "server"),
        limitPlusOne("17.2.4", "server"),
        endlessContinuations("17.2.5", "server"),
        randomBytes("17.2.6", "server")
      ]
    );
  }
});

// src/protocol/deflate/bomb.ts
import zlib2 from "node:zlib";
function bombPiece() {
  piece ??= zlib2.deflateRawSync(Buffer.alloc(BOMB_PIECE_INFLATED), { level: 9, windowBits: 9, memLevel: 9, finishFlush: zlib2.constants.Z_FULL_FLUSH });
  return piece;
}
function bombLength(pieces) {
  return pieces * bombPiece().length - SYNC_TAIL.length;
}
function bombPieceAt(i, pieces) {
  const p = bombPiece();
  return i === pieces - 1 ? p.subarray(0, p.length - SYNC_TAIL.length) : p;
}
var BOMB_PIECE_INFLATED, SYNC_TAIL, piece;
var init_bomb = __esm({
  "src/protocol/deflate/bomb.ts"() {
    "use strict";
    BOMB_PIECE_INFLATED = 4 * 1024 * 1024;
    SYNC_TAIL = Buffer.from([0, 0, 255, 255]);
    piece = null;
  }
});

// src/robustness/data/attacks-client.ts
var ClientAdvisory, REFUSE_WITHIN_S, windowBitsBudget, BOMB, bombBudget, unnegotiatedBombBudget, TRICKLE, length64Budget, declaredGiBBudget;
var init_attacks_client = __esm({
  "src/robustness/data/attacks-client.ts"() {
    "use strict";
    init_budgets();
    ClientAdvisory = {
      windowBits: "undici CVE-2026-2229: an out-of-range server_max_window_bits passed the digits-only check, and the first compressed frame made createInflateRaw throw an uncaught RangeError that ended the process (fixed in 6.24.0 and 7.24.0)",
      bomb: "undici CVE-2026-1526 (GHSA-vrm6-8vpv-qv8q): permessage-deflate inflated without bound (fixed in 6.24.0 and 7.24.0: a 4 MB limit); Python websockets CVE-2018-1000518",
      length64: "undici CVE-2026-1528: a 64-bit frame length overflowed the parser and crashed the client (fixed in 6.24.0 and 7.24.0); gorilla/websocket CVE-2020-27813: a length past the read limit",
      declaredGiB: "Java-WebSocket#1507: a 14-byte header made the peer allocate the declared length up front; a client must refuse a length past its limit at the header",
      unnegotiatedRsv1: "aiohttp GHSA-mq44-7p77-q5h7: a client inflated frames with RSV1 set though it had not negotiated permessage-deflate (a decompression bomb without the extension)"
    };
    REFUSE_WITHIN_S = 2;
    windowBitsBudget = { advisory: ClientAdvisory.windowBits, closeWithinMs: REFUSE_WITHIN_S * 1e3, memoryGrowth: MEMORY_GROWTH.small };
    BOMB = {
      /** 1 GiB of zeros: 256 pieces of 4 MiB (about 1 MB on the wire). */
      pieces: 256,
      /** Pieces per TCP write (each write after the previous one was flushed): 64 MiB inflated each. */
      piecesPerWrite: 16,
      /** A client with a message limit refuses after inflating at most that much: seconds, not minutes. */
      refuseWithinS: 10
    };
    bombBudget = { advisory: ClientAdvisory.bomb, closeWithinMs: BOMB.refuseWithinS * 1e3 };
    unnegotiatedBombBudget = {
      advisory: ClientAdvisory.unnegotiatedRsv1,
      closeWithinMs: REFUSE_WITHIN_S * 1e3,
      memoryGrowth: MEMORY_GROWTH.small
    };
    TRICKLE = {
      /** Bytes per write, one write every `everyS` seconds. */
      bytes: 1024,
      everyS: 0.1
    };
    length64Budget = { advisory: ClientAdvisory.length64, closeWithinMs: REFUSE_WITHIN_S * 1e3, memoryGrowth: MEMORY_GROWTH.small };
    declaredGiBBudget = {
      advisory: ClientAdvisory.declaredGiB,
      closeWithinMs: REFUSE_WITHIN_S * 1e3,
      memoryGrowth: MEMORY_GROWTH.small
    };
  }
});

// src/robustness/s17-3-deflate.ts
import zlib3 from "node:zlib";
function sendBomb(t, piecesPerFrame) {
  const frames = BOMB.pieces / piecesPerFrame;
  for (let f = 0; f < frames; f++) {
    const payload2 = Buffer.concat(Array.from({ length: piecesPerFrame }, (_, k) => bombPieceAt(f * piecesPerFrame + k, BOMB.pieces)));
    t.sendFrame({ opcode: f === 0 ? Opcode.Binary : Opcode.Continuation, fin: f === frames - 1, rsv: f === 0 ? RSV12 : 0, payload: payload2, sync: true });
  }
}
function bombCase(id, fragmented) {
  const perFrame = fragmented ? BOMB.piecesPerWrite : BOMB.pieces;
  const how = fragmented ? `in ${BOMB.pieces / perFrame} fragments (a binary frame with RSV1, then continuations), each inflating to 64 MiB` : "in one binary frame with RSV1";
  return defineCase({
    id,
    requirement: bombRequirement,
    description: `wsgate offers permessage-deflate; once the server accepted it, a compressed message of about 1 MB that inflates to 1 GiB of zeros, ${how}, made from one small compressed piece repeated. (RFC 6455 \xA710.4, RFC 7692 \xA78.1; ${serverBombBudget.advisory})`,
    expectation: `A server with a message limit fails the connection past it (1009, or a drop) within ${BOMB.refuseWithinS} s, with bounded memory, and echoes nothing; afterwards it still serves. Inflating the whole gigabyte (an echo, or no refusal in time) is FAILED. A server that declines permessage-deflate: UNIMPLEMENTED. Another close code is WRONG CODE, and the peer's: ws before 8.18.2 answers the bomb in one frame with 1007, the error its inflater raised on the data still queued after it stopped at its limit (ws#2285), where the limit's 1009 was due.`,
    expect: {},
    close: failedByPeer([CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: serverBombBudget,
    messageLengthOnly: true,
    deflateOffers: [{ requestNoContextTakeover: false, requestMaxWindowBits: 0 }],
    schedule: { maxSeconds: BOMB.refuseWithinS + 3, runsAlone: true, cost: 1 },
    run(t) {
      if (!t.deflateActive) {
        t.setOutcome(Behavior.Unimplemented, "The server declined permessage-deflate: there is nothing to inflate.");
        t.sendClose(CloseCode.Normal);
        return;
      }
      t.setWirelog(false, { silent: true });
      t.setOutcome(Behavior.Ok, "The server ended the connection without echoing the message.");
      sendBomb(t, perFrame);
      t.killAfter(scaledS(BOMB.refuseWithinS, t.budgets));
    },
    onMessage(t, _data, binary, length) {
      t.record({ kind: "message", data: Buffer.alloc(0), binary });
      t.setOutcome(
        Behavior.Failed,
        `The server answered the bomb with a message (${length.toLocaleString("en-US")} bytes) instead of failing the connection: it inflated it.`,
        [echoedFigure(length)]
      );
      t.sendClose(CloseCode.Normal);
    },
    adjust: ownFiguresOnly
  });
}
function statusOf3(httpResponse) {
  const m = /^HTTP\/\d\.\d (\d{3})/.exec(httpResponse ?? "");
  return m === null ? null : Number(m[1]);
}
function windowBitsOffer(id, param, bits) {
  const valid = bits >= 8 && bits <= 15;
  const offer = `permessage-deflate; ${param}=${bits}`;
  return defineCase({
    id,
    requirement: offerRequirement,
    description: `An upgrade request offering "${offer}", then a text message ("${PROBE2}"), compressed (DEFLATE literals) when the server accepted permessage-deflate. (RFC 7692 \xA77, \xA77.1.2; ${windowBitsOfferBudget.advisory})`,
    expectation: `${valid ? "8 is valid: the server accepts or declines the offer" : `${bits} is out of range (8 to 15): the server MUST decline the offer (a 101 without permessage-deflate), or refuses the handshake`}; either way it echoes the message it then gets and keeps serving. Accepting an invalid value breaks that MUST but harms no one here: NON-STRICT (the conformance check is 15.2.2, with --extended); dying or not echoing is FAILED.`,
    expect: {},
    close: failedByPeer([CloseCode.Normal]),
    attackBudget: windowBitsOfferBudget,
    schedule: { maxSeconds: 5 },
    upgradeRequest: (normal) => requestWithOffer(normal, offer),
    run(t) {
      if (t.deflateActive) t.sendFrame({ opcode: Opcode.Text, rsv: RSV12, payload: COMPRESSED_PROBE });
      else t.sendMessage(PROBE2);
      t.setOutcome(Behavior.Failed, `The server ${t.deflateActive ? "accepted the offer" : "declined the offer"} but did not echo the message.`);
      t.killAfter(scaledS(3, t.budgets));
    },
    onMessage(t, data, binary) {
      const echoed = !binary && data.toString("utf8") === PROBE2;
      const took = t.deflateActive ? "accepted the offer" : "declined the offer";
      if (!echoed) t.setOutcome(Behavior.Failed, `The server ${took}, then echoed something else (${data.length} bytes).`, [echoedFigure(data.length)]);
      else if (t.deflateActive && !valid)
        t.setOutcome(
          Behavior.NonStrict,
          `The server accepted an offer with ${param}=${bits} (out of range: RFC 7692 \xA77 says it MUST decline) and inflated the message.`
        );
      else t.setOutcome(Behavior.Ok, `The server ${took} and echoed the message.`);
      t.sendClose(CloseCode.Normal);
    },
    adjust: (verdict, facts) => withOwnFigures(facts, judgeOfferAnswer(verdict, facts))
  });
}
function judgeOfferAnswer(verdict, facts) {
  const status = statusOf3(facts.httpResponse);
  if (status === null) return settled(Behavior.Ok, "The server closed the connection without an answer (it refused the handshake).");
  if (status !== 101) return settled(Behavior.Ok, `The server refused the handshake (HTTP ${status}).`);
  if (!facts.connectionWasOpen)
    return settled(
      Behavior.Failed,
      `The server accepted the offer with an answer no client can take: ${(facts.httpResponse ?? "").split("\r\n").find((l) => /^sec-websocket-extensions:/i.test(l)) ?? "(no extension line)"}.`
    );
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: "Not judged: wsgate closes once the message is echoed (or the wait ran out)." };
}
function requestWithOffer(normal, offer) {
  const lines = [
    `GET ${normal.target} HTTP/1.1`,
    `Host: ${normal.host}`,
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${normal.key}`,
    "Sec-WebSocket-Version: 13",
    `Sec-WebSocket-Extensions: ${offer}`
  ];
  for (const [n2, v] of normal.headers ?? []) lines.push(`${n2}: ${v}`);
  return `${lines.join("\r\n")}\r
\r
`;
}
var RSV12, bombRequirement, offerRequirement, serverBombBudget, PROBE2, COMPRESSED_PROBE, settled, deflateServerCases;
var init_s17_3_deflate = __esm({
  "src/robustness/s17-3-deflate.ts"() {
    "use strict";
    init_constants();
    init_bomb();
    init_verdicts();
    init_attacks_client();
    init_budgets();
    init_attacks_frames();
    init_define();
    init_own_figures();
    init_subgroup();
    RSV12 = 4;
    bombRequirement = {
      key: "server-decompression-bomb",
      rfc: "RFC 6455 \xA710.4, RFC 7692 \xA78.1",
      text: "a server refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and keeps serving (CVE-2018-1000518: Python websockets inflated without limit)",
      subject: "a decompression bomb"
    };
    offerRequirement = {
      key: "offer-window-bits",
      rfc: "RFC 7692 \xA77, \xA77.1.2",
      text: "a server declines a permessage-deflate offer whose window bits are out of range (8 to 15) or refuses the handshake, never accepts the value, and survives the compressed message that follows",
      subject: "window bits out of range in the offer"
    };
    serverBombBudget = { advisory: FrameAdvisory.bomb, closeWithinMs: BOMB.refuseWithinS * 1e3 };
    PROBE2 = "wsgate: a compressed message after an odd offer.";
    COMPRESSED_PROBE = (() => {
      const out = zlib3.deflateRawSync(Buffer.from(PROBE2), { windowBits: 9, level: 0, finishFlush: zlib3.constants.Z_SYNC_FLUSH });
      return out.subarray(0, out.length - 4);
    })();
    settled = (behavior, result) => ({
      behavior,
      result,
      behaviorClose: CloseBehavior.Ok,
      resultClose: "Not judged: the case is about the answer to the offer."
    });
    deflateServerCases = subgroup("17.3", "permessage-deflate: a decompression bomb, window bits out of range in the offer", [
      bombCase("17.3.1", false),
      bombCase("17.3.2", true),
      // Each parameter below, at and above RFC 7692 §7.1.2.1's range (8 to 15).
      windowBitsOffer("17.3.3", "server_max_window_bits", 7),
      windowBitsOffer("17.3.4", "server_max_window_bits", 8),
      windowBitsOffer("17.3.5", "server_max_window_bits", 16),
      windowBitsOffer("17.3.6", "client_max_window_bits", 7),
      windowBitsOffer("17.3.7", "client_max_window_bits", 8),
      windowBitsOffer("17.3.8", "client_max_window_bits", 16)
    ]);
  }
});

// src/robustness/data/attacks-closing.ts
function neverClosedBudget(peer) {
  return peer === "server" ? { advisory: ClosingAdvisory.neverClosed, closeWithinMs: SERVER_DROP_MS, memoryGrowth: MEMORY_GROWTH.small, cpuMs: WAITING_CPU_MS } : { advisory: ClosingAdvisory.neverClosed, closeWithinMs: 0, stall: true, memoryGrowth: MEMORY_GROWTH.small, cpuMs: WAITING_CPU_MS };
}
var ClosingAdvisory, PING_FLOOD, SLOW_ECHO, STALL_MARGIN_S, SERVER_DROP_MS, pingFloodBudget, slowEchoBudget, WAITING_CPU_MS, unansweredCloseBudget;
var init_attacks_closing = __esm({
  "src/robustness/data/attacks-closing.ts"() {
    "use strict";
    init_budgets();
    ClosingAdvisory = {
      pingFlood: 'CVE-2019-9512 ("Ping Flood", HTTP/2): a peer that answers every ping while its writes back up queues the answers without bound; RFC 6455 \xA75.5.3 lets a WebSocket peer answer only the most recent ping',
      slowReader: 'CVE-2019-9517 ("Internal Data Buffering", HTTP/2): a peer that keeps reading requests while its answers cannot leave buffers them without bound; undici#5503 (a WebSocket reader without back-pressure)',
      unansweredClose: "streamr-dev/broker#100: server connections whose closing handshake was never completed stayed open (fixed with a timeout); ws drops an unanswered close after its 30 s closeTimeout",
      neverClosed: "dotnet/corefx#33339: ManagedWebSocket did not close TCP after a completed closing handshake; RFC 6455 \xA77.1.1: the server closes TCP first, a client waits for it, but not forever (ws: 30 s)"
    };
    PING_FLOOD = {
      /** Ping payload bytes (the most a control frame carries, RFC 6455 §5.5). */
      payloadBytes: 125,
      /** Pings per write, each write awaited (flushed) before the next: about 64 KiB. */
      pingsPerWrite: 500,
      /** Ping bytes written at most (32 MiB), unless the peer stops reading first. */
      totalBytes: 32 * 1024 * 1024,
      /** A write the peer has not taken within this many seconds: it stopped reading (back-pressure, fine). */
      stalledAfterS: 2,
      /** Reading again: pongs are counted until none came for this many seconds. */
      quietS: 1,
      /** ... or for at most this many seconds. */
      countForS: 15,
      /**
       * Pong bytes the peer may deliver once wsgate reads again: 16 MiB. What the kernel's buffers hold
       * on loopback (the peer's send buffer, up to 4 MiB by Linux's default tcp_wmem, and wsgate's
       * receive buffer, which does not grow while nothing is read) is a few MiB; a peer that answers
       * only the latest ping, or stops reading while its answers back up, delivers no more than that and
       * what it holds itself. One that answers every ping into an unbounded queue delivers about what
       * wsgate wrote (31 MiB of pongs for 32 MiB of pings).
       */
      pongBudgetBytes: 16 * 1024 * 1024
    };
    SLOW_ECHO = {
      /**
       * The large message: 16 MiB, in fragments of 64 KiB. Its echo cannot all leave: the kernel's
       * buffers toward wsgate (the peer's send buffer, up to 4 MiB by Linux's default tcp_wmem, and
       * wsgate's receive buffer, which does not grow while it reads slowly) hold a few MiB of it.
       */
      messageBytes: 16 * 1024 * 1024,
      fragmentBytes: 64 * 1024,
      /**
       * wsgate reads at this rate for `windowS` seconds: long enough that a peer reading at a modest
       * 3 MiB/s takes the message in 5.3 s and then 17 MiB of further messages.
       */
      readBytesPerSecond: 1024,
      windowS: 11,
      /** Further 64 KiB messages written after it, each once the previous was taken, up to this many bytes. */
      furtherCapBytes: 48 * 1024 * 1024,
      /** A write the peer has not taken within this many seconds: it stopped reading. */
      stalledAfterS: 1,
      /**
       * Bytes of further messages the peer may hold as echoes that cannot leave: 4 MiB, a bounded queue
       * of its own. Held is what it echoed, once wsgate reads freely again, past the large message and
       * what was still in the kernel's buffers toward it at the window's end (the echoes of bytes it
       * read only then). A peer with back-pressure stops reading (ws: about 0.1 MiB); one that reads on
       * and drops what it cannot send (load shedding) echoes little; one that queues every echo holds
       * everything it read past the message.
       */
      heldBudgetBytes: 4 * 1024 * 1024,
      /**
       * The same where the kernel's buffers cannot be read (the peer's socket is not on this machine):
       * they are counted in, a few MiB each way, so the bound is 16 MiB.
       */
      heldBudgetUnreadUnknownBytes: 16 * 1024 * 1024
    };
    STALL_MARGIN_S = 2;
    SERVER_DROP_MS = 2e3;
    pingFloodBudget = { advisory: ClosingAdvisory.pingFlood, closeWithinMs: 6e4, memoryGrowth: MEMORY_GROWTH.small };
    slowEchoBudget = { advisory: ClosingAdvisory.slowReader, closeWithinMs: 6e4, memoryGrowth: MEMORY_GROWTH.echo };
    WAITING_CPU_MS = 1e3;
    unansweredCloseBudget = {
      advisory: ClosingAdvisory.unansweredClose,
      closeWithinMs: 0,
      stall: true,
      memoryGrowth: MEMORY_GROWTH.small,
      cpuMs: WAITING_CPU_MS
    };
  }
});

// src/robustness/closing-attacks.ts
function count2(n2) {
  return Math.round(n2).toLocaleString("en-US");
}
function seconds(s) {
  return s.toLocaleString("en-US", { maximumFractionDigits: 1 });
}
function tally(t) {
  let s = tallies.get(t);
  if (s === void 0) {
    s = { bytes: 0, lastAt: performance.now() };
    tallies.set(t, s);
  }
  return s;
}
function endedDuringIsOk(verdict) {
  if (!verdict.result.startsWith(ENDED_DURING)) return verdict;
  return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: "Not judged: the peer ended the connection during the attack." };
}
async function writeWhileTaken(t, plan, write, taken) {
  let sofar = 0;
  while (sofar < plan.total && t.isOpen && performance.now() < (plan.deadline ?? Infinity)) {
    const n2 = write();
    if (!await t.flushed({ within: plan.stalledAfterS })) return { taken: sofar, stalled: t.isOpen };
    sofar += n2;
    taken(sofar);
  }
  return { taken: sofar, stalled: false };
}
async function untilQuiet(t, quietS, maxS) {
  const s = tally(t);
  const start = performance.now();
  s.lastAt = start;
  while (performance.now() - s.lastAt < quietS * 1e3 && performance.now() - start < maxS * 1e3) await t.pause(0.1);
}
async function untilDrained(t, expected, maxS) {
  const s = tally(t);
  const start = performance.now();
  s.lastAt = start;
  const quietMs = () => performance.now() - s.lastAt;
  while (performance.now() - start < maxS * 1e3 && quietMs() < 3e3 && !(s.bytes >= expected && quietMs() >= 1e3)) await t.pause(0.1);
}
async function pingFlood(t) {
  const f = PING_FLOOD;
  const payload2 = Buffer.alloc(f.payloadBytes, 112);
  t.setWirelog(false, { silent: true });
  t.readRate(0);
  const pings = (bytes2) => `${count2(bytes2 / f.payloadBytes)} pings (${count2(bytes2)} payload bytes)`;
  const pingFigures = (bytes2) => [
    statedFigure("ping-count", "pings the peer took while wsgate read nothing", bytes2 / f.payloadBytes, "count"),
    statedFigure("ping-payload-bytes", "of ping payload", bytes2, "bytes")
  ];
  const during = (bytes2) => t.setOutcome(Behavior.Ok, `${ENDED_DURING}: the peer had taken ${pings(bytes2)} while wsgate read nothing.`, pingFigures(bytes2));
  during(0);
  const { taken, stalled } = await writeWhileTaken(
    t,
    { total: f.totalBytes, stalledAfterS: f.stalledAfterS },
    () => {
      for (let i = 0; i < f.pingsPerWrite; i++) t.sendPing(payload2);
      return f.pingsPerWrite * f.payloadBytes;
    },
    during
  );
  if (!t.isOpen) return;
  const wrote = `wsgate wrote ${pings(taken)} while reading nothing${stalled ? `, until the peer stopped taking them for ${f.stalledAfterS} s (back-pressure)` : ""}`;
  t.readRate(null);
  await untilQuiet(t, f.quietS, f.countForS);
  const pongs = tally(t).bytes;
  const figure = `${wrote}; once it read again the peer delivered ${count2(pongs)} pong payload bytes (budget ${count2(f.pongBudgetBytes)}).`;
  const figures = [...pingFigures(taken), pongFigure(pongs)];
  if (pongs > f.pongBudgetBytes) t.setOutcome(Behavior.Failed, `The peer queued its pongs without bound while wsgate read nothing: ${figure}`, figures);
  else t.setOutcome(Behavior.Ok, `The peer's pongs stayed bounded: ${figure}`, figures);
  t.setWirelog(true, { silent: true });
  t.sendClose(CloseCode.Normal);
}
function pongFigure(bytes2) {
  return budgetFigure("pong-payload-bytes", "of pong payload the peer delivered once wsgate read again", bytes2, "bytes", PING_FLOOD.pongBudgetBytes);
}
function pingFloodCase(id) {
  const f = PING_FLOOD;
  return defineCase({
    id,
    description: `While wsgate reads nothing, pings of ${f.payloadBytes} bytes, ${f.pingsPerWrite} per write, each write once the peer took the previous one, up to ${count2(f.totalBytes)} payload bytes; then wsgate reads again and counts the pong bytes the peer delivers, then closes with 1000. (RFC 6455 \xA75.5.2, \xA75.5.3; ${pingFloodBudget.advisory})`,
    expectation: `The peer answers only some pings (RFC 6455 \xA75.5.3 lets it answer the most recent only), or stops reading while its answers back up: at most ${count2(f.pongBudgetBytes)} pong payload bytes arrive once wsgate reads again (its kernel buffers hold a few MiB), and it completes the closing handshake. Ending the connection during the flood is also OK. Queuing every pong (about as many bytes as the pings) is FAILED.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    attackBudget: pingFloodBudget,
    schedule: { maxSeconds: pingFloodBudget.closeWithinMs / 1e3, runsAlone: true, cost: 3 },
    run: pingFlood,
    onPong(t, data) {
      const s = tally(t);
      const before = s.bytes;
      s.bytes += data.length;
      s.lastAt = performance.now();
      if (before <= f.pongBudgetBytes && s.bytes > f.pongBudgetBytes)
        t.setOutcome(
          Behavior.Failed,
          `The peer queued its pongs without bound while wsgate read nothing: more than ${count2(f.pongBudgetBytes)} pong payload bytes arrived once wsgate read again.`,
          [pongFigure(s.bytes)]
        );
    },
    adjust: (verdict, facts) => withOwnFigures(facts, endedDuringIsOk(verdict))
  });
}
async function slowEcho(t) {
  const e = SLOW_ECHO;
  const piece2 = Buffer.alloc(e.fragmentBytes, 101);
  const fragments = e.messageBytes / e.fragmentBytes;
  t.setWirelog(false, { silent: true });
  t.readRate(e.readBytesPerSecond);
  const windowEnds = performance.now() + e.windowS * 1e3;
  let i = 0;
  const during = (bytes2) => t.setOutcome(Behavior.Ok, `${ENDED_DURING}: the peer had taken ${count2(bytes2)} bytes while wsgate read at ${count2(e.readBytesPerSecond)} bytes/s.`, [
    statedFigure("taken-bytes", "the peer had taken while wsgate read slowly", bytes2, "bytes")
  ]);
  during(0);
  const write = () => {
    if (i < fragments) t.sendFrame({ opcode: i === 0 ? Opcode.Binary : Opcode.Continuation, fin: i === fragments - 1, payload: piece2 });
    else t.sendMessage(piece2, { binary: true });
    i += 1;
    return piece2.length;
  };
  const { taken, stalled } = await writeWhileTaken(
    t,
    { total: e.messageBytes + e.furtherCapBytes, stalledAfterS: e.stalledAfterS, deadline: windowEnds },
    write,
    during
  );
  const rest = windowEnds - performance.now();
  if (rest > 0) await t.pause(rest / 1e3);
  const unread = t.unreadByPeer();
  const read = Math.max(0, taken - (unread ?? 0));
  const further = Math.max(0, read - e.messageBytes);
  const buffers = unread === null ? `wsgate flushed ${count2(taken)} bytes to the kernel, its buffers counted in (the peer's socket is not on this machine)` : `wsgate flushed ${count2(taken)} bytes to the kernel, ${count2(unread)} of them still in its buffers unread`;
  const wrote = `while wsgate read at ${count2(e.readBytesPerSecond)} bytes/s for ${e.windowS} s, the peer read ${count2(read)} bytes: the ${count2(Math.min(read, e.messageBytes))}-byte message and ${count2(further)} bytes of further messages (${buffers})`;
  const readFigures = [
    statedFigure("peer-read-bytes", "the peer read while wsgate read slowly", read, "bytes"),
    statedFigure("message-read-bytes", "of them of the large message", Math.min(read, e.messageBytes), "bytes"),
    statedFigure("further-read-bytes", "of them of further messages", further, "bytes"),
    statedFigure("flushed-bytes", "wsgate flushed to the kernel", taken, "bytes"),
    ...unread === null ? [] : [statedFigure("unread-bytes", "of them still in the kernel's buffers unread", unread, "bytes")]
  ];
  t.setOutcome(Behavior.Ok, `${ENDED_DURING}: ${wrote}.`, readFigures);
  t.readRate(null);
  await untilDrained(t, Math.floor(taken / (e.fragmentBytes + FRAME_HEAD_MAX)) * e.fragmentBytes, 30);
  const echoed = tally(t).bytes;
  const held = Math.max(0, echoed - e.messageBytes - (unread ?? 0));
  const budget = unread === null ? e.heldBudgetUnreadUnknownBytes : e.heldBudgetBytes;
  const over = held > budget;
  const notCounted = unread === null ? "" : `; the echoes of the ${count2(unread)} bytes the kernel still held toward it not counted`;
  const after = `reading freely again, wsgate received ${count2(echoed)} bytes of echoes: besides the message's, ${count2(held)} bytes of further messages' echoes the peer held (budget ${count2(budget)}${notCounted})`;
  const stop = stalled ? over ? "; its reading stopped only after that" : "; then its reading stopped (back-pressure)" : "";
  const figures = [
    ...readFigures,
    statedFigure("echo-bytes", "of echoes wsgate received reading freely again", echoed, "bytes"),
    judgedFigure("further-held-bytes", "of further messages' echoes the peer held", held, "bytes", budget, over)
  ];
  const lead = over ? "The peer read on while its echo could not leave, queuing the echoes" : !stalled && further > budget ? "The peer read on while its echo could not leave but dropped the echoes it could not send (load shedding), holding little" : "The peer stayed bounded while its echo was read slowly";
  t.setOutcome(over ? Behavior.Failed : Behavior.Ok, `${lead}: ${wrote}${stop}; ${after}.`, figures);
  t.setWirelog(true, { silent: true });
  t.sendClose(CloseCode.Normal);
}
function slowEchoCase(id) {
  const e = SLOW_ECHO;
  return defineCase({
    id,
    description: `A binary message of ${count2(e.messageBytes)} bytes in ${count2(e.fragmentBytes)}-byte fragments, then further ${count2(e.fragmentBytes)}-byte messages (at most ${count2(e.furtherCapBytes)} bytes), each write once the peer took the previous one, while wsgate reads the echoes at ${count2(e.readBytesPerSecond)} bytes/s for ${e.windowS} s; then it reads freely and closes with 1000. (RFC 6455 \xA710.4; ${slowEchoBudget.advisory})`,
    expectation: `The peer holds no more than ${count2(e.heldBudgetBytes)} bytes of echoes of further messages while its echo cannot leave: it stops reading (back-pressure), drops what it cannot send (load shedding), or drops the connection; then it completes the closing handshake. Reading on and queuing every echo (all it read past the message) is FAILED.`,
    expect: {},
    close: closedByMe([CloseCode.Normal]),
    suppressClose: true,
    attackBudget: slowEchoBudget,
    messageLengthOnly: true,
    schedule: { maxSeconds: slowEchoBudget.closeWithinMs / 1e3, runsAlone: true, cost: e.windowS + 2 },
    run: slowEcho,
    onMessage(t, _data, _binary, length) {
      const s = tally(t);
      s.bytes += length;
      s.lastAt = performance.now();
    },
    adjust: (verdict, facts) => withOwnFigures(facts, endedDuringIsOk(verdict))
  });
}
function unansweredClose(t) {
  t.holdClose();
  t.setOutcome(Behavior.Ok, "The peer failed the connection on the reserved opcode and ended TCP though wsgate never answered its close.");
  t.sendFrame({ opcode: 3, payload: "" });
  const limitS = t.budgets.stallMs / 1e3 + STALL_MARGIN_S;
  t.continueLater(limitS, () => {
    t.setOutcome(
      Behavior.Failed,
      `The peer kept the connection open for ${seconds(limitS)} s after the reserved opcode, past the stall budget: with its close unanswered (or without failing the connection at all) it never ended TCP. wsgate closed it.`,
      [budgetFigure("held-open-ms", "the peer kept the connection open after the reserved opcode", limitS * 1e3, "ms", t.budgets.stallMs)]
    );
    t.sendClose(CloseCode.Normal);
    t.continueLater(1, () => t.dropConnection());
  });
}
function unansweredCloseCase(id) {
  return defineCase({
    id,
    description: `A frame with the reserved opcode 3 (RFC 6455 \xA75.2: the peer must fail the connection); wsgate then neither answers the peer's close frame nor ends TCP. (RFC 6455 \xA75.2, \xA77.1.1, \xA77.1.7; ${unansweredCloseBudget.advisory})`,
    expectation: `The peer sends its close (1002) and, its close unanswered, ends TCP itself within the stall budget (${count2(DEFAULT_BUDGETS.stallMs)} ms unless --budget stall= says otherwise). Keeping the connection past it is FAILED.`,
    expect: {},
    close: failedByPeer([CloseCode.ProtocolError]),
    suppressClose: true,
    attackBudget: unansweredCloseBudget,
    schedule: { maxSeconds: DEFAULT_BUDGETS.stallMs / 1e3 + STALL_MARGIN_S + 3, idle: true, cost: 1 },
    run: unansweredClose,
    adjust: ownFiguresOnly
  });
}
function neverClosed(peer) {
  return (t) => {
    t.holdClose();
    const budgetMs = peer === "server" ? scaledMs(neverClosedBudget("server").closeWithinMs, t.budgets) : t.budgets.stallMs;
    t.setOutcome(Behavior.Ok, `The peer answered wsgate's close and ended TCP though wsgate kept it open.`);
    t.sendClose(CloseCode.Normal);
    const limitS = budgetMs / 1e3 + STALL_MARGIN_S;
    t.continueLater(limitS, () => {
      t.setOutcome(
        Behavior.Failed,
        `The peer kept TCP open for ${seconds(limitS)} s after the closing handshake, past its budget of ${count2(budgetMs)} ms: it waits for wsgate to end the connection, without a timeout. wsgate dropped it.`,
        [budgetFigure("held-open-ms", "the peer kept TCP open after the closing handshake", limitS * 1e3, "ms", budgetMs)]
      );
      t.dropConnection();
    });
  };
}
function unansweredIsFailed(verdict) {
  if (verdict.behaviorClose !== CloseBehavior.Unclean) return verdict;
  return {
    ...verdict,
    behavior: Behavior.Failed,
    result: "The peer never answered wsgate's close frame: wsgate dropped TCP at its closing-handshake timeout."
  };
}
function neverClosedCase(id, peer) {
  const budget = neverClosedBudget(peer);
  const within = peer === "server" ? `within ${count2(budget.closeWithinMs)} ms (RFC 6455 \xA77.1.1: the server closes TCP first, at once)` : `within the stall budget (${count2(DEFAULT_BUDGETS.stallMs)} ms unless --budget stall= says otherwise: a client waits for the server to end TCP, but not forever)`;
  return defineCase({
    id,
    description: `wsgate sends a close frame (1000); once the peer answered with its own, wsgate never ends TCP. (RFC 6455 \xA77.1.1; ${budget.advisory})`,
    expectation: `The ${peer} answers the close and ends TCP itself ${within}. Keeping it open past the budget, or never answering the close, is FAILED.`,
    expect: {},
    close: { ...closedByMe([CloseCode.Normal]), requireClean: true },
    suppressClose: true,
    attackBudget: budget,
    schedule: { maxSeconds: (peer === "server" ? budget.closeWithinMs : DEFAULT_BUDGETS.stallMs) / 1e3 + STALL_MARGIN_S + 3, idle: true, cost: 1 },
    run: neverClosed(peer),
    adjust: (verdict, facts) => withOwnFigures(facts, unansweredIsFailed(verdict))
  });
}
function closingRequirements(peer) {
  const drop = peer === "server" ? "ends TCP at once (a server closes it first)" : "ends TCP within the stall budget (a client waits for the server, but not forever)";
  return {
    pingFlood: {
      key: "ping-flood-bounded",
      rfc: "RFC 6455 \xA75.5.3",
      text: `a ${peer} flooded with pings by a peer that reads nothing answers only some (RFC 6455 \xA75.5.3: the most recent may do) or stops reading: the pongs it delivers afterwards stay within the budget (CVE-2019-9512, the HTTP/2 ping flood)`,
      subject: "a ping flood with nothing read"
    },
    slowEcho: {
      key: "slow-reader-bounded",
      rfc: "RFC 6455 \xA710.4",
      text: `a ${peer} whose echo is read at 1 KiB/s stops reading further messages (back-pressure) or drops the connection, rather than queuing its echoes without bound (CVE-2019-9517, HTTP/2 internal data buffering)`,
      subject: "a large echo read slowly"
    },
    unansweredClose: {
      key: "unanswered-close-dropped",
      rfc: "RFC 6455 \xA77.1.1, \xA77.1.7",
      text: `a ${peer} that failed the connection (1002 on a reserved opcode) and got no answer to its close ends TCP itself within the stall budget`,
      subject: "a close frame left unanswered"
    },
    neverClosed: {
      key: "never-closed-dropped",
      rfc: "RFC 6455 \xA77.1.1",
      text: `a ${peer} that answered wsgate's close ${drop}, though wsgate keeps TCP open`,
      subject: "a connection never closed after the closing handshake"
    }
  };
}
function closingAttacks(peer) {
  const r = closingRequirements(peer);
  return {
    pingFlood: (id) => ({ ...pingFloodCase(id), requirement: r.pingFlood }),
    slowEcho: (id) => ({ ...slowEchoCase(id), requirement: r.slowEcho }),
    unansweredClose: (id) => ({ ...unansweredCloseCase(id), requirement: r.unansweredClose }),
    neverClosed: (id) => ({ ...neverClosedCase(id, peer), requirement: r.neverClosed })
  };
}
var tallies, ENDED_DURING, FRAME_HEAD_MAX;
var init_closing_attacks = __esm({
  "src/robustness/closing-attacks.ts"() {
    "use strict";
    init_constants();
    init_verdicts();
    init_define();
    init_attacks_closing();
    init_budgets();
    init_judgement();
    init_own_figures();
    tallies = /* @__PURE__ */ new WeakMap();
    ENDED_DURING = "The peer ended the connection during the attack";
    FRAME_HEAD_MAX = 14;
  }
});

// src/robustness/s17-4-closing.ts
var c, closingServerCases;
var init_s17_4_closing = __esm({
  "src/robustness/s17-4-closing.ts"() {
    "use strict";
    init_closing_attacks();
    init_subgroup();
    c = closingAttacks("server");
    closingServerCases = subgroup(
      "17.4",
      "Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed",
      [c.pingFlood("17.4.1"), c.slowEcho("17.4.2"), c.unansweredClose("17.4.3"), c.neverClosed("17.4.4")]
    );
  }
});

// src/robustness/s18-1-window-bits.ts
import zlib4 from "node:zlib";
function windowBitsCase(id, param, bits) {
  const valid = bits >= 8 && bits <= 15;
  const rule = valid ? `RFC 7692 \xA77.1.2.1: ${param} is "a decimal integer value without leading zeroes between 8 to 15, inclusive": 8 is valid. The client takes it and echoes the message, or fails the connection because it "does not support the configuration that the response represents" (\xA77.1; zlib has no 256-byte window): both are OK.` : `RFC 7692 \xA77.1: a response with "an extension parameter with an invalid value" (${param} must be 8 to 15, \xA77.1.2) means the client MUST _Fail the WebSocket Connection_: a close frame (1010 or any code) or a drop. Taking the value and inflating anyway is NON-STRICT.`;
  return defineCase({
    id,
    requirement: valid ? eightBits : outOfRange,
    description: `A 101 response accepting permessage-deflate with "${param}=${bits}", then in the same write a compressed text message ("${PROBE}", DEFLATE literals). (RFC 7692 \xA77.1, \xA77.1.2; ${windowBitsBudget.advisory})`,
    expectation: `${rule} Whatever it does, the client process must not die: one that exits on an uncaught exception or a signal, before its close or after it, is FAILED. Without a permessage-deflate offer from the client the case is UNIMPLEMENTED.`,
    expect: {},
    close: refused,
    suppressClose: true,
    attackBudget: windowBitsBudget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
    handshake(info) {
      const offer = info.deflateOffers[0];
      if (offer === void 0) return null;
      const response = head(SWITCHING, [...upgradeLines(info), `Sec-WebSocket-Extensions: permessage-deflate; ${param}=${bits}`]);
      return { head: response, delivery: "together", deflate: { offer, requestNoContextTakeover: false, requestMaxWindowBits: 0 } };
    },
    run(t) {
      if (!t.scriptedHandshake) {
        unimplemented(t, "permessage-deflate was not negotiated (the client offered none).");
        return;
      }
      t.setOutcome(Behavior.Ok, REFUSED);
      t.sendFrame({ opcode: Opcode.Text, rsv: RSV13, payload: COMPRESSED_PROBE2 });
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    },
    onMessage(t, data, binary) {
      if (!binary && data.toString("utf8") === PROBE) t.setOutcome(valid ? Behavior.Ok : Behavior.NonStrict, ACCEPTED);
      else
        t.setOutcome(Behavior.Failed, `The client echoed a message other than the one sent (${binary ? "binary" : "text"}, ${data.length} bytes).`, [
          echoedFigure(data.length)
        ]);
      t.sendClose(CloseCode.Normal);
    },
    adjust(verdict, facts) {
      const scripted = unimplementedUnlessScripted("deflate-offer")(verdict, facts);
      if (scripted !== verdict) return scripted;
      return withOwnFigures(facts, judgeRefusal(verdict));
    }
  });
}
function judgeRefusal(verdict) {
  if (verdict.result === ACCEPTED)
    return { ...verdict, behaviorClose: CloseBehavior.Ok, resultClose: "Not judged: the client took the response; wsgate closed after the echo." };
  if (verdict.result === REFUSED && verdict.behaviorClose === CloseBehavior.Failed) {
    return {
      ...verdict,
      behavior: Behavior.Failed,
      result: `The client neither refused the response nor echoed the compressed message within ${REFUSE_WITHIN_S} s.`
    };
  }
  return verdict;
}
var RSV13, COMPRESSED_PROBE2, REFUSED, ACCEPTED, outOfRange, eightBits, windowBitsClientCases;
var init_s18_1_window_bits = __esm({
  "src/robustness/s18-1-window-bits.ts"() {
    "use strict";
    init_subgroup();
    init_constants();
    init_verdicts();
    init_budgets();
    init_attacks_client();
    init_define();
    init_handshake_scripts();
    init_own_figures();
    RSV13 = 4;
    COMPRESSED_PROBE2 = (() => {
      const out = zlib4.deflateRawSync(Buffer.from(PROBE), { windowBits: 9, level: 1, finishFlush: zlib4.constants.Z_SYNC_FLUSH });
      return out.subarray(0, out.length - 4);
    })();
    REFUSED = "The client refused the response: it ended the connection without echoing the compressed message.";
    ACCEPTED = "The client took the response and inflated the compressed message (its echo matches).";
    outOfRange = {
      key: "window-bits-out-of-range",
      rfc: "RFC 7692 \xA77.1, \xA77.1.2",
      text: "a client fails the connection on a permessage-deflate answer whose window bits are out of range (8 to 15), and its process survives the compressed frame that follows (CVE-2026-2229: undici before 6.24.0 died of an uncaught RangeError)",
      subject: "window bits out of range in the 101"
    };
    eightBits = {
      key: "window-bits-eight",
      rfc: "RFC 7692 \xA77.1, \xA77.1.2.1",
      text: "a client takes window bits of 8 in a permessage-deflate answer (valid: 8 to 15) or fails the connection cleanly because it cannot use them (zlib has no 256-byte window), and its process survives the compressed frame that follows (CVE-2026-2229 is the out-of-range variant)",
      subject: "window bits of 8 in the 101"
    };
    windowBitsClientCases = subgroup(
      "18.1",
      "permessage-deflate window bits out of range, then a compressed frame (undici CVE-2026-2229)",
      [
        // Each parameter below, at and above RFC 7692 §7.1.2.1's range (8 to 15).
        windowBitsCase("18.1.1", "server_max_window_bits", 7),
        windowBitsCase("18.1.2", "server_max_window_bits", 8),
        windowBitsCase("18.1.3", "server_max_window_bits", 16),
        windowBitsCase("18.1.4", "client_max_window_bits", 7),
        windowBitsCase("18.1.5", "client_max_window_bits", 8),
        windowBitsCase("18.1.6", "client_max_window_bits", 16)
      ]
    );
  }
});

// src/protocol/frame-writer.ts
import { createRequire } from "node:module";
function encodeFrameHeader(opcode, fin, rsv, length, mask) {
  checkLength(length);
  checkMask(mask);
  const out = Buffer.allocUnsafe(headerSize(length, mask !== null));
  writeHeader(out, opcode, fin, rsv, length, mask);
  return out;
}
function headerSize(length, masked) {
  const ext = length < 126 ? 0 : length < 65536 ? 2 : 8;
  return 2 + ext + (masked ? 4 : 0);
}
function writeHeader(out, opcode, fin, rsv, length, mask) {
  out[0] = (fin ? 128 : 0) | (rsv & 7) << 4 | opcode & 15;
  const maskBit = mask !== null ? 128 : 0;
  let pos;
  if (length < 126) {
    out[1] = maskBit | length;
    pos = 2;
  } else if (length < 65536) {
    out[1] = maskBit | 126;
    out.writeUInt16BE(length, 2);
    pos = 4;
  } else {
    out[1] = maskBit | 127;
    out.writeUInt32BE(Math.floor(length / 4294967296), 2);
    out.writeUInt32BE(length >>> 0, 6);
    pos = 10;
  }
  if (mask !== null) out.set(mask, pos);
}
function checkLength(length) {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`payload length must be a non-negative safe integer, got ${length}`);
  }
}
function checkMask(mask) {
  if (mask !== null && mask.length !== 4) throw new RangeError(`mask must be 4 bytes, got ${mask.length}`);
}
var bufferUtil, nativeUnmask, nativeMask;
var init_frame_writer = __esm({
  "src/protocol/frame-writer.ts"() {
    "use strict";
    init_bytes();
    bufferUtil = (() => {
      try {
        return createRequire(import.meta.url)("bufferutil");
      } catch {
        return null;
      }
    })();
    nativeUnmask = typeof bufferUtil?.unmask === "function" ? bufferUtil.unmask : null;
    nativeMask = typeof bufferUtil?.mask === "function" ? bufferUtil.mask : null;
  }
});

// src/robustness/s18-2-bombs.ts
function sendBomb2(t, fragmented) {
  const writes = BOMB.pieces / BOMB.piecesPerWrite;
  const piecesOf = (w) => Buffer.concat(Array.from({ length: BOMB.piecesPerWrite }, (_, k) => bombPieceAt(w * BOMB.piecesPerWrite + k, BOMB.pieces)));
  if (!fragmented) t.sendRaw(encodeFrameHeader(Opcode.Binary, true, RSV14, bombLength(BOMB.pieces), null));
  for (let w = 0; w < writes; w++) {
    const body = piecesOf(w);
    if (!fragmented) {
      t.sendRaw(body, { sync: true });
      continue;
    }
    const header = encodeFrameHeader(w === 0 ? Opcode.Binary : Opcode.Continuation, w === writes - 1, w === 0 ? RSV14 : 0, body.length, null);
    t.sendRaw(Buffer.concat([header, body]), { sync: true });
  }
}
function bombCase2(id, fragmented) {
  const how = fragmented ? `in ${BOMB.pieces / BOMB.piecesPerWrite} fragments (a binary frame with RSV1, then continuations), each inflating to 64 MiB` : "in one binary frame with RSV1";
  return defineCase({
    id,
    requirement: bombRequirement2,
    description: `After a normal permessage-deflate negotiation, a compressed message of about 1 MB that inflates to 1 GiB of zeros, ${how}, written as it is generated (wsgate never holds it). (RFC 6455 \xA710.4, \xA77.4.1; ${bombBudget.advisory})`,
    expectation: `RFC 6455 \xA710.4: a client SHOULD limit the message size after reassembly; past its limit it fails the connection with 1009 (or drops it) within ${BOMB.refuseWithinS} s, with bounded memory, and echoes nothing. A client that inflates the whole gigabyte is too slow or echoes it: FAILED. Without permessage-deflate the case is UNIMPLEMENTED.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: bombBudget,
    messageLengthOnly: true,
    schedule: { maxSeconds: BOMB.refuseWithinS + 2, runsAlone: true, cost: 1 },
    deflate: (offers) => acceptOffer(acceptFirstOffer, offers),
    run(t) {
      if (!t.deflateActive) {
        t.sendClose(CloseCode.Normal);
        return;
      }
      sendBomb2(t, fragmented);
      t.killAfter(scaledS(BOMB.refuseWithinS, t.budgets));
    },
    // A client that offered no permessage-deflate is not judged: the bomb was never sent.
    adjust: (verdict, facts) => facts.deflateActive === true ? withOwnFigures(facts, verdict) : NO_DEFLATE,
    onMessage(t, _data, binary, length) {
      t.record({ kind: "message", data: Buffer.alloc(0), binary });
      t.setOutcome(Behavior.Failed, `The client echoed a message of ${length} bytes: it took the bomb.`, [echoedFigure(length)]);
      t.sendClose(CloseCode.Normal);
    }
  });
}
var RSV14, bombRequirement2, NO_DEFLATE, unnegotiatedBombCase, bombClientCases;
var init_s18_2_bombs = __esm({
  "src/robustness/s18-2-bombs.ts"() {
    "use strict";
    init_subgroup();
    init_constants();
    init_bomb();
    init_frame_writer();
    init_verdicts();
    init_budgets();
    init_deflate_cases();
    init_attacks_client();
    init_define();
    init_own_figures();
    RSV14 = 4;
    bombRequirement2 = {
      key: "decompression-bomb",
      rfc: "RFC 7692 \xA78.1, RFC 6455 \xA710.4",
      text: "a client refuses a compressed message that inflates past its limit (1009 or a drop) with bounded memory, and its process survives (CVE-2026-1526: undici before 6.24.0 inflated without limit; CVE-2018-1000518: Python websockets)",
      subject: "a decompression bomb"
    };
    NO_DEFLATE = {
      behavior: Behavior.Unimplemented,
      result: "permessage-deflate was not negotiated (the client offered none): the bomb was not sent.",
      behaviorClose: CloseBehavior.Ok,
      resultClose: "Not judged: the case does not apply to this client."
    };
    unnegotiatedBombCase = defineCase({
      id: "18.2.3",
      requirement: {
        key: "client-rsv1-unnegotiated",
        rfc: "RFC 6455 \xA75.2",
        text: "a client fails the connection on a frame with RSV1 set when no extension was negotiated, at its first byte, inflating nothing (aiohttp GHSA-mq44-7p77-q5h7 inflated such frames: a decompression bomb without the extension)",
        subject: "a compressed frame without permessage-deflate"
      },
      description: `The 101 declines permessage-deflate (whatever the client offered); then 18.2.1's bomb in one binary frame with RSV1 set, as if the extension were in use. (RFC 6455 \xA75.2; ${unnegotiatedBombBudget.advisory})`,
      expectation: `RFC 6455 \xA75.2: RSV1 without a negotiated extension MUST fail the connection: the client fails it at the frame's first byte (1002, or a drop) within ${REFUSE_WITHIN_S} s, inflating nothing and echoing nothing, and its process does not die. Inflating the frame (its memory grows) or echoing anything is FAILED.`,
      expect: { OK: [] },
      close: failedByPeer([CloseCode.ProtocolError]),
      suppressClose: true,
      attackBudget: unnegotiatedBombBudget,
      messageLengthOnly: true,
      schedule: { maxSeconds: REFUSE_WITHIN_S + 2, runsAlone: true, cost: 1 },
      run(t) {
        sendBomb2(t, false);
        t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
      },
      onMessage(t, _data, binary, length) {
        t.record({ kind: "message", data: Buffer.alloc(0), binary });
        t.setOutcome(Behavior.Failed, `The client echoed a message of ${length} bytes: it took a frame with RSV1 though no extension was negotiated.`, [
          echoedFigure(length)
        ]);
        t.sendClose(CloseCode.Normal);
      },
      adjust: ownFiguresOnly
    });
    bombClientCases = subgroup(
      "18.2",
      "Decompression bombs: 1 GiB of zeros from about 1 MB (undici CVE-2026-1526, websockets CVE-2018-1000518)",
      [bombCase2("18.2.1", false), bombCase2("18.2.2", true), unnegotiatedBombCase]
    );
  }
});

// src/robustness/s18-3-frames.ts
function topBitLengthCase(id, length, what) {
  return defineCase({
    id,
    requirement: lengthRequirement,
    description: `A binary frame whose 64-bit length ${what} (82 7f ${length}), then 16 bytes. (RFC 6455 \xA75.2; ${length64Budget.advisory})`,
    expectation: `RFC 6455 \xA75.2: "the most significant bit MUST be 0"; the client fails the connection at the header (1002, or 1009, or a drop) within ${REFUSE_WITHIN_S} s, and its process does not die.`,
    expect: { OK: [] },
    close: failedByPeer([CloseCode.ProtocolError, CloseCode.MessageTooBig]),
    suppressClose: true,
    attackBudget: length64Budget,
    schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
    run(t) {
      t.sendRaw(Buffer.concat([hex(`82 7f ${length}`), Buffer.alloc(16)]));
      t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
    }
  });
}
var lengthRequirement, lengthCases2, frameClientCases;
var init_s18_3_frames = __esm({
  "src/robustness/s18-3-frames.ts"() {
    "use strict";
    init_subgroup();
    init_constants();
    init_budgets();
    init_frame_attacks();
    init_attacks_client();
    init_define();
    lengthRequirement = {
      key: "client-length-refused",
      rfc: "RFC 6455 \xA75.2, \xA710.4",
      text: "a client fails the connection at a frame header whose length has its top bit set, lies past its limit, or declares 1 GiB, without reading the payload, and its process survives (CVE-2026-1528: undici before 6.24.0; CVE-2020-27813: gorilla/websocket)",
      subject: "an oversized frame length"
    };
    lengthCases2 = [
      topBitLengthCase("18.3.1", "80 00 00 00 00 00 00 10", "has the most significant bit set"),
      // The shape of undici CVE-2026-1528: high 32 bits 0x7fffffff, so "(upper << 8) + lower" went negative.
      defineCase({
        id: "18.3.2",
        requirement: lengthRequirement,
        description: `A binary frame declaring 0x7fffffff00000010 bytes (top bit clear: legal, about 2^63), then 16 bytes. (RFC 6455 \xA75.2, \xA710.4; ${length64Budget.advisory})`,
        expectation: `RFC 6455 \xA710.4: a client limits frame sizes; a length past its limit fails the connection at the header with 1009 (1002 tolerated, or a drop) within ${REFUSE_WITHIN_S} s, and its process does not die.`,
        expect: { OK: [] },
        close: failedByPeer([CloseCode.MessageTooBig, CloseCode.ProtocolError]),
        suppressClose: true,
        attackBudget: length64Budget,
        schedule: { maxSeconds: REFUSE_WITHIN_S + 2 },
        run(t) {
          t.sendRaw(Buffer.concat([hex("82 7f 7f ff ff ff 00 00 00 10"), Buffer.alloc(16)]));
          t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
        }
      }),
      defineCase({
        id: "18.3.3",
        requirement: lengthRequirement,
        description: `A binary frame declaring 1 GiB (82 7f 00 00 00 00 40 00 00 00), its payload trickled at ${TRICKLE.bytes} bytes every ${TRICKLE.everyS} s while the connection is open. (RFC 6455 \xA710.4; ${declaredGiBBudget.advisory})`,
        expectation: `RFC 6455 \xA710.4: a client whose message limit is below 1 GiB refuses the frame at its header (1009, or a drop) within ${REFUSE_WITHIN_S} s, not after reading (or allocating) the payload.`,
        expect: { OK: [] },
        close: failedByPeer([CloseCode.MessageTooBig]),
        suppressClose: true,
        attackBudget: declaredGiBBudget,
        schedule: { maxSeconds: REFUSE_WITHIN_S + 2, idle: true },
        async run(t) {
          t.sendRaw(hex("82 7f 00 00 00 00 40 00 00 00"));
          t.killAfter(scaledS(REFUSE_WITHIN_S, t.budgets));
          const piece2 = Buffer.alloc(TRICKLE.bytes);
          while (t.isOpen) {
            t.sendRaw(piece2, { sync: true });
            await t.pause(TRICKLE.everyS);
          }
        }
      })
    ];
    frameClientCases = subgroup(
      "18.3",
      "Frames: lengths refused at the header (undici CVE-2026-1528, gorilla CVE-2020-27813), limit + 1 in fragments, endless continuations, random bytes",
      [
        ...lengthCases2,
        reservedOpcodeGiB("18.3.4", "client"),
        limitPlusOne("18.3.5", "client"),
        endlessContinuations("18.3.6", "client"),
        randomBytes("18.3.7", "client"),
        // The other end of the range from 18.3.1: every bit set (-1 to a parser that reads it signed).
        topBitLengthCase("18.3.8", "ff ff ff ff ff ff ff ff", "is 2^64 \u2212 1")
      ]
    );
  }
});

// src/robustness/s18-4-handshake.ts
function probeFrame() {
  const payload2 = Buffer.from(PROBE, "utf8");
  return Buffer.concat([encodeFrameHeader(Opcode.Text, true, 0, payload2.length, null), payload2]);
}
function judgeSettled(verdict, facts, waitS) {
  if (verdict.result.startsWith(TOOK))
    return withOwnFigures(facts, {
      ...verdict,
      behaviorClose: CloseBehavior.Ok,
      resultClose: "Not judged: the client took the response; wsgate closed after the echo."
    });
  if (verdict.result === REFUSED2 && verdict.behaviorClose === CloseBehavior.Failed) {
    return withOwnFigures(facts, {
      ...verdict,
      behavior: Behavior.Failed,
      result: `The client neither refused the response nor echoed the message within ${waitS} s.`
    });
  }
  return withOwnFigures(facts, verdict);
}
function onEcho(took, why) {
  return (t, data, binary) => {
    if (!binary && data.toString("utf8") === PROBE) t.setOutcome(took, `${TOOK}${why}`);
    else
      t.setOutcome(Behavior.Failed, `The client echoed a message other than the one sent (${binary ? "binary" : "text"}, ${data.length} bytes).`, [
        echoedFigure(data.length)
      ]);
    t.sendClose(CloseCode.Normal);
  };
}
function manyLines() {
  return Array.from({ length: ClientFloodBudgets.manyLines }, (_, i) => `a${i}: b`);
}
function hugeHeaderStart(info) {
  return `${[SWITCHING, ...upgradeLines(info)].map((l) => `${l}\r
`).join("")}X-Pad: `;
}
var RFC, TOOK, REFUSED2, manyLinesCase, MIB, hugeHeaderCase, P2, pacedCase, STALL_S, DROPPED_STALLED, trickledCase, PROTOTYPE_EXTENSIONS, prototypeNamesCase, OBS_TEXT_PROTOCOL, obsTextCase, handshakeClientCases;
var init_s18_4_handshake = __esm({
  "src/robustness/s18-4-handshake.ts"() {
    "use strict";
    init_constants();
    init_frame_writer();
    init_verdicts();
    init_floods();
    init_budgets();
    init_attack_judges();
    init_define();
    init_judgement();
    init_own_figures();
    init_handshake_scripts();
    init_subgroup();
    RFC = "RFC 6455 \xA74.1, \xA74.2.2";
    TOOK = "The client took the response and echoed the message sent after it.";
    REFUSED2 = "The client refused the response: it ended the connection without echoing the message sent after it.";
    manyLinesCase = defineCase({
      id: "18.4.1",
      requirement: {
        key: "client-many-header-lines",
        rfc: "RFC 6455 \xA74.1, \xA74.2.2",
        text: "a client takes a 101 with thousands of header lines or fails the connection, within the budget, and its process survives (CVE-2024-37890: ws before 8.17.1 crashed on more header lines than Node keeps; CVE-2018-12121)",
        subject: "a 101 with 10,000 header lines"
      },
      description: `A 101 response with ${ClientFloodBudgets.manyLines.toLocaleString("en-US")} short header lines ("a0: b" ...) ahead of the upgrade fields, then in the same write a text message ("${PROBE}"). (${RFC}; ${clientFloodBudgets.manyLines.advisory})`,
      expectation: `The client takes the response and echoes the message, or fails the connection (its HTTP layer keeps fewer header lines: Node's 16 KiB head, Python's 100 lines), within ${ClientFloodBudgets.settleWithinS} s: both are OK. Neither within ${ClientFloodBudgets.settleWithinS} s, or a process that dies, is FAILED.`,
      expect: {},
      close: refused,
      suppressClose: true,
      attackBudget: clientFloodBudgets.manyLines,
      schedule: { maxSeconds: ClientFloodBudgets.settleWithinS + 2 },
      handshake: (info) => ({ head: head(SWITCHING, [...manyLines(), ...upgradeLines(info)]), delivery: "together" }),
      run(t) {
        t.setOutcome(Behavior.Ok, REFUSED2);
        t.sendFrame({ opcode: Opcode.Text, payload: PROBE });
        t.killAfter(scaledS(ClientFloodBudgets.settleWithinS, t.budgets));
      },
      onMessage: onEcho(Behavior.Ok, ""),
      adjust: (verdict, facts) => judgeSettled(verdict, facts, ClientFloodBudgets.settleWithinS)
    });
    MIB = ClientFloodBudgets.hugeHeader.totalBytes / (1024 * 1024);
    hugeHeaderCase = defineCase({
      id: "18.4.2",
      requirement: {
        key: "client-huge-header",
        rfc: "RFC 6455 \xA74.1, RFC 9112 \xA72.3",
        text: "a client bounds the response head it reads: it fails the connection on a header of megabytes soon after its limit, not after reading it all (CVE-2018-12121: Node.js kept 80 KB of headers per connection until its heap ran out)",
        subject: "an 8 MiB header in the 101"
      },
      description: `A 101 response whose last header line, X-Pad, has a value of ${MIB} MiB, streamed in pieces of ${ClientFloodBudgets.hugeHeader.pieceBytes / 1024} KiB, one every ${ClientFloodBudgets.hugeHeader.everyMs} ms once the client's socket took the one before; then the empty line and a text message ("${PROBE}"). wsgate stops writing when the client ends the connection. (${RFC}; ${clientFloodBudgets.hugeHeader.advisory})`,
      expectation: `The client's HTTP layer bounds the response head (Node's is 16 KiB): it fails the connection within ${ClientFloodBudgets.settleWithinS} s of the first byte, without reading the megabytes. A client that reads the whole head and echoes the message is FAILED (no limit: the memory it holds grows with what the server sends); neither within ${ClientFloodBudgets.settleWithinS} s is FAILED. The figure says how many bytes wsgate had written when the client dropped.`,
      expect: {},
      close: refused,
      suppressClose: true,
      attackBudget: clientFloodBudgets.hugeHeader,
      schedule: { maxSeconds: ClientFloodBudgets.settleWithinS + 2 },
      handshake: (info) => ({
        head: hugeHeaderStart(info),
        delivery: "streamed",
        stream: {
          bytes: ClientFloodBudgets.hugeHeader.totalBytes,
          pieceBytes: ClientFloodBudgets.hugeHeader.pieceBytes,
          everyMs: ClientFloodBudgets.hugeHeader.everyMs,
          tail: Buffer.concat([Buffer.from("\r\n\r\n", "latin1"), probeFrame()])
        }
      }),
      async run(t) {
        t.setOutcome(Behavior.Ok, REFUSED2);
        t.killAfter(scaledS(ClientFloodBudgets.settleWithinS, t.budgets));
        let most = 0;
        while (t.isOpen) {
          const read = t.peerRead();
          if (read !== null && read > most) {
            most = read;
            if (most > ClientFloodBudgets.hugeHeaderReadBytes)
              t.setOutcome(
                Behavior.Failed,
                `The client read ${count(most)} bytes of the response head (budget ${count(ClientFloodBudgets.hugeHeaderReadBytes)}): its limit on a response head, if it has one, lets a server make it hold that much.`,
                [budgetFigure("peer-read-bytes", "of the response head the client's process had read", most, "bytes", ClientFloodBudgets.hugeHeaderReadBytes)]
              );
          }
          await t.pause(ClientFloodBudgets.readSampleS);
        }
      },
      onMessage: onEcho(Behavior.Failed, ` It read a ${MIB} MiB response head without a limit.`),
      adjust: (verdict, facts) => judgeSettled(verdict, facts, ClientFloodBudgets.settleWithinS)
    });
    P2 = ClientFloodBudgets.pacedHead;
    pacedCase = defineCase({
      id: "18.4.3",
      requirement: {
        key: "client-paced-response",
        rfc: "RFC 6455 \xA74.1, \xA74.2.2",
        text: "a client reads a long 101 written in small pieces at a cost that grows with its length, not its square: it takes it and echoes, or refuses it at its own limit, spending little CPU time (CVE-2023-43669: tungstenite before 0.20.1 parsed the head again on every read)",
        subject: "a 1 MiB response head written in small pieces"
      },
      description: `A 101 response that ends with ${count(P2.totalBytes)} bytes of X-Pad header lines of ${count(P2.lineBytes)} bytes each (under any limit on a line, as the advisory's exploit sends them), written in ${P2.pieceBytes}-byte pieces, one every ${P2.everyMs} ms (about ${count(P2.totalBytes / P2.pieceBytes)} reads for a client that keeps up); then the empty line and a text message ("${PROBE}"). (${RFC}; ${clientFloodBudgets.paced.advisory})`,
      expectation: `The client takes the response and echoes the message, or fails the connection at its own limit on a response head (Node's is 16 KiB), within ${ClientFloodBudgets.settleWithinS + P2.writeS} s; and its process tree spends at most ${count(ClientFloodBudgets.pacedCpuMs)} ms of CPU time on the case (a parser that reads the head again from its start on every read spends time quadratic in its length: tungstenite took minutes). Neither echo nor refusal in time, or a process that dies, is FAILED.`,
      expect: {},
      close: refused,
      suppressClose: true,
      attackBudget: clientFloodBudgets.paced,
      schedule: { maxSeconds: ClientFloodBudgets.settleWithinS + P2.writeS + 2 },
      handshake: (info) => ({
        head: hugeHeaderStart(info),
        delivery: "streamed",
        stream: {
          bytes: P2.totalBytes,
          pieceBytes: P2.pieceBytes,
          everyMs: P2.everyMs,
          tail: Buffer.concat([Buffer.from("\r\n\r\n", "latin1"), probeFrame()]),
          lines: { lineBytes: P2.lineBytes, lineName: "X-Pad" }
        }
      }),
      run(t) {
        t.setOutcome(Behavior.Ok, REFUSED2);
        t.killAfter(scaledS(ClientFloodBudgets.settleWithinS + P2.writeS, t.budgets));
      },
      onMessage: onEcho(Behavior.Ok, ""),
      adjust: (verdict, facts) => judgeSettled(verdict, facts, ClientFloodBudgets.settleWithinS + P2.writeS)
    });
    STALL_S = DEFAULT_BUDGETS.stallMs / 1e3;
    DROPPED_STALLED = "The client dropped the trickled response by a timeout of its own.";
    trickledCase = defineCase({
      id: "18.4.4",
      requirement: {
        key: "client-handshake-timeout",
        rfc: "RFC 6455 \xA74.1, \xA710.1",
        text: "a client drops a 101 trickled one byte per second by a handshake timeout of its own, within the stall budget (CVE-2018-12122: Node.js held a trickled head forever; Slowloris)",
        subject: "a 101 trickled one byte per second"
      },
      description: `A 101 response trickled one byte every ${ClientFloodBudgets.trickleEveryMs} ms that never ends (an X-Pad header of ${ClientFloodBudgets.tricklePadBytes.toLocaleString("en-US")} bytes: an hour). (${RFC}; ${clientFloodBudgets.trickled.advisory})`,
      expectation: `The client drops the connection by a handshake timeout of its own within the stall budget (--budget stall, default ${STALL_S} s). wsgate drops it just after the budget: FAILED. This case takes as long as the client's deadline. An idle timeout never fires while the bytes trickle in: ws has no deadline on its opening (its handshakeTimeout is the socket's idle timeout).`,
      expect: {},
      close: refused,
      suppressClose: true,
      attackBudget: clientFloodBudgets.trickled,
      schedule: { maxSeconds: STALL_S + 5, idle: true, cost: 30 },
      handshake: (info) => ({
        head: `${[SWITCHING, ...upgradeLines(info)].map((l) => `${l}\r
`).join("")}X-Pad: ${"a".repeat(ClientFloodBudgets.tricklePadBytes)}`,
        delivery: "trickled",
        everyMs: ClientFloodBudgets.trickleEveryMs
      }),
      run(t) {
        t.setOutcome(Behavior.Ok, DROPPED_STALLED);
        t.continueLater(t.budgets.stallMs / 1e3 + 1, () => {
          t.setOutcome(
            Behavior.Failed,
            "The client kept the trickled response open past the stall budget: it has no deadline on its opening (or a later one: an idle timeout never fires while bytes trickle in); wsgate dropped it."
          );
          t.dropConnection();
        });
      }
    });
    PROTOTYPE_EXTENSIONS = "Sec-WebSocket-Extensions: constructor; __proto__=1, __proto__; constructor=1; toString, hasOwnProperty";
    prototypeNamesCase = {
      ...mustRefuse({
        id: "18.4.5",
        description: `A 101 response accepting extensions the client never offered, named after Object.prototype's properties ("${PROTOTYPE_EXTENSIONS.slice(26)}"), then a text message. (${RFC}; ${clientFloodBudgets.prototypeNames.advisory})`,
        expectation: `RFC 6455 \xA74.1: a response that "indicates the use of an extension that was not present in the client's handshake" means the client MUST _Fail the WebSocket Connection_, within ${ClientFloodBudgets.refuseWithinS} s, and its process survives the names.`,
        lines: (info) => [...upgradeLines(info), PROTOTYPE_EXTENSIONS]
      }),
      requirement: {
        key: "client-prototype-extension-names",
        rfc: "RFC 6455 \xA74.1, \xA79.1",
        text: "a client fails the connection on a 101 accepting extensions it never offered, named constructor, __proto__, toString, and its process survives (GHSA-5v72-xg48-5rpm: ws before 3.3.1 crashed on such names)",
        subject: "extension names such as constructor in the 101"
      },
      attackBudget: clientFloodBudgets.prototypeNames,
      schedule: { maxSeconds: ClientFloodBudgets.refuseWithinS + 2 }
    };
    OBS_TEXT_PROTOCOL = "Sec-WebSocket-Protocol: \xFF\xFEchat\xE9";
    obsTextCase = {
      ...mustRefuse({
        id: "18.4.6",
        description: `A 101 response with a Sec-WebSocket-Protocol of bytes above 0x7f (obs-text: ff fe "chat" e9, latin1), which the client never offered, then a text message. (${RFC}, RFC 9110 \xA75.5; ${clientFloodBudgets.obsText.advisory})`,
        expectation: `RFC 6455 \xA74.1: a subprotocol the client did not offer means it MUST _Fail the WebSocket Connection_, within ${ClientFloodBudgets.refuseWithinS} s, and its process survives the bytes.`,
        lines: (info) => [...upgradeLines(info), OBS_TEXT_PROTOCOL]
      }),
      requirement: {
        key: "client-obs-text-protocol",
        rfc: "RFC 6455 \xA74.1, RFC 9110 \xA75.5",
        text: "a client fails the connection on a 101 naming a subprotocol it never offered, here of bytes above 0x7f, and its process survives (denoland/deno#32594: Deno panicked on such a value)",
        subject: "a subprotocol of bytes above 0x7f in the 101"
      },
      attackBudget: clientFloodBudgets.obsText,
      schedule: { maxSeconds: ClientFloodBudgets.refuseWithinS + 2 }
    };
    handshakeClientCases = subgroup(
      "18.4",
      "Opening handshake: a 101 with 10,000 lines, an 8 MiB header, one byte per packet, trickled, prototype extension names",
      [manyLinesCase, hugeHeaderCase, pacedCase, trickledCase, prototypeNamesCase, obsTextCase]
    );
  }
});

// src/robustness/s18-5-closing.ts
var c2, closingClientCases;
var init_s18_5_closing = __esm({
  "src/robustness/s18-5-closing.ts"() {
    "use strict";
    init_closing_attacks();
    init_subgroup();
    c2 = closingAttacks("client");
    closingClientCases = subgroup(
      "18.5",
      "Back-pressure and closing: a ping flood unread, a slow reader of a large echo, an unanswered close, a connection never closed",
      [c2.pingFlood("18.5.1"), c2.slowEcho("18.5.2"), c2.unansweredClose("18.5.3"), c2.neverClosed("18.5.4")]
    );
  }
});

// src/robustness/data/attacks-h2.ts
var H2Advisories, H2Budgets;
var init_attacks_h2 = __esm({
  "src/robustness/data/attacks-h2.ts"() {
    "use strict";
    H2Advisories = {
      rapidReset: {
        id: "CVE-2023-44487 (HTTP/2 Rapid Reset)",
        what: "a client opens streams and cancels each at once (HEADERS, RST_STREAM): no stream stays open to count against SETTINGS_MAX_CONCURRENT_STREAMS, and the server does the work of every request; nghttp2 1.57.0 rate-limits resets (a burst of 1,000, then 33 a second) and sends GOAWAY, Node.js took it in 18.18.2, 20.8.1 and 21.0.0"
      },
      continuationFlood: {
        id: "CVE-2024-27316, CVE-2023-45288, CVE-2024-28182 (HTTP/2 CONTINUATION flood)",
        what: "a header block that never ends: HEADERS without END_HEADERS, then CONTINUATION frames without end, which a server decodes (or buffers) while no other frame may come; nghttp2 1.61.0 ends the connection after 8 CONTINUATION frames (Node.js ships it from 20.13.0; 20.12.1's fix of the same week was CVE-2024-27983's, 17.5.4)"
      },
      cutHeaderBlock: {
        id: "CVE-2024-27983",
        what: "Node.js before 18.20.1, 20.12.1 and 21.7.2: a connection cut (TCP reset) while its HEADERS and CONTINUATION frames were still being decoded left nghttp2 memory behind, and the session's destructor asserted it was zero: the server process aborted"
      },
      pingFlood: {
        id: "CVE-2019-9512 (HTTP/2 ping flood)",
        what: "a client sends PINGs and never reads the acknowledgements, which pile up in the server's memory; nghttp2 1.39.2 ends the connection once 1,000 frames wait in its outbound queue, Node.js took it in 10.16.3 and 12.8.1"
      },
      internalBuffering: {
        id: "CVE-2019-9517 (HTTP/2 internal data buffering)",
        what: "a client opens every HTTP/2 window but reads nothing, so TCP holds the answers back, and sends request after request: a server that reads on queues every answer in its own memory; Node.js took it in 10.16.3 and 12.8.1 (an Http2Session stops reading while a write of its own waits), nginx in 1.16.1"
      }
    };
    H2Budgets = {
      /** Streams opened and reset: ten times nghttp2's burst of 1,000. */
      rapidResetPairs: 1e4,
      /** Pairs per write (about 80 bytes each). */
      rapidResetBatch: 100,
      /** CONTINUATION frames (26 bytes each, 2.6 MB): over ten thousand times nghttp2's limit of 8. */
      continuationFrames: 1e5,
      continuationBatch: 1e3,
      /** PINGs (17 bytes each, 34 MB): past loopback's buffers at both ends (tens of MiB under load) and then nghttp2's queue of 1,000. */
      pings: 2e6,
      pingBatch: 2e3,
      /**
       * Requests whose answers are never read (about 75 bytes each, 37 MB): five times what a fixed
       * server reads before the kernel's buffers of its answers fill (Node.js 20.20 and 12.8.1: about
       * 98,000), and enough that one reading on holds megabytes (12.8.0: 1.9 MB of 300,000).
       */
      requests: 5e5,
      requestBatch: 1e3,
      /**
       * Bytes of answers a server may hold itself, beyond what the kernel holds, once it stopped reading:
       * a buffer's worth. Node.js 20.20 and 12.8.1 held 0-2,627 answers of 44 bytes (a write of its own
       * in flight, up to 115 KB); HAProxy 2.6.12, about 29,000 of 16 bytes (470 KB: its output ring);
       * Node.js 12.8.0, reading on, 150,000 and more (3.6 MB and more).
       */
      answerBytesHeld: 1024 * 1024,
      /** Connections whose header block is cut by a TCP reset: Node.js 20.12.0 died within 40 here. */
      cutBlocks: 500,
      /**
       * How long a server that has read the whole flood has to end the connection, and how long one that
       * reads nothing (a write of the flood waiting, or its end unread) has before wsgate calls it stopped
       * and stops the flood, in ms (times the `time` budget).
       */
      graceMs: 2e3
    };
  }
});

// src/robustness/s17-5-h2.ts
function endWords(f) {
  const goaway = f.end?.goaway;
  if (goaway) return `with GOAWAY ${h2ErrorName(goaway.code)}${f.flood === "rapid-reset" ? ` (last stream ${n(goaway.lastStreamId)})` : ""}`;
  return f.ending === "reset" ? "with a TCP reset" : "by closing TCP";
}
function takenAtEnd(f, end) {
  const last = end.goaway?.lastStreamId;
  if (f.flood === "rapid-reset" && last !== void 0) return { units: Math.min(f.units, Math.floor((last + 1) / 2)), how: "by its GOAWAY's last stream id" };
  if (end.unitsRead !== null) return { units: end.unitsRead, how: "read by its process then: wsgate flushed less the kernel queues" };
  if (f.unitsRead !== null)
    return {
      units: f.unitsRead,
      how: "read by its process at wsgate's last look before its end: at least that many, wsgate flushed less the kernel queues"
    };
  return { units: end.unitsWritten, how: "at most what wsgate had written then: the server's socket is not on this machine" };
}
function judgeH2Flood(f, stallMs = H2Budgets.graceMs) {
  const unit = UNIT[f.flood];
  const verdict = (behavior, result, figures) => ({
    behavior,
    result,
    behaviorClose: "INFORMATIONAL",
    resultClose: "An HTTP/2 flood on one connection: no WebSocket closing handshake to judge.",
    figures
  });
  if (f.refused !== null) return verdict("FAILED", `No HTTP/2 connection to flood: ${f.refused}.`, []);
  if (f.flood === "cut-blocks") return judgeCutBlocks(f, verdict);
  if (f.flood === "requests" && f.end === null && f.answers !== null) return judgeHeldAnswers(f, f.answers, verdict);
  const written = statedFigure("units-written", `${unit} wsgate wrote`, f.unitsWritten, "count");
  const end = f.end;
  if (end !== null) {
    const taken2 = takenAtEnd(f, end);
    const took = budgetFigure("units-taken", `${unit} the server took before it ended the connection`, taken2.units, "count", f.units - 1);
    const ms = statedFigure("ended-ms", "the server ended the flood after", end.ms, "ms");
    const text = `The server ended the connection ${endWords(f)} ${n(Math.round(end.ms))} ms into the flood, having taken ${n(taken2.units)} of ${n(f.units)} ${unit} (${taken2.how}; ${n(end.unitsWritten)} written then)`;
    if (taken2.units < f.units) return verdict("OK", `${text}.`, [took, written, ms]);
    return verdict("FAILED", `${text}: it took the whole flood before ending it.`, [took, written, ms]);
  }
  if (f.unitsWritten >= f.units && (f.unitsRead === null || f.unitsRead >= f.unitsWritten)) {
    const read2 = f.unitsRead ?? f.unitsWritten;
    const how2 = f.unitsRead === null ? "written by wsgate (the server's socket is not on this machine: the kernel's buffers counted in)" : "read by its process";
    const took = budgetFigure("units-taken", `${unit} the server took without ending the connection`, read2, "count", f.units - 1);
    return verdict("FAILED", `The server took all ${n(read2)} ${unit} (${how2}) and kept the connection open: it does not bound the flood.`, [took, written]);
  }
  const taken = f.unitsRead ?? f.unitsWritten;
  const how = f.unitsRead === null ? `at most: written by wsgate, whose write the socket did not take for ${n(stallMs)} ms (the server's socket is not on this machine)` : `read by its process, then nothing more for ${n(stallMs)} ms`;
  const read = statedFigure("units-taken", `${unit} the server read, then stopped reading`, taken, "count");
  return verdict(
    "NON-STRICT",
    `The server stopped reading after ${n(taken)} of ${n(f.unitsWritten)} ${unit} written (${how}), without ending the connection: it took no more, but holds the connection.`,
    [read, written]
  );
}
function judgeHeldAnswers(f, answers, verdict) {
  const taken = Math.max(f.unitsRead ?? f.unitsWritten, answers.inKernel);
  const held = taken - answers.inKernel;
  const answerBytes = answers.inKernel === 0 ? 0 : answers.kernelBytes / answers.inKernel;
  const heldBytes = Math.round(held * answerBytes);
  const budget = H2Budgets.answerBytesHeld;
  const figures = [
    budgetFigure("answer-bytes-held", "bytes of answers the server held itself (at the size of those in the kernel)", heldBytes, "bytes", budget),
    statedFigure("answers-held", "answers the server held itself (requests it read, less the answers in the kernel)", held, "count"),
    statedFigure("units-taken", "requests the server read", taken, "count"),
    statedFigure("answers-in-kernel", "answers in the kernel's buffers", answers.inKernel, "count"),
    statedFigure("units-written", "requests wsgate wrote", f.unitsWritten, "count")
  ];
  const where = `${n(answers.inKernel)} of their answers were in the kernel's buffers (${n(answers.kernelBytes)} bytes), ${n(held)} held by the server itself, about ${n(heldBytes)} bytes at that size (budget ${n(budget)}; wsgate then read ${n(answers.read)} answers)`;
  const read = taken >= f.unitsWritten ? `all ${n(taken)} requests written` : `${n(taken)} of ${n(f.unitsWritten)} requests written, then stopped reading`;
  if (heldBytes <= budget) return verdict("OK", `The server read ${read} while their answers could not leave: ${where}.`, figures);
  const all = taken >= f.units ? `all ${n(taken)}` : `${n(taken)} of ${n(f.unitsWritten)}`;
  return verdict("FAILED", `The server read ${all} requests while their answers could not leave, queueing them: ${where}.`, figures);
}
function judgeCutBlocks(f, verdict) {
  const cut = statedFigure("units-written", "header blocks cut by a TCP reset", f.unitsWritten, "count");
  if (f.end === null) return verdict("OK", `The server took all ${n(f.unitsWritten)} connections whose header block wsgate cut with a TCP reset.`, [cut]);
  const failed = budgetFigure("connections-taken", "connections the server took before it was gone", f.end.unitsWritten, "count", f.units);
  return verdict(
    "FAILED",
    `The server was gone after ${n(f.end.unitsWritten)} connections whose header block wsgate cut with a TCP reset (the next one was refused ${n(Math.round(f.end.ms))} ms in).`,
    [{ ...failed, over: true }, cut]
  );
}
function floodCase(spec) {
  const attack = {
    kind: "h2-flood",
    flood: spec.flood,
    units: spec.units,
    batch: spec.batch,
    graceMs: H2Budgets.graceMs,
    judge: (facts, budgets) => judgeH2Flood(facts, scaledMs(H2Budgets.graceMs, budgets)),
    ...spec.memoryGrowth === void 0 ? {} : { memoryGrowth: spec.memoryGrowth }
  };
  return attackCase({ ...spec, attack, maxSeconds: 60 });
}
var n, UNIT, rapidReset, continuationFlood, pingFlood2, cutBlocks, internalBuffering, h2FloodServerCases;
var init_s17_5_h2 = __esm({
  "src/robustness/s17-5-h2.ts"() {
    "use strict";
    init_budgets();
    init_judgement();
    init_h2_frames();
    init_attack_case();
    init_attacks_h2();
    init_subgroup();
    n = (v) => v.toLocaleString("en-US");
    UNIT = {
      "rapid-reset": "reset streams",
      continuation: "CONTINUATION frames",
      ping: "PINGs",
      requests: "requests",
      "cut-blocks": "cut header blocks"
    };
    rapidReset = floodCase({
      id: "17.5.1",
      requirement: {
        key: "h2-rapid-reset",
        rfc: "RFC 9113 \xA75.1.2, \xA710.5",
        text: "a server bounds streams opened and reset at once: it ends the connection (GOAWAY, or TCP) before it has taken 10,000 of them, and keeps serving (CVE-2023-44487: nghttp2 before 1.57, Node.js before 20.8.1, took them all)",
        subject: "streams opened and reset at once (HTTP/2 Rapid Reset)"
      },
      flood: "rapid-reset",
      advisory: H2Advisories.rapidReset,
      rfc: "RFC 9113 \xA75.1.2, \xA710.5; RFC 8441 \xA74",
      units: H2Budgets.rapidResetPairs,
      batch: H2Budgets.rapidResetBatch,
      description: `After the HTTP/2 preface and SETTINGS, on one connection: up to ${n(H2Budgets.rapidResetPairs)} streams (1, 3, 5, ...) each opened by HEADERS with an extended CONNECT (:protocol websocket, END_HEADERS) and reset at once by RST_STREAM (CANCEL), ${H2Budgets.rapidResetBatch} pairs per write, each write once the socket took the one before, until the server sends GOAWAY (read even when a TCP reset follows it) or ends TCP, or stops reading (it reads nothing for ${H2Budgets.graceMs / 1e3} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
      expectation: `The server ends the connection (GOAWAY, or TCP) before it has taken all ${n(H2Budgets.rapidResetPairs)} (nghttp2 1.57 and later: GOAWAY after about 1,000); taking them all and serving on is FAILED.`
    });
    continuationFlood = floodCase({
      id: "17.5.2",
      requirement: {
        key: "h2-continuation-flood",
        rfc: "RFC 9113 \xA76.10, \xA710.5.1",
        text: "a server bounds a header block that never ends: it ends the connection (GOAWAY, or TCP) before it has read 100,000 CONTINUATION frames, and keeps serving (CVE-2024-28182: nghttp2 before 1.61, Node.js before 20.13.0, decoded them all)",
        subject: "an endless run of CONTINUATION frames"
      },
      flood: "continuation",
      advisory: H2Advisories.continuationFlood,
      rfc: "RFC 9113 \xA76.10, \xA74.3, \xA710.5.1",
      units: H2Budgets.continuationFrames,
      batch: H2Budgets.continuationBatch,
      description: `After the HTTP/2 preface and SETTINGS: HEADERS on stream 1 with an extended CONNECT (:protocol websocket) and without END_HEADERS, then up to ${n(H2Budgets.continuationFrames)} CONTINUATION frames, never END_HEADERS, each a new header field ("x-flood-0000000: a", as an HPACK literal), ${n(H2Budgets.continuationBatch)} per write, each write once the socket took the one before, until the server sends GOAWAY or ends TCP, or stops reading (it reads nothing for ${H2Budgets.graceMs / 1e3} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
      expectation: `The server ends the connection (GOAWAY, or TCP) before it has read all ${n(H2Budgets.continuationFrames)} frames (nghttp2 1.61 and later: after 8); stopping reading without ending the connection is NON-STRICT; a server that resets the stream but reads on, decoding the block, takes them all and is FAILED.`
    });
    pingFlood2 = floodCase({
      id: "17.5.3",
      requirement: {
        key: "h2-ping-flood",
        rfc: "RFC 9113 \xA76.7, \xA710.5",
        text: "a server bounds the PING acknowledgements it queues for a client that reads none: it ends the connection (or stops reading) before it has read the whole flood, and keeps serving (CVE-2019-9512)",
        subject: "an HTTP/2 PING flood whose acknowledgements are never read"
      },
      flood: "ping",
      advisory: H2Advisories.pingFlood,
      rfc: "RFC 9113 \xA76.7, \xA710.5",
      units: H2Budgets.pings,
      batch: H2Budgets.pingBatch,
      description: `After the HTTP/2 preface and SETTINGS: up to ${n(H2Budgets.pings)} PING frames (8 bytes each, a counter), ${n(H2Budgets.pingBatch)} per write, each write once the socket took the one before, while wsgate reads nothing (the acknowledgements pile up at the server), until the server ends TCP (wsgate then reads what it wrote, for a GOAWAY) or stops reading (it reads nothing for ${H2Budgets.graceMs / 1e3} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues.`,
      expectation: `The server ends the connection, or stops reading, before it has read all ${n(H2Budgets.pings)} (nghttp2 1.39.2 and later: once 1,000 frames wait in its queue); stopping reading without ending the connection is NON-STRICT (it holds the connection); reading them all while its acknowledgements wait is FAILED.`
    });
    cutBlocks = floodCase({
      id: "17.5.4",
      requirement: {
        key: "h2-cut-header-block",
        rfc: "RFC 9113 \xA75.4.1, \xA76.10",
        text: "a server survives connections reset while their header block (HEADERS and CONTINUATION frames) is still being decoded (CVE-2024-27983: Node.js 20.12.0 aborted on an assertion)",
        subject: "header blocks cut by a TCP reset"
      },
      flood: "cut-blocks",
      advisory: H2Advisories.cutHeaderBlock,
      rfc: "RFC 9113 \xA75.4.1, \xA76.10",
      units: H2Budgets.cutBlocks,
      batch: 1,
      description: `Up to ${n(H2Budgets.cutBlocks)} connections, one after another, each in one write: the HTTP/2 preface, SETTINGS, HEADERS on stream 1 with an extended CONNECT and without END_HEADERS, and 20 CONTINUATION frames of a 100-byte field; then, on the next turn of wsgate's event loop, a TCP reset, while the server may still be decoding the block.`,
      expectation: "The server takes every connection and survives (Node.js 20.12.0 dies of an assertion within a few dozen); a connection refused partway is FAILED."
    });
    internalBuffering = floodCase({
      id: "17.5.5",
      requirement: {
        key: "h2-internal-buffering",
        rfc: "RFC 9113 \xA75.2.2, \xA710.5",
        text: `a server stops reading requests while their answers cannot leave (the client reads none, every HTTP/2 window open): it holds at most ${n(H2Budgets.answerBytesHeld)} bytes of answers beyond the kernel's buffers, or ends the connection (CVE-2019-9517: Node.js before 10.16.3 and 12.8.1 read on, queueing every answer)`,
        subject: "requests whose answers are never read (HTTP/2 internal data buffering)"
      },
      flood: "requests",
      advisory: H2Advisories.internalBuffering,
      rfc: "RFC 9113 \xA75.2.2, \xA76.9, \xA710.5",
      units: H2Budgets.requests,
      batch: H2Budgets.requestBatch,
      memoryGrowth: MEMORY_GROWTH.answers,
      description: `After the HTTP/2 preface and SETTINGS: SETTINGS_INITIAL_WINDOW_SIZE and the connection's window opened to 2^31-1, then up to ${n(H2Budgets.requests)} requests (HEADERS on streams 1, 3, 5, ..., a GET of the WebSocket's path with END_STREAM), ${n(H2Budgets.requestBatch)} per write, each write once the socket took the one before, while wsgate reads nothing, until the server ends the connection or stops reading (it reads nothing for ${H2Budgets.graceMs / 1e3} s while a write waits or the flood's end is unread). What the server read is measured from the kernel's queues; then wsgate measures what the kernel holds of the answers and reads them: the answers within those bytes were in the kernel, the rest the server held itself.`,
      expectation: `The server stops reading (or ends the connection) while its answers cannot leave, holding at most ${n(H2Budgets.answerBytesHeld)} bytes of them itself beyond the kernel's buffers (Node.js 12.8.1 and later: none to a few thousand answers of 44 bytes; HAProxy 2.6: about 470 KB); reading on and queueing them is FAILED.`
    });
    h2FloodServerCases = subgroup(
      "17.5",
      "HTTP/2 floods on one connection: Rapid Reset, CONTINUATION, PING, header blocks cut by a reset, unread answers",
      [rapidReset, continuationFlood, pingFlood2, cutBlocks, internalBuffering]
    );
  }
});

// src/robustness/liveness.ts
var LIVENESS_TEXT, livenessCase;
var init_liveness = __esm({
  "src/robustness/liveness.ts"() {
    "use strict";
    init_define();
    LIVENESS_TEXT = "wsgate liveness check.";
    livenessCase = defineCase({
      id: "17.0.1",
      description: "Liveness: a text message of 22 bytes on a fresh connection, after an attack.",
      expectation: "The server echoes it and closes the connection cleanly.",
      expect: { OK: [message(LIVENESS_TEXT)] },
      close: closedByMe(),
      schedule: { maxSeconds: 4 },
      run: (t) => {
        t.sendMessage(LIVENESS_TEXT);
        t.killAfter(2);
      }
    });
  }
});

// src/robustness/index.ts
var robustnessServerCases, robustnessClientCases;
var init_robustness = __esm({
  "src/robustness/index.ts"() {
    "use strict";
    init_s17_1_handshake();
    init_s17_2_frames();
    init_s17_3_deflate();
    init_s17_4_closing();
    init_s18_1_window_bits();
    init_s18_2_bombs();
    init_s18_3_frames();
    init_s18_4_handshake();
    init_s18_5_closing();
    init_s17_5_h2();
    init_liveness();
    robustnessServerCases = [...handshakeServerCases, ...frameServerCases, ...deflateServerCases, ...closingServerCases];
    robustnessClientCases = [
      ...windowBitsClientCases,
      ...bombClientCases,
      ...frameClientCases,
      ...handshakeClientCases,
      ...closingClientCases
    ];
  }
});

// src/util/patterns.ts
function wildcard(pattern, options = {}) {
  const special = options.syntax === "autobahn" ? /\./g : /[.+?^${}()|[\]\\]/g;
  const source = pattern.replace(special, (c3) => `\\${c3}`).replace(/\*/g, ".*");
  return new RegExp(options.prefix === true ? `^${source}` : `^${source}$`);
}
function caseIdMatcher(pattern, syntax = "wsgate") {
  if (!pattern.includes("*")) return (id) => id === pattern;
  const re = wildcard(pattern, { prefix: true, syntax });
  return (id) => re.test(id);
}
var init_patterns = __esm({
  "src/util/patterns.ts"() {
    "use strict";
  }
});

// src/cases/select.ts
function compareIds(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
function resolve(patterns, ids, known) {
  const out = /* @__PURE__ */ new Set();
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (pattern === "") continue;
    if (!/^[0-9.*]+$/.test(pattern)) throw new SelectionError(`bad case pattern ${JSON.stringify(pattern)}`);
    if (!pattern.includes("*") && !known.has(pattern)) {
      throw new SelectionError(
        isWsgateCase(pattern) ? `${JSON.stringify(pattern)} is one of wsgate's own cases (group 14): add --extended` : `no case has the id ${JSON.stringify(pattern)}`
      );
    }
    const match = caseIdMatcher(pattern);
    for (const id of ids) if (match(id)) out.add(id);
  }
  return out;
}
function selectCases(catalogue2, include, exclude = []) {
  const ids = catalogue2.map((c3) => c3.id);
  const known = new Set(ids);
  const inc = resolve(include.length === 0 ? ["*"] : include, ids, known);
  const exc = resolve(exclude, ids, known);
  return catalogue2.filter((c3) => inc.has(c3.id) && !exc.has(c3.id)).sort((a, b) => compareIds(a.id, b.id));
}
var SelectionError;
var init_select = __esm({
  "src/cases/select.ts"() {
    "use strict";
    init_errors();
    init_patterns();
    init_categories();
    SelectionError = class extends UsageError {
    };
  }
});

// src/catalogue/registry.ts
var registry_exports = {};
__export(registry_exports, {
  buildCatalogue: () => buildCatalogue,
  catalogue: () => catalogue,
  catalogueFor: () => catalogueFor,
  compareIds: () => compareIds,
  everyCase: () => everyCase,
  extendedCatalogue: () => extendedCatalogue,
  h2ClientCatalogue: () => h2ClientCatalogue,
  h2RobustnessServerCatalogue: () => h2RobustnessServerCatalogue,
  h2ServerCatalogue: () => h2ServerCatalogue,
  robustnessClientCatalogue: () => robustnessClientCatalogue,
  robustnessServerCatalogue: () => robustnessServerCatalogue,
  serverExtendedCatalogue: () => serverExtendedCatalogue
});
function buildCatalogue(...groups) {
  const all = groups.flat().sort((a, b) => compareIds(a.id, b.id));
  for (let i = 1; i < all.length; i++) {
    if (all[i - 1]?.id === all[i]?.id) throw new Error(`case ${all[i]?.id ?? ""} is declared twice`);
  }
  return Object.freeze(all);
}
function catalogueFor(extended, under = "client", transport = "http/1.1", robustness = false) {
  if (robustness && transport === "h2") return under === "server" ? h2RobustnessServerCatalogue : [];
  if (robustness) return under === "server" ? robustnessServerCatalogue : robustnessClientCatalogue;
  if (!extended) return catalogue;
  if (transport === "h2") return under === "server" ? h2ServerCatalogue : h2ClientCatalogue;
  if (under === "server") return serverExtendedCatalogue;
  return extendedCatalogue;
}
var catalogue, extendedCatalogue, serverExtendedCatalogue, h2ServerCatalogue, h2ClientCatalogue, robustnessServerCatalogue, h2RobustnessServerCatalogue, robustnessClientCatalogue, everyCase;
var init_registry = __esm({
  "src/catalogue/registry.ts"() {
    "use strict";
    init_s01_framing();
    init_s02_pings();
    init_s03_reserved_bits();
    init_s04_opcodes();
    init_s05_fragmentation();
    init_s06_utf8();
    init_s07_close();
    init_s09_limits();
    init_s10_misc();
    init_s12_deflate_payloads();
    init_s13_deflate_params();
    init_s14_handshake();
    init_s15_server_handshake();
    init_s16_h2_server();
    init_s16_h2_client();
    init_robustness();
    init_select();
    catalogue = buildCatalogue(
      framingCases,
      pingCases,
      reservedBitCases,
      opcodeCases,
      fragmentationCases,
      utf8Cases,
      closeCases,
      limitsCases,
      miscCases,
      deflatePayloadCases,
      deflateParamCases
    );
    extendedCatalogue = buildCatalogue(catalogue, handshakeCases);
    serverExtendedCatalogue = buildCatalogue(catalogue, serverHandshakeCases);
    h2ServerCatalogue = buildCatalogue(catalogue, h2ServerCases);
    h2ClientCatalogue = buildCatalogue(catalogue, h2ClientCases);
    robustnessServerCatalogue = buildCatalogue(robustnessServerCases);
    h2RobustnessServerCatalogue = buildCatalogue(h2FloodServerCases);
    robustnessClientCatalogue = buildCatalogue(robustnessClientCases);
    everyCase = buildCatalogue(
      catalogue,
      handshakeCases,
      serverHandshakeCases,
      h2ServerCases,
      h2ClientCases,
      robustnessServerCases,
      h2FloodServerCases,
      robustnessClientCases
    );
  }
});

// src/cases/quick.ts
function inQuickSample(id) {
  const [group, subgroup2, number] = id.split(".");
  const kept = QUICK_SAMPLE[`${group ?? ""}.${subgroup2 ?? ""}`] ?? QUICK_SAMPLE[group ?? ""];
  return kept === void 0 || kept.includes(Number(number));
}
function quickSample(cases2) {
  return cases2.filter((c3) => inQuickSample(c3.id));
}
var QUICK_SAMPLE;
var init_quick = __esm({
  "src/cases/quick.ts"() {
    "use strict";
    QUICK_SAMPLE = {
      // 9.1.1-9.8.1: each way of moving a large message once: 64 KiB in one frame, 4 MiB in 64-byte
      // frames, 1 MiB written in 64-byte chops, 1000 round trips of empty messages.
      "9": [1],
      // 12.1.1-12.5.1: each document (JSON, bitmap, prose, HTML, PDF), 1000 compressed messages of 16 units.
      "12": [1],
      // 12.1.11: 8192 code points compressed into frames of at most 256 bytes, a compressed message across
      // continuation frames; once, since 1000 such messages are the costliest case kept (13.x.11, one per
      // negotiation rule, took as much CPU as the rest of the sample together).
      "12.1": [1, 11],
      // 13.1.1-13.7.1: each negotiation rule (context takeover, window bits), 16 code points in one frame.
      "13": [1]
    };
  }
});

// src/run/schedule.ts
var schedule_exports = {};
__export(schedule_exports, {
  caseCost: () => caseCost,
  runCasesScheduled: () => runCasesScheduled,
  runOrder: () => runOrder,
  runPool: () => runPool,
  selectForRun: () => selectForRun,
  shardCases: () => shardCases
});
function caseCost(def) {
  return def.schedule?.cost ?? 0.05;
}
function shardCases(cases2, shard) {
  const order = cases2.map((c3, i) => ({ c: c3, i, cost: caseCost(c3) }));
  order.sort((a, b) => b.cost - a.cost || a.i - b.i);
  const load = new Array(shard.count).fill(0);
  const owner = new Array(cases2.length);
  for (const { i, cost } of order) {
    let best = 0;
    for (let s = 1; s < shard.count; s++) if (load[s] < load[best] - 1e-9) best = s;
    load[best] = load[best] + cost;
    owner[i] = best;
  }
  return cases2.filter((_, i) => owner[i] === shard.index - 1);
}
function runOrder(cases2, jobs) {
  const indices = cases2.map((_, i) => i);
  if (jobs <= 1) return indices;
  const alone = indices.filter((i) => cases2[i]?.schedule?.runsAlone === true);
  const rest = indices.filter((i) => cases2[i]?.schedule?.runsAlone !== true);
  rest.sort((a, b) => caseCost(cases2[b]) - caseCost(cases2[a]) || a - b);
  return [...alone, ...rest];
}
async function runPool(order, jobs, alone, stop, task, idle = () => false) {
  const queue = [...order];
  const running = /* @__PURE__ */ new Set();
  let working = 0;
  let exclusive = false;
  let failure = null;
  while (queue.length > 0 && failure === null && !stop()) {
    const next = queue[0];
    const needsAlone = alone(next);
    const takesSlot = jobs <= 1 || needsAlone || !idle(next);
    if (exclusive || needsAlone && running.size > 0 || jobs <= 1 && running.size > 0 || takesSlot && working >= jobs) {
      await Promise.race(running);
      continue;
    }
    queue.shift();
    exclusive = needsAlone;
    if (takesSlot) working += 1;
    const p = task(next).catch((err) => {
      failure ??= { err };
    }).finally(() => {
      running.delete(p);
      if (takesSlot) working -= 1;
      if (needsAlone) exclusive = false;
    });
    running.add(p);
  }
  await Promise.all(running);
  if (failure !== null) throw failure.err;
}
function runCasesScheduled(cases2, jobs, stopped, task) {
  return runPool(
    runOrder(cases2, jobs),
    jobs,
    (i) => cases2[i]?.schedule?.runsAlone === true,
    stopped,
    task,
    (i) => cases2[i]?.schedule?.idle === true
  );
}
function selectForRun(config) {
  const from = catalogueFor(config.extended, config.role, config.http2 === true ? "h2" : "http/1.1", config.robustness === true);
  for (const pattern of config.cases) refuseOtherTransport(pattern, from, config.http2 === true);
  const patterns = selectCases(from, config.cases, config.excludeCases);
  if (patterns.length === 0) throw new UsageError("no case is selected: check --cases and --exclude-cases");
  const all = config.quick === true ? quickSample(patterns) : patterns;
  if (all.length === 0) throw new UsageError("no case is selected: --quick keeps none of --cases' cases (it samples groups 9, 12 and 13)");
  return { cases: config.shard === null ? all : shardCases(all, config.shard), selected: all.length };
}
function refuseOtherTransport(pattern, from, http22) {
  if (selectCases(from, [pattern]).length > 0) return;
  const named = selectCases(everyCase, [pattern]).map((c3) => c3.id.split(".")[0]);
  if (http22 && named.some((g) => g === "14" || g === "15")) {
    throw new UsageError(
      `--cases ${pattern}: groups 14 and 15 script HTTP/1.1 opening handshakes and cannot run over --http2 (group 16 has RFC 8441's rules: --extended --cases '16.*')`
    );
  }
  if (!http22 && named.includes("16")) throw new UsageError(`--cases ${pattern}: group 16 (WebSocket over HTTP/2, RFC 8441) runs with --http2 --extended only`);
}
var init_schedule = __esm({
  "src/run/schedule.ts"() {
    "use strict";
    init_registry();
    init_quick();
    init_select();
    init_errors();
  }
});

// src/bundled/h2-echo.ts
import { readFileSync } from "node:fs";
import http2 from "node:http2";

// node_modules/ws/wrapper.mjs
var wrapper_exports = {};
__export(wrapper_exports, {
  PerMessageDeflate: () => import_permessage_deflate.default,
  Receiver: () => import_receiver.default,
  Sender: () => import_sender.default,
  WebSocket: () => import_websocket.default,
  WebSocketServer: () => import_websocket_server.default,
  createWebSocketStream: () => import_stream.default,
  default: () => wrapper_default,
  extension: () => import_extension.default,
  subprotocol: () => import_subprotocol.default
});
var import_stream = __toESM(require_stream(), 1);
var import_extension = __toESM(require_extension(), 1);
var import_permessage_deflate = __toESM(require_permessage_deflate(), 1);
var import_receiver = __toESM(require_receiver(), 1);
var import_sender = __toESM(require_sender(), 1);
var import_subprotocol = __toESM(require_subprotocol(), 1);
var import_websocket = __toESM(require_websocket(), 1);
var import_websocket_server = __toESM(require_websocket_server(), 1);
var wrapper_default = import_websocket.default;

// src/bundled/h2-echo.ts
var { Receiver: Receiver2, Sender: Sender2, PerMessageDeflate: PerMessageDeflate2, extension: extension2 } = wrapper_exports;
function newDeflate(isServer) {
  return new PerMessageDeflate2({ ...isServer ? {} : { clientMaxWindowBits: true }, zlibDeflateOptions: { level: 1 }, isServer, maxPayload: MAX_PAYLOAD });
}
function acceptAnswer(deflate, header) {
  if (header === void 0) return {};
  const answered = extension2.parse(header);
  const names = Object.keys(answered);
  if (names.length !== 1 || names[0] !== "permessage-deflate") return null;
  deflate.accept(answered["permessage-deflate"] ?? []);
  return { "permessage-deflate": deflate };
}
var HTTP2_ENV = "WSGATE_HTTP2";
var MAX_PAYLOAD = 64 * 1024 * 1024;
function statusOf(err) {
  for (const key of Object.getOwnPropertySymbols(err)) {
    const value = err[key];
    if (typeof value === "number" && value >= 1e3 && value < 5e3) return value;
  }
  return 1002;
}
function echoStream(stream, role, onText, extensions = {}) {
  const mask = role === "client";
  const compress = extensions["permessage-deflate"] !== void 0;
  const receiver = new Receiver2({ isServer: role === "server", maxPayload: MAX_PAYLOAD, extensions });
  const sender = new Sender2(stream, extensions);
  let closeSent = false;
  const endStream = () => {
    if (!stream.writableEnded && !stream.destroyed) stream.end();
  };
  const sendClose = (code, reason) => {
    if (closeSent) return;
    closeSent = true;
    sender.close(code, reason, mask, () => void 0);
  };
  receiver.on("message", (data, isBinary) => {
    if (closeSent) return;
    if (onText !== void 0) onText(data.toString("utf8"));
    else sender.send(data, { binary: isBinary, fin: true, mask, compress }, () => void 0);
  });
  receiver.on("ping", (data) => {
    if (!closeSent) sender.pong(data, mask, () => void 0);
  });
  const stopReading = () => {
    stream.unpipe(receiver);
    stream.resume();
  };
  receiver.on("conclude", (code, reason) => {
    stopReading();
    sendClose(code === 1005 ? void 0 : code, reason);
    if (role === "server") endStream();
  });
  receiver.on("error", (err) => {
    stopReading();
    sendClose(statusOf(err), "");
    endStream();
  });
  stream.pipe(receiver);
  stream.on("error", () => void 0);
  stream.on("end", endStream);
  return new Promise(
    (resolve2) => stream.on("close", () => {
      extensions["permessage-deflate"]?.cleanup();
      resolve2();
    })
  );
}
function echoH2(url2, onText) {
  const u = new URL(url2);
  const secure = u.protocol === "wss:";
  return new Promise((resolve2) => {
    const session = http2.connect(`${secure ? "https" : "http"}://${u.host}`, secure ? caOptions() : {});
    const done = () => {
      session.close();
      resolve2();
    };
    session.on("error", done);
    session.once("remoteSettings", (settings) => {
      if (settings.enableConnectProtocol !== true) return done();
      const deflate = newDeflate(false);
      const stream = session.request(
        {
          ":method": "CONNECT",
          ":protocol": "websocket",
          ":scheme": secure ? "https" : "http",
          ":path": `${u.pathname}${u.search}`,
          ":authority": u.host,
          "sec-websocket-version": "13",
          "sec-websocket-extensions": extension2.format({ "permessage-deflate": [deflate.offer()] })
        },
        { endStream: false }
      );
      stream.on("error", () => void 0);
      stream.once("response", (headers) => {
        const status = Number(headers[":status"]);
        let extensions = null;
        try {
          extensions = acceptAnswer(deflate, headers["sec-websocket-extensions"]);
        } catch {
          extensions = null;
        }
        if (status < 200 || status >= 300 || extensions === null) stream.close(http2.constants.NGHTTP2_CANCEL);
        else void echoStream(stream, "client", onText, extensions);
      });
      stream.on("close", done);
    });
  });
}
function caOptions() {
  const file = process.env.WSGATE_CA_FILE;
  return file === void 0 || file === "" ? {} : { ca: readFileSync(file) };
}

// src/config/shipped-limits.ts
var SHIPPED_LIMITS_ENV = "WSGATE_WS_LIMITS";

// src/bundled/ws-echo.ts
var shipped = process.env[SHIPPED_LIMITS_ENV] === "shipped";
var CATALOGUE_LIMITS = shipped ? {} : { maxPayload: 64 * 1024 * 1024, maxFragments: 0 };
var WS_SERVER_OPTIONS = {
  // zlib level 1 for the echoes, as the bundled client: no verdict depends on it.
  perMessageDeflate: { zlibDeflateOptions: { level: 1 } },
  ...CATALOGUE_LIMITS
};
var ECHO_HIGH_WATER = 1024 * 1024;
function echoBack(ws, data, isBinary) {
  ws.send(data, { binary: isBinary }, () => {
    if (ws.isPaused && ws.bufferedAmount <= ECHO_HIGH_WATER) ws.resume();
  });
  if (ws.bufferedAmount > ECHO_HIGH_WATER) ws.pause();
}
var WS_ECHO_OPTIONS = {
  // zlib level 1 (Z_BEST_SPEED) for the echoes, as ws lets its users choose (its README's example
  // tunes level and memLevel): compression levels change no verdict, and at ws's default level 6
  // the client's deflate was most of a whole run's CPU (groups 12 and 13 echo 1000 messages of up to
  // 128 KiB per case). Measured over 12.1.*, 12.3.* and 13.1.*: client CPU 118 -> 62 s, wall 116 ->
  // 63 s (BENCHMARKS.md).
  perMessageDeflate: { clientMaxWindowBits: true, zlibDeflateOptions: { level: 1 } },
  ...CATALOGUE_LIMITS
};
var OPEN_WITHIN_MS = 3e4;
function echo(url2, onText, options = WS_ECHO_OPTIONS, openWithinMs = OPEN_WITHIN_MS) {
  return new Promise((resolve2) => {
    const ws = new wrapper_default(url2, options);
    const deadline = openWithinMs === null ? void 0 : setTimeout(() => ws.terminate(), openWithinMs);
    ws.on("open", () => clearTimeout(deadline));
    ws.on("message", (data, isBinary) => {
      if (onText !== void 0) onText(data.toString("utf8"));
      else echoBack(ws, data, isBinary);
    });
    ws.on("error", () => void 0);
    ws.on("close", () => {
      clearTimeout(deadline);
      resolve2();
    });
  });
}

// src/bundled/reference-client.ts
var echo2 = process.env[HTTP2_ENV] === "1" ? echoH2 : echo;
async function runConcurrently(base, agent, count3, jobs) {
  const [{ catalogue: catalogue2 }, { runCasesScheduled: runCasesScheduled2, runPool: runPool2 }] = await Promise.all([Promise.resolve().then(() => (init_registry(), registry_exports)), Promise.resolve().then(() => (init_schedule(), schedule_exports))]);
  const byId = new Map(catalogue2.map((c3) => [c3.id, c3]));
  const ids = new Array(count3).fill("");
  await runPool2(
    ids.map((_, i) => i),
    8,
    () => false,
    () => false,
    (i) => echo2(`${base}/getCaseInfo?case=${i + 1}`, (text) => {
      ids[i] = JSON.parse(text).id;
    })
  );
  const cases2 = ids.map((id) => byId.get(id) ?? { id });
  await runCasesScheduled2(
    cases2,
    jobs,
    () => false,
    (i) => echo2(`${base}/runCase?case=${i + 1}&agent=${agent}`)
  );
}
var url = process.argv[2] ?? process.env.WSGATE_URL;
if (url === void 0 || url === "") {
  process.stderr.write("reference-client: no URL (give it as the first argument or in WSGATE_URL)\n");
  process.exit(2);
}
var parsed = new URL(url);
if (parsed.pathname === "/" || parsed.pathname === "") {
  const base = url.replace(/\/+$/, "");
  const agent = encodeURIComponent(process.argv[3] ?? process.env.WSGATE_AGENT ?? "wsgate-reference-ws");
  let count3 = 0;
  await echo2(`${base}/getCaseCount`, (text) => {
    count3 = Number(text);
  });
  const jobs = Math.max(1, Math.floor(Number(process.env.WSGATE_JOBS ?? "1")) || 1);
  if (jobs === 1) {
    for (let i = 1; i <= count3; i++) await echo2(`${base}/runCase?case=${i}&agent=${agent}`);
  } else {
    await runConcurrently(base, agent, count3, jobs);
  }
  const updateReports = `${base}/updateReports?agent=${agent}`;
  await (echo2 === echo ? echo(updateReports, void 0, WS_ECHO_OPTIONS, null) : echo2(updateReports));
} else {
  await echo2(url);
}

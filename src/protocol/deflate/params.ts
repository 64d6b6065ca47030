/**
 * permessage-deflate negotiation (RFC 7692 §7), both sides, as autobahn-python 0.10.9's
 * compress_deflate.py does: a server parses the client's offers and writes its answer
 * (PerMessageDeflateOffer.parse, PerMessageDeflateOfferAccept); a client writes its offers and parses
 * the server's answer (PerMessageDeflateOffer.getExtensionString, PerMessageDeflateResponse.parse).
 * Either way the result is a DeflateAgreement for the connection's compressor. Pure.
 */

/** A client's permessage-deflate offer, parsed as autobahn-python 0.10.9 does. */
export interface DeflateOffer {
  /** Autobahn: always true (the client can always be asked for client_no_context_takeover). */
  acceptNoContextTakeover: boolean;
  /** client_max_window_bits present (with or without a value): the server may set it. */
  acceptMaxWindowBits: boolean;
  /** server_no_context_takeover requested by the client. */
  requestNoContextTakeover: boolean;
  /** server_max_window_bits=N requested by the client (8-15), or 0. */
  requestMaxWindowBits: number;
}

/** How the server accepts an offer (Autobahn's PerMessageDeflateOfferAccept). */
export interface DeflateAccept {
  offer: DeflateOffer;
  /** Ask the client not to keep its compression context (client_no_context_takeover in the response). */
  requestNoContextTakeover: boolean;
  /** Ask the client for this compression window (client_max_window_bits=N in the response), or 0. */
  requestMaxWindowBits: number;
}

const EXTENSION_NAME = 'permessage-deflate';

/** The four extension parameters of RFC 7692 §7.1. */
const Param = {
  serverNoContextTakeover: 'server_no_context_takeover',
  clientNoContextTakeover: 'client_no_context_takeover',
  serverMaxWindowBits: 'server_max_window_bits',
  clientMaxWindowBits: 'client_max_window_bits',
} as const;

/** LZ77 window sizes: "a decimal integer value without leading zeroes between 8 to 15, inclusive" (§7.1.2.1). */
export const WindowBits = { min: 8, max: 15, default: 15 } as const;

/** Python 2's int() on a str: optional whitespace and sign around ASCII digits; int(True) is 1. */
function pythonInt(value: string | true): bigint | null {
  if (value === true) return 1n;
  const m = /^[ \t\n\r\v\f]*([+-]?[0-9]+)[ \t\n\r\v\f]*$/.exec(value);
  return m === null ? null : BigInt(m[1]!);
}

/** A window value Autobahn accepts (WINDOW_SIZE_PERMISSIBLE_VALUES = 8..15). */
function isWindowBits(value: bigint | number): boolean {
  return value >= WindowBits.min && value <= WindowBits.max;
}

/** Python's "%s" of a parameter value: a bare parameter is True. */
function show(value: string | true | bigint): string {
  return value === true ? 'True' : String(value);
}

/** Parses one permessage-deflate offer (PerMessageDeflateOffer.parse): the offer, or Autobahn's reason. */
function parseOffer(params: ReadonlyArray<[string, string | true]>): DeflateOffer | string {
  // Autobahn groups the values by name first (a dict of lists), then checks each name once.
  const byName = new Map<string, Array<string | true>>();
  for (const [rawName, value] of params) {
    const name = rawName.toLowerCase();
    const values = byName.get(name);
    if (values === undefined) byName.set(name, [value]);
    else values.push(value);
  }
  const offer: DeflateOffer = {
    acceptNoContextTakeover: true,
    acceptMaxWindowBits: false,
    requestNoContextTakeover: false,
    requestMaxWindowBits: 0,
  };
  const illegalValue = (value: string | true | bigint, name: string): string =>
    `illegal extension parameter value '${show(value)}' for parameter '${name}' of extension '${EXTENSION_NAME}'`;
  for (const [name, values] of byName) {
    if (values.length > 1) return `multiple occurrence of extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    const value = values[0]!;
    switch (name) {
      case Param.clientMaxWindowBits: {
        // "This parameter has no value or a decimal integer value ... between 8 to 15" (§7.1.2.2);
        // Autobahn only notes that the server may set it, the value itself is a hint.
        if (value !== true) {
          const bits = pythonInt(value);
          if (bits === null) return illegalValue(value, name);
          if (!isWindowBits(bits)) return illegalValue(bits, name);
        }
        offer.acceptMaxWindowBits = true;
        break;
      }
      case Param.clientNoContextTakeover:
        if (value !== true) return illegalValue(value, name);
        offer.acceptNoContextTakeover = true;
        break;
      case Param.serverMaxWindowBits: {
        // A bare server_max_window_bits is int(True) == 1 for Autobahn: refused as '1'.
        const bits = pythonInt(value);
        if (bits === null) return illegalValue(value, name);
        if (!isWindowBits(bits)) return illegalValue(bits, name);
        offer.requestMaxWindowBits = Number(bits);
        break;
      }
      case Param.serverNoContextTakeover:
        if (value !== true) return illegalValue(value, name);
        offer.requestNoContextTakeover = true;
        break;
      default:
        return `illegal extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    }
  }
  return offer;
}

/** Parses the permessage-deflate entries of a Sec-WebSocket-Extensions header (others ignored). */
export function parseDeflateOffers(
  extensions: ReadonlyArray<{ name: string; params: ReadonlyArray<[string, string | true]> }>,
): { ok: true; offers: DeflateOffer[] } | { ok: false; reason: string } {
  // Any bad offer fails the whole handshake, as in Autobahn's succeedHandshake. When several
  // parameters are bad, the first in header order is reported (Autobahn's is Python 2 dict order).
  const offers: DeflateOffer[] = [];
  for (const extension of extensions) {
    if (extension.name.toLowerCase() !== EXTENSION_NAME) continue;
    const parsed = parseOffer(extension.params);
    if (typeof parsed === 'string') return { ok: false, reason: parsed };
    offers.push(parsed);
  }
  return { ok: true, offers };
}

/** Throws where Autobahn's PerMessageDeflateOffer / PerMessageDeflateOfferAccept constructors would. */
export function checkAccept(accept: DeflateAccept): void {
  const { offer } = accept;
  if (offer.requestMaxWindowBits !== 0 && !isWindowBits(offer.requestMaxWindowBits)) {
    throw new Error(`invalid value ${offer.requestMaxWindowBits} for requestMaxWindowBits - permissible values 8-15`);
  }
  if (accept.requestNoContextTakeover && !offer.acceptNoContextTakeover) {
    throw new Error('invalid value true for requestNoContextTakeover - feature unsupported by client');
  }
  if (accept.requestMaxWindowBits !== 0 && !isWindowBits(accept.requestMaxWindowBits)) {
    throw new Error(`invalid value ${accept.requestMaxWindowBits} for requestMaxWindowBits - permissible values 8-15`);
  }
  if (accept.requestMaxWindowBits !== 0 && !offer.acceptMaxWindowBits) {
    throw new Error(`invalid value ${accept.requestMaxWindowBits} for requestMaxWindowBits - feature unsupported by client`);
  }
}

/** The response's extension string, in Autobahn's parameter order. */
export function acceptExtensionString(accept: DeflateAccept): string {
  checkAccept(accept);
  // PerMessageDeflateOfferAccept.getExtensionString: the client's server_* requests are echoed (a
  // server accepts them by including them in the response, §7.1.1.1 / §7.1.2.1), then what we ask
  // of the client.
  let s = EXTENSION_NAME;
  if (accept.offer.requestNoContextTakeover) s += `; ${Param.serverNoContextTakeover}`;
  if (accept.offer.requestMaxWindowBits !== 0) s += `; ${Param.serverMaxWindowBits}=${accept.offer.requestMaxWindowBits}`;
  if (accept.requestNoContextTakeover) s += `; ${Param.clientNoContextTakeover}`;
  if (accept.requestMaxWindowBits !== 0) s += `; ${Param.clientMaxWindowBits}=${accept.requestMaxWindowBits}`;
  return s;
}

/**
 * What a connection's compressor and decompressor use, from its own side: our compressor's window
 * and context rule, and the peer's (our decompressor's).
 */
export interface DeflateAgreement {
  /** Start each message we send with an empty LZ77 window (the peer asked for it). */
  compressNoContextTakeover: boolean;
  /** Our compressor's window (8-15). */
  compressWindowBits: number;
  /** The peer starts each message with an empty window: our decompressor may too. */
  decompressNoContextTakeover: boolean;
  /** The peer's window (8-15). */
  decompressWindowBits: number;
  /** The parameter that set the peer's window, as named in failure reasons. */
  decompressWindowParam: string;
}

/** A server's agreement from the offer it accepted (createFromOfferAccept with isServer=True). */
export function serverAgreement(accept: DeflateAccept): DeflateAgreement {
  checkAccept(accept);
  return {
    compressNoContextTakeover: accept.offer.requestNoContextTakeover,
    compressWindowBits: accept.offer.requestMaxWindowBits || WindowBits.default,
    decompressNoContextTakeover: accept.requestNoContextTakeover,
    decompressWindowBits: accept.requestMaxWindowBits || WindowBits.default,
    decompressWindowParam: Param.clientMaxWindowBits,
  };
}

/**
 * One offer a client makes, as autobahn-python's PerMessageDeflateOffer (the client side): it always
 * allows the server both client parameters, and may ask for the server's.
 */
export interface DeflateClientOffer {
  /** Ask the server not to keep its compression context (server_no_context_takeover). */
  requestNoContextTakeover: boolean;
  /** Ask the server for this window (server_max_window_bits=N), or 0. */
  requestMaxWindowBits: number;
}

/** An offer's extension string, in Autobahn's parameter order (getExtensionString). */
export function offerExtensionString(offer: DeflateClientOffer): string {
  let s = `${EXTENSION_NAME}; ${Param.clientNoContextTakeover}; ${Param.clientMaxWindowBits}`;
  if (offer.requestNoContextTakeover) s += `; ${Param.serverNoContextTakeover}`;
  if (offer.requestMaxWindowBits !== 0) s += `; ${Param.serverMaxWindowBits}=${offer.requestMaxWindowBits}`;
  return s;
}

/** The server's permessage-deflate answer, parsed (PerMessageDeflateResponse; 0: no window given). */
export interface DeflateResponse {
  clientMaxWindowBits: number;
  clientNoContextTakeover: boolean;
  serverMaxWindowBits: number;
  serverNoContextTakeover: boolean;
}

/**
 * Parses the server's permessage-deflate parameters (PerMessageDeflateResponse.parse): the response,
 * or Autobahn's reason for failing the handshake. Like Autobahn, it does not check the answer
 * against the offers made.
 */
export function parseDeflateResponse(params: ReadonlyArray<[string, string | true]>): DeflateResponse | string {
  const response: DeflateResponse = { clientMaxWindowBits: 0, clientNoContextTakeover: false, serverMaxWindowBits: 0, serverNoContextTakeover: false };
  const seen = new Set<string>();
  for (const [rawName, value] of params) {
    const name = rawName.toLowerCase();
    if (seen.has(name)) return `multiple occurrence of extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    seen.add(name);
    const illegal = (v: string | true | bigint): string =>
      `illegal extension parameter value '${show(v)}' for parameter '${name}' of extension '${EXTENSION_NAME}'`;
    switch (name) {
      case Param.clientMaxWindowBits:
      case Param.serverMaxWindowBits: {
        const bits = pythonInt(value);
        if (bits === null) return illegal(value);
        if (!isWindowBits(bits)) return illegal(bits);
        if (name === Param.clientMaxWindowBits) response.clientMaxWindowBits = Number(bits);
        else response.serverMaxWindowBits = Number(bits);
        break;
      }
      case Param.clientNoContextTakeover:
      case Param.serverNoContextTakeover:
        if (value !== true) return illegal(value);
        if (name === Param.clientNoContextTakeover) response.clientNoContextTakeover = true;
        else response.serverNoContextTakeover = true;
        break;
      default:
        return `illegal extension parameter '${name}' for extension '${EXTENSION_NAME}'`;
    }
  }
  return response;
}

/** A client's agreement from the server's answer (createFromResponseAccept with isServer=False). */
export function clientAgreement(response: DeflateResponse): DeflateAgreement {
  return {
    compressNoContextTakeover: response.clientNoContextTakeover,
    compressWindowBits: response.clientMaxWindowBits || WindowBits.default,
    decompressNoContextTakeover: response.serverNoContextTakeover,
    decompressWindowBits: response.serverMaxWindowBits || WindowBits.default,
    decompressWindowParam: Param.serverMaxWindowBits,
  };
}

/** Whether an extension name is permessage-deflate's. */
export function isDeflateExtension(name: string): boolean {
  return name.toLowerCase() === EXTENSION_NAME;
}

// msgpack (https://msgpack.org) for the croupier protocol: nil, bool, int, float, str, bin,
// array and map. Integers beyond 2^53 decode as BigInt (seeds are 63-bit) and BigInts encode
// as 64-bit integers; other integers decode as Numbers. Map keys are strings.

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

export class MsgpackError extends Error {}

/** The msgpack bytes of `value` (a Uint8Array). */
export function encode(value) {
  const out = new Writer();
  write(out, value, 0);
  return out.bytes();
}

/** The value of one msgpack message filling `bytes` (Uint8Array or ArrayBuffer). */
export function decode(bytes) {
  const reader = new Reader(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  const value = reader.read(0);
  if (reader.pos !== reader.bytes.length) {
    throw new MsgpackError(`${reader.bytes.length - reader.pos} bytes after the message`);
  }
  return value;
}

/** The values of the whole messages filling `bytes`, one after another (a frame from the
 * server holds one or more); a message cut short is an error. */
export function decodeAll(bytes) {
  const reader = new Reader(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  const values = [];
  while (reader.pos < reader.bytes.length) values.push(reader.read(0));
  return values;
}

const MAX_DEPTH = 64;

class Writer {
  constructor() {
    this.buf = new Uint8Array(256);
    this.view = new DataView(this.buf.buffer);
    this.pos = 0;
  }
  reserve(n) {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }
  u8(x) { this.reserve(1); this.buf[this.pos++] = x; }
  u16(x) { this.reserve(2); this.view.setUint16(this.pos, x); this.pos += 2; }
  u32(x) { this.reserve(4); this.view.setUint32(this.pos, x); this.pos += 4; }
  raw(bytes) { this.reserve(bytes.length); this.buf.set(bytes, this.pos); this.pos += bytes.length; }
  bytes() { return this.buf.slice(0, this.pos); }
}

function write(out, value, depth) {
  if (depth > MAX_DEPTH) throw new MsgpackError("nested too deeply");
  if (value === null || value === undefined) out.u8(0xc0);
  else if (value === false) out.u8(0xc2);
  else if (value === true) out.u8(0xc3);
  else if (typeof value === "number") writeNumber(out, value);
  else if (typeof value === "bigint") writeBigInt(out, value);
  else if (typeof value === "string") writeString(out, value);
  else if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    writeBin(out, value instanceof Uint8Array ? value : new Uint8Array(value));
  } else if (Array.isArray(value)) {
    writeHeader(out, value.length, 0x90, 0xdc, 0xdd);
    for (const item of value) write(out, item, depth + 1);
  } else if (value instanceof Map) {
    writeHeader(out, value.size, 0x80, 0xde, 0xdf);
    for (const [k, v] of value) { write(out, k, depth + 1); write(out, v, depth + 1); }
  } else if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    writeHeader(out, entries.length, 0x80, 0xde, 0xdf);
    for (const [k, v] of entries) { writeString(out, k); write(out, v, depth + 1); }
  } else {
    throw new MsgpackError(`cannot encode a ${typeof value}`);
  }
}

function writeHeader(out, n, fix, c16, c32) {
  if (n < 16) out.u8(fix | n);
  else if (n < 0x10000) { out.u8(c16); out.u16(n); }
  else { out.u8(c32); out.u32(n); }
}

function writeNumber(out, x) {
  if (!Number.isSafeInteger(x)) {  // a float (or an integer too large to be exact)
    out.u8(0xcb); out.reserve(8); out.view.setFloat64(out.pos, x); out.pos += 8;
  } else if (x >= 0) {
    if (x < 0x80) out.u8(x);
    else if (x < 0x100) { out.u8(0xcc); out.u8(x); }
    else if (x < 0x10000) { out.u8(0xcd); out.u16(x); }
    else if (x < 0x100000000) { out.u8(0xce); out.u32(x); }
    else writeBigInt(out, BigInt(x));
  } else if (x >= -32) out.u8(x & 0xff);
  else if (x >= -0x80) { out.u8(0xd0); out.reserve(1); out.view.setInt8(out.pos++, x); }
  else if (x >= -0x8000) { out.u8(0xd1); out.reserve(2); out.view.setInt16(out.pos, x); out.pos += 2; }
  else if (x >= -0x80000000) { out.u8(0xd2); out.reserve(4); out.view.setInt32(out.pos, x); out.pos += 4; }
  else writeBigInt(out, BigInt(x));
}

function writeBigInt(out, x) {
  if (x >= 0n) {
    if (x >= 1n << 64n) throw new MsgpackError("an integer over 64 bits");
    if (x < 0x100000000n) { writeNumber(out, Number(x)); return; }
    out.u8(0xcf); out.reserve(8); out.view.setBigUint64(out.pos, x); out.pos += 8;
  } else {
    if (x < -(1n << 63n)) throw new MsgpackError("an integer over 64 bits");
    if (x >= -0x80000000n) { writeNumber(out, Number(x)); return; }
    out.u8(0xd3); out.reserve(8); out.view.setBigInt64(out.pos, x); out.pos += 8;
  }
}

function writeString(out, s) {
  const bytes = utf8Encoder.encode(s);
  const n = bytes.length;
  if (n < 32) out.u8(0xa0 | n);
  else if (n < 0x100) { out.u8(0xd9); out.u8(n); }
  else if (n < 0x10000) { out.u8(0xda); out.u16(n); }
  else { out.u8(0xdb); out.u32(n); }
  out.raw(bytes);
}

function writeBin(out, bytes) {
  const n = bytes.length;
  if (n < 0x100) { out.u8(0xc4); out.u8(n); }
  else if (n < 0x10000) { out.u8(0xc5); out.u16(n); }
  else { out.u8(0xc6); out.u32(n); }
  out.raw(bytes);
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
  }
  need(n) {
    if (this.pos + n > this.bytes.length) throw new MsgpackError("the message is cut short");
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8() { return this.bytes[this.need(1)]; }
  u16() { return this.view.getUint16(this.need(2)); }
  u32() { return this.view.getUint32(this.need(4)); }
  take(n) { const at = this.need(n); return this.bytes.slice(at, at + n); }
  str(n) {
    const at = this.need(n);
    return utf8Decoder.decode(this.bytes.subarray(at, at + n));
  }
  array(n, depth) {
    const items = new Array(n);
    for (let i = 0; i < n; i++) items[i] = this.read(depth + 1);
    return items;
  }
  map(n, depth) {
    const obj = {};
    for (let i = 0; i < n; i++) {
      const key = this.read(depth + 1);
      if (typeof key !== "string") throw new MsgpackError("a map key that is not a string");
      const value = this.read(depth + 1);
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return obj;
  }
  read(depth) {
    if (depth > MAX_DEPTH) throw new MsgpackError("nested too deeply");
    const b = this.u8();
    if (b < 0x80) return b;
    if (b < 0x90) return this.map(b & 0x0f, depth);
    if (b < 0xa0) return this.array(b & 0x0f, depth);
    if (b < 0xc0) return this.str(b & 0x1f);
    if (b >= 0xe0) return b - 0x100;
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return this.take(this.u8());
      case 0xc5: return this.take(this.u16());
      case 0xc6: return this.take(this.u32());
      case 0xca: return this.view.getFloat32(this.need(4));
      case 0xcb: return this.view.getFloat64(this.need(8));
      case 0xcc: return this.u8();
      case 0xcd: return this.u16();
      case 0xce: return this.u32();
      case 0xcf: return small(this.view.getBigUint64(this.need(8)));
      case 0xd0: return this.view.getInt8(this.need(1));
      case 0xd1: return this.view.getInt16(this.need(2));
      case 0xd2: return this.view.getInt32(this.need(4));
      case 0xd3: return small(this.view.getBigInt64(this.need(8)));
      case 0xd9: return this.str(this.u8());
      case 0xda: return this.str(this.u16());
      case 0xdb: return this.str(this.u32());
      case 0xdc: return this.array(this.u16(), depth);
      case 0xdd: return this.array(this.u32(), depth);
      case 0xde: return this.map(this.u16(), depth);
      case 0xdf: return this.map(this.u32(), depth);
      default: throw new MsgpackError(`unsupported type byte 0x${b.toString(16)}`);
    }
  }
}

function small(big) {
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big) : big;
}

// The page's connection to the croupier server: msgpack-rpc over a WebSocket (binary frames
// of whole messages: the server gathers what it sends into a frame every 20 ms at most; the
// page sends one message a frame), the same protocol TCP clients speak (docs/protocol.md).
// The page says hello as a watcher; requests from the server (a watcher gets none) are answered with
// method-not-found, as the protocol asks of a client that does not offer a method.

import { decodeAll, encode } from "./msgpack.js";

const OPEN_TIMEOUT_MS = 15000;

export class RpcError extends Error {
  constructor(error) {
    const text = typeof error === "string" ? error : `${error.name} (${error.code}): ${error.message}`;
    super(text);
    this.error = error;
  }
}

export class Rpc {
  constructor(url = Rpc.defaultUrl()) {
    this.url = url;
    this.nextId = 0;
    this.pending = new Map();
    this.listeners = new Map();
    this.onclose = null;
  }

  static defaultUrl() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/rpc`;
  }

  /** Open the WebSocket and say hello; resolves to hello's result. */
  async connect(name = "croupier-web") {
    this.socket = new WebSocket(this.url);
    this.socket.binaryType = "arraybuffer";
    await new Promise((resolve, reject) => {
      const late = setTimeout(() => {
        reject(new Error(`no answer in ${OPEN_TIMEOUT_MS / 1000} s`));
        this.socket.close();
      }, OPEN_TIMEOUT_MS);
      this.socket.addEventListener("open", () => { clearTimeout(late); resolve(); }, { once: true });
      this.socket.addEventListener("error", () => {
        clearTimeout(late);
        reject(new Error("cannot reach the server"));
      }, { once: true });
    });
    this.socket.addEventListener("message", (event) => this.receive(event.data));
    this.socket.addEventListener("close", () => this.closed());
    return this.call("hello", 1, name, "watcher");
  }

  /** Call `method` with positional params; resolves to the result, rejects with RpcError. */
  call(method, ...params) {
    const msgid = this.nextId;
    this.nextId = (this.nextId + 1) % 0x100000000;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected to the server"));
        return;
      }
      this.pending.set(msgid, { resolve, reject });
      this.socket.send(encode([0, msgid, method, params]));
    });
  }

  /** Call `fn(params)` for each notification `method` (e.g. "table.event"). */
  on(method, fn) {
    if (!this.listeners.has(method)) this.listeners.set(method, []);
    this.listeners.get(method).push(fn);
  }

  close() { if (this.socket) this.socket.close(); }

  receive(data) {
    let messages;
    try { messages = decodeAll(new Uint8Array(data)); } catch (err) { console.error(err); return; }
    for (const message of messages) this.handle(message);
  }

  handle(message) {
    if (!Array.isArray(message)) return;
    const [type] = message;
    if (type === 1) {
      const [, msgid, error, result] = message;
      const call = this.pending.get(msgid);
      if (!call) return;
      this.pending.delete(msgid);
      if (error !== null) call.reject(new RpcError(error));
      else call.resolve(result);
    } else if (type === 2) {
      const [, method, params] = message;
      for (const fn of this.listeners.get(method) || []) fn(params);
    } else if (type === 0) {
      const [, msgid, method] = message;
      const error = { code: -32601, name: "method-not-found", message: `a web page offers no ${method}` };
      this.socket.send(encode([1, msgid, error, null]));
    }
  }

  closed() {
    for (const { reject } of this.pending.values()) reject(new Error("the connection closed"));
    this.pending.clear();
    if (this.onclose) this.onclose();
  }
}

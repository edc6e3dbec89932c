#!/usr/bin/env node
// A croupier bot in Node.js: plain msgpack-rpc over TCP with @msgpack/msgpack, nothing
// croupier-specific. It says hello as a bot, creates a table (or joins --table T), takes a
// seat and plays "hit below 17" until the table finishes, then prints the table's final
// info as one JSON line. See docs/protocol.md for every message it sends and receives.
//
//   npm ci && node bot.js --port 7171 [--host H] [--table T] [--rounds N] [--seed S]

import net from "node:net";
import { encode, decodeMultiStream } from "@msgpack/msgpack";

const REQUEST = 0, RESPONSE = 1, NOTIFICATION = 2;

function parseArgs(argv) {
  const options = { host: "127.0.0.1", port: 7171, table: null, rounds: 10, seed: null };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    const value = argv[i + 1];
    if (!(key in options) || value === undefined) {
      throw new Error(`usage: bot.js [--host H] [--port P] [--table T] [--rounds N] [--seed S]`);
    }
    options[key] = key === "host" ? value : Number.parseInt(value, 10);
  }
  return options;
}

// hit below 17; bet the minimum; decline insurance and early surrender
function decide(observation) {
  switch (observation.phase) {
    case "bet": return { kind: "bet", amount: observation.min_bet };
    case "play": return { kind: observation.total < 17 ? "hit" : "stand" };
    default: return { kind: "decline" };
  }
}

class Connection {
  constructor(socket) {
    this.socket = socket;
    this.nextId = 0;
    this.pending = new Map();
    this.onNotification = () => {};
  }

  call(method, params) {
    const msgid = this.nextId++;
    this.socket.write(encode([REQUEST, msgid, method, params]));
    return new Promise((resolve, reject) => this.pending.set(msgid, { resolve, reject }));
  }

  async receive() {
    for await (const message of decodeMultiStream(this.socket)) {
      const [type] = message;
      if (type === REQUEST) {
        const [, msgid, method, params] = message;
        if (method === "decide") {
          this.socket.write(encode([RESPONSE, msgid, null, decide(params[1])]));
        } else {
          const error = { code: -32601, name: "method-not-found", message: `no ${method}` };
          this.socket.write(encode([RESPONSE, msgid, error, null]));
        }
      } else if (type === RESPONSE) {
        const [, msgid, error, result] = message;
        const call = this.pending.get(msgid);
        this.pending.delete(msgid);
        if (call) error === null ? call.resolve(result) : call.reject(new Error(error.message));
      } else if (type === NOTIFICATION) {
        this.onNotification(message[1], message[2]);
      }
    }
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const socket = net.connect(options.port, options.host);
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const connection = new Connection(socket);
  let table = options.table;
  const finished = new Promise((resolve, reject) => {
    connection.onNotification = (method, params) => {
      if (method === "table.status" && params[0] === table && params[1].state === "finished") {
        resolve(params[1]);
      } else if (method === "shutdown" || method === "error") {
        reject(new Error(`the server sent ${method}`));
      }
    };
  });
  const receiving = connection.receive();
  await connection.call("hello", [1, "node-lim17", "bot"]);
  if (table === null) {
    // rules, options, seed, seats, fill, rounds: positional, as the specification says
    const info = await connection.call("table.create",
      ["vegas-s17", {}, options.seed, 1, [], options.rounds]);
    table = info.table;
  }
  const joined = await connection.call("table.join", [table, null]);
  const info = await finished;
  const seat = joined.seat;
  console.log(JSON.stringify({ table, seat, played: info.played, chips: info.chips[seat - 1],
    house: info.house, reason: info.reason }));
  socket.end();
  await receiving.catch(() => {});
}

main().catch((error) => {
  console.error(`node-bot: ${error.message}`);
  process.exit(1);
});

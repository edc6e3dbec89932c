#!/usr/bin/env node
// A croupier bot in Node.js with the msgpack5rpc library, used unchanged: its Session
// answers the server's "decide" requests and hears its notifications on the same TCP
// connection that carries the bot's own calls. It says hello as a bot, creates a table (or
// joins --table T), takes a seat and plays "hit below 17" until the table finishes, then
// prints the table's final info as one JSON line. See docs/protocol.md.
//
//   npm ci && node bot.js --port 7171 [--host H] [--table T] [--rounds N] [--seed S]

"use strict";
const net = require("node:net");
const Session = require("msgpack5rpc");

function parseArgs(argv) {
  const options = { host: "127.0.0.1", port: 7171, table: null, rounds: 10, seed: null };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    const value = argv[i + 1];
    if (!(key in options) || value === undefined) {
      throw new Error("usage: bot.js [--host H] [--port P] [--table T] [--rounds N] [--seed S]");
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

// a call as a promise; croupier's error values are maps ({code, name, message})
function call(session, method, params) {
  return new Promise((resolve, reject) => {
    session.request(method, params, (error, result) => {
      if (error === null || error === undefined) resolve(result);
      else reject(new Error(typeof error === "object" ? error.message : String(error)));
    });
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const socket = net.connect(options.port, options.host);
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const session = new Session();
  session.attach(socket, socket);
  session.on("request", (method, params, response) => {
    if (method === "decide") response.send(decide(params[1]));
    else response.send({ code: -32601, name: "method-not-found", message: `no ${method}` }, true);
  });
  let table = options.table;
  const finished = new Promise((resolve, reject) => {
    session.on("notification", (method, params) => {
      if (method === "table.status" && params[0] === table && params[1].state === "finished") {
        resolve(params[1]);
      } else if (method === "shutdown" || method === "error") {
        reject(new Error(`the server sent ${method}`));
      }
    });
  });
  await call(session, "hello", [1, "msgpack5rpc-lim17", "bot"]);
  if (table === null) {
    // rules, options, seed, seats, fill, rounds: positional, as the specification says
    const info = await call(session, "table.create",
      ["vegas-s17", {}, options.seed, 1, [], options.rounds]);
    table = info.table;
  }
  const joined = await call(session, "table.join", [table, null]);
  const info = await finished;
  const seat = joined.seat;
  console.log(JSON.stringify({ table, seat, played: info.played, chips: info.chips[seat - 1],
    house: info.house, reason: info.reason }));
  session.detach();
  socket.end();
}

main().catch((error) => {
  console.error(`msgpack5rpc-bot: ${error.message}`);
  process.exit(1);
});

// The connection: one websocket at /ws, one msgpack map per binary frame (docs/protocol.md,
// "Transport"), reconnection with a growing delay, and the sequence rules of "Sequence
// numbers, views and resync": apply the next event only, ignore a replay, resync on a gap.
import { decode, encode } from "../vendor/msgpack/dist.esm/index.mjs";
import { store } from "./store.js";

export const PROTOCOL_VERSION = 1;
const RESYNC_RETRY_MS = 2500; // resync is rate-limited (one every 2 s after a burst of 3)

export const wsUrl = () => `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;

export const encodeFrame = (message) => encode(message, { ignoreUndefined: true });
export const decodeFrame = (data) => decode(new Uint8Array(data));

export function send(message) {
  const ws = store.state.net.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(encodeFrame(message));
  return true;
}

export function nextId() {
  return store.update((s) => s.net.nextId++);
}

// A table command (its id comes back as `ref` in the error that refuses it): the id, or null
// when the connection is down.
export function command(type, fields) {
  const id = nextId();
  return send({ t: type, table: store.state.table, id, ...fields }) ? id : null;
}

// hello, with the member's session token when this browser keeps one (docs/accounts.md):
// the welcome's `member` then says whether the session is still open.
export const helloMessage = (fields) => ({
  t: "hello",
  version: PROTOCOL_VERSION,
  member: store.state.member?.token || undefined,
  ...fields,
});

// hello on the page's connection; the session token it carried is kept to read the welcome.
export function sayHello(fields) {
  const message = helloMessage(fields);
  store.update((s) => {
    s.net.memberSent = message.member || "";
  });
  return send(message);
}

// One request over a connection of its own (the page's may be at a table, or there is none
// in the lobby): hello, then `message` (id 1) if any; the answer is the first message of
// type `answer`, or an `error`, as the rejection. `onWelcome(welcome, token)` reads the
// welcome with the session token the hello carried.
export function request(message, answer, onWelcome) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl());
    ws.binaryType = "arraybuffer";
    const hello = helloMessage({ nickname: store.state.nick || undefined });
    ws.onopen = () => {
      ws.send(encodeFrame(hello));
      if (message) ws.send(encodeFrame({ ...message, id: 1 }));
    };
    ws.onmessage = (event) => {
      const msg = decodeFrame(event.data);
      if (msg.t === "welcome" && onWelcome) onWelcome(msg, hello.member || "");
      if (msg.t !== answer && msg.t !== "error") return;
      if (msg.t === answer) resolve(msg);
      else reject(msg);
      ws.close();
    };
    // (nothing once settled) the connection failed before an answer
    ws.onclose = () => reject({ code: "closed", message: "the connection closed" });
  });
}

// Create a table: the server's `table_created`, or its `error` as the rejection.
export const createTable = (message) => request({ ...message, t: "create" }, "table_created");

// Open the connection; `hooks.open()` says hello, `hooks.message(msg)` takes each message,
// `hooks.status(key)` follows the connection's state.
export function connect(hooks) {
  const net = store.state.net;
  if (net.stopped) return;
  hooks.status("connecting");
  // a tournament table may run on another server process: moved{url} sends us there
  const ws = new WebSocket(net.url || wsUrl());
  ws.binaryType = "arraybuffer";
  store.update((s) => {
    s.net.ws = ws;
  });
  ws.onopen = () => {
    store.update((s) => {
      s.net.retry = 0;
    });
    hooks.status("connected");
    hooks.open();
  };
  ws.onmessage = (event) => {
    if (ws !== store.state.net.ws) return;
    let message;
    try {
      message = decodeFrame(event.data);
    } catch (err) {
      hooks.problem(`bad frame from the server: ${err}`);
      return;
    }
    store.update(() => hooks.message(message));
  };
  ws.onclose = () => {
    if (ws !== store.state.net.ws) return;
    const stopped = store.update((s) => {
      s.net.ws = null;
      s.net.retry = Math.min(s.net.retry + 1, 5);
      return s.net.stopped;
    });
    if (stopped) {
      hooks.status("stopped");
      return;
    }
    hooks.status("offline");
    setTimeout(() => connect(hooks), 1000 * store.state.net.retry);
  };
}

export function reconnectNow(hooks) {
  const old = store.state.net.ws;
  store.update((s) => {
    s.net.ws = null;
  });
  if (old) old.close();
  connect(hooks);
}

// Whether a table event is the next one to apply (then `t.seq` moves to it). An event not
// above our seq is a replay we have; a gap asks for what we missed (`resync`), once, and
// again after a while if nothing came (the server limits resyncs).
export function sequenced(t, msg) {
  if (!t.synced || msg.seq <= t.seq) return false;
  if (msg.seq > t.seq + 1) {
    const now = performance.now();
    if (!t.resyncing || now - t.resyncAt > RESYNC_RETRY_MS) {
      command("resync", { last_seq: t.seq });
      t.resyncAt = now;
    }
    t.resyncing = true;
    return false;
  }
  t.resyncing = false;
  t.seq = msg.seq;
  return true;
}

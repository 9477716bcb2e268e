// Small sounds friends expect: your turn, chips going in (a bet, a call), the board's cards,
// a pot won. Made with WebAudio oscillators (no file), started only after the person touched
// the page (browsers require a gesture before audio), muted with the speaker button (the
// choice is kept in localStorage). Each sound played is counted on <body>
// (data-sounds-played, data-sound-turn, -chips, -board, -win) for people and tests.
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { KEY, store } from "./store.js";

// [frequency Hz, start s, length s, wave]
const TONES = {
  turn: [[660, 0, 0.12, "sine"], [880, 0.13, 0.16, "sine"]],
  chips: [[1400, 0, 0.04, "triangle"], [1100, 0.05, 0.04, "triangle"], [1250, 0.1, 0.035, "triangle"]],
  board: [[330, 0, 0.06, "triangle"], [392, 0.07, 0.06, "triangle"]],
  win: [[523, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [784, 0.24, 0.2, "sine"]],
};
const ORDER = ["turn", "win", "chips", "board"];
const CHIPS = ["call", "bet", "raise", "allin"];

function count(name) {
  const data = document.body.dataset;
  const key = `sound${name[0].toUpperCase()}${name.slice(1)}`;
  data[key] = String(Number(data[key] || 0) + 1);
  data.soundsPlayed = String(Number(data.soundsPlayed || 0) + 1);
}

// Schedule one sound `delay` seconds from now; false when muted or before any gesture.
export function play(name, delay = 0) {
  const audio = store.state.ui.audio;
  if (!audio || store.state.mute || !TONES[name]) return false;
  const now = audio.currentTime + delay;
  for (const [freq, at, length, wave] of TONES[name]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.12, now + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + length + 0.02);
  }
  count(name);
  return true;
}

// What happened since the last drawing, each kind once: a new decision of ours, a pot we
// won, chips going in, board cards.
export function heardNow(s) {
  const log = s.t.log;
  const last = log.length ? log[log.length - 1][2] : 0;
  const heard = s.ui.heard || (s.ui.heard = { turnNo: s.t.turnNo, serial: last, table: s.table });
  if (heard.table !== s.table || last < heard.serial) Object.assign(heard, { table: s.table, turnNo: s.t.turnNo, serial: last });
  const fresh = log.filter((entry) => entry[2] > heard.serial);
  const kinds = new Set();
  if (s.t.turnNo > heard.turnNo && s.t.turn) kinds.add("turn");
  for (const [kind, msg] of fresh) {
    if (kind === "pot" && s.t.you !== null && msg.winners.includes(s.t.you)) kinds.add("win");
    if (kind === "action" && CHIPS.includes(msg.action)) kinds.add("chips");
    if (kind === "board") kinds.add("board");
  }
  heard.turnNo = s.t.turnNo;
  heard.serial = last;
  return ORDER.filter((kind) => kinds.has(kind));
}

export function playSounds(s) {
  heardNow(s).forEach((kind, i) => play(kind, i * 0.18));
}

const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" aria-hidden="true">${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" aria-hidden="true">${SPEAKER}<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2"/></svg>`;

// A toggle button: its name says what it does ("Mute the sounds"), aria-pressed whether it
// is on; the tooltip says what a click does now.
function renderMute() {
  const s = store.state;
  const button = $("mute");
  const drawn = `${s.mute}|${s.lang}`;
  if (button.dataset.drawn === drawn) return;
  button.dataset.drawn = drawn;
  button.innerHTML = s.mute ? SPEAKER_OFF : SPEAKER_ON;
  button.setAttribute("aria-pressed", String(s.mute));
  button.setAttribute("aria-label", t("soundOff"));
  button.title = s.mute ? t("soundOn") : t("soundOff");
}

// Audio may start only from a gesture: the first touch, click or key makes the context (and
// wakes it if the browser suspended it).
function wake() {
  const ui = store.state.ui;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!ui.audio && Audio) ui.audio = new Audio();
  if (ui.audio && ui.audio.state === "suspended") ui.audio.resume().catch(() => {});
}

export function setupSounds() {
  for (const kind of ["pointerdown", "keydown", "touchend"]) window.addEventListener(kind, wake, { capture: true });
  $("mute").addEventListener("click", () => {
    store.update((s) => {
      s.mute = !s.mute;
    });
    localStorage.setItem(KEY.mute, store.state.mute ? "1" : "0");
    renderMute();
  });
  renderMute();
  store.subscribe(renderMute);
}

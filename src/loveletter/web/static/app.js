// The browser side of the game: a lobby and a table. The server is the authority: this page only
// shows the state it is sent (for its own seat) and sends the moves the server listed as legal.
// Text from other people (names) is only ever set with textContent, never as HTML.
"use strict";

let words = {};
let lang = localStorage.getItem("ll-lang") || ((navigator.language || "en").startsWith("nl") ? "nl" : "en");
let socket = null;
let state = null;
let picking = null; // {card, moves, index} (and target, once chosen) while choosing a move
let retry = 0;
let serverStopped = false; // the server said it was stopping (close 1012), and no connection has opened since
// The version of this page, named by the server that served it; a server upgraded since names another
// on its answers, and the page then asks to be reloaded, for good (it may not read all that server sends).
const PAGE = document.documentElement.dataset.page;
let outdated = false;
let cutOff = false; // the table's connection was lost, and no state has come since: its return is said
let awayAtSwitch = false; // the alert had been put away when the language was last switched
let awaitedSince = 0; // since when (Date.now()) the move now awaited is, by the server's count (see askButton)
let awaySince = {}; // seat → since when (Date.now()) its person has been away, by the server's count (see askButton)
let seenHere = new Set(); // the seats whose person this page has seen at the table (see comings)
let askTimer = null; // draws the table again once a bot may be asked to play for someone here
// {code, full}: the rematch whose seat, ours, was taken while we were away (and whether it is full):
// we may watch it (and, where seats are kept for others who may not come, still ask for one)
let rematchLost = null;
const SEAT_LOST = ["web_seat_taken_away", "web_seat_taken_full"];
let hints = null; // the expert's advice for the state shown, when hints are on
let standing = null; // {code, key}: a refusal still true while that table is watched (a seat's credential refused)
const hintsOn = () => localStorage.getItem("ll-hints") === "on";
// the log lists (by data-key) at their newest line, as the page put them or their reader scrolled them:
// a phone turned (its log then narrower, its lines longer) left a list following the game short of
// its end, seemingly scrolled back, and the log stopped following
const following = new Set();
const LOGS = ".log ol, .previous ol";
const atEnd = (list) => list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
document.addEventListener("scroll", (event) => {  // (a list's scrolling reaches the document while it is captured)
  const list = event.target;
  if (list instanceof Element && list.matches(LOGS))
    if (atEnd(list)) following.add(list.dataset.key); else following.delete(list.dataset.key);
}, true);
// a tap on the alert puts it away until the next message (it stays in sight, over what is under it)
document.getElementById("alert").addEventListener("click", () => putAlertAway());
window.addEventListener("resize", () => {
  for (const list of document.querySelectorAll(LOGS)) if (following.has(list.dataset.key)) list.scrollTop = list.scrollHeight;
});

const $ = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) listen(node, key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
};

// A node's listeners, kept on it (``node.listeners``) behind one listener per kind of event, so that a
// redraw that keeps the node (see morph) gives it the new drawing's. (A handler finds its node as
// ``this``: the node it was drawn on may be one the redraw let go.)
function listen(node, type, handler) {
  node.listeners ||= {};
  if (!node.listeners[type]) { node.listeners[type] = []; node.addEventListener(type, dispatch); }
  node.listeners[type].push(handler);
  return node;
}

function dispatch(event) {
  for (const handler of this.listeners?.[event.type] || []) handler.call(this, event);
}

// Make ``live``'s children (on the page) what ``drawn``'s are (drawn anew), keeping each live node that
// is drawn again in its place (the same tag, and the same id or data-key) and bringing it up to date.
// The page is drawn anew on every change; put in whole, it took the focus from the control that had it
// (a screen reader then told the new one afresh at every move), a scrolled list back to its end, and
// a name being typed. A node drawn no more goes (a keyed one, or one without a key before a keyed node
// drawn again), and one drawn anew before a keyed node still drawn is put in before it, so that the
// nodes after them are kept (a table leaving the lobby's list, or one coming before it, took the
// focus from the Join link a keyboard was on).
function morph(live, drawn) {
  const fresh = [...drawn.childNodes];  // (counted first: each node put in the page leaves ``drawn``)
  const kept = new Set(fresh.map(keyed).filter(Boolean));
  for (const old of [...live.childNodes]) if (keyed(old) && !kept.has(keyed(old))) old.remove();
  let old = live.firstChild;
  for (const node of fresh) {
    while (old && !keyed(old) && keyed(node) && !alike(old, node) && keyedLater(old, keyed(node))) {
      const next = old.nextSibling;  // (an unkeyed node before the keyed one drawn again: it goes)
      old.remove();
      old = next;
    }
    if (!old) live.append(node);
    else if (alike(old, node)) {
      bringUpToDate(old, node);
      old = old.nextSibling;
    } else if (kept.has(keyed(old))) live.insertBefore(node, old);  // (old is drawn again further on)
    else {
      const next = old.nextSibling;
      old.replaceWith(node);
      old = next;
    }
  }
  while (old) {
    const next = old.nextSibling;
    old.remove();
    old = next;
  }
}

// ``old``, a node on the page, made what ``node`` (drawn anew, and alike) is.
function bringUpToDate(old, node) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== node.data) old.data = node.data;
    return;
  }
  for (const { name } of [...old.attributes]) if (!node.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of node.attributes) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  for (const type of Object.keys(node.listeners || {})) old.addEventListener(type, dispatch);  // (once per type)
  old.listeners = node.listeners;
  if (old.type === "checkbox") old.checked = node.checked;  // (once clicked, a box no longer follows its attribute)
  // a field's own checks again, on what is typed in it, in the page's language now (inOurWords)
  if (old instanceof HTMLInputElement) old.dispatchEvent(new Event("input"));
  morph(old, node);
}

const keyOf = (node) => node.id || node.dataset.key || "";
// A node's key among its siblings where it has one (an element with an id or a data-key), or "".
const keyed = (node) => (node.nodeType === Node.ELEMENT_NODE && keyOf(node) ? `${node.nodeName}#${keyOf(node)}` : "");
// Whether a sibling after ``node`` has the key ``key``.
function keyedLater(node, key) {
  for (let next = node.nextSibling; next; next = next.nextSibling) if (keyed(next) === key) return true;
  return false;
}
const alike = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName
  && (a.nodeType !== Node.ELEMENT_NODE || keyOf(a) === keyOf(b));
// A whole number in groups of three digits, a thin space between, as the server writes them (i18n.grouped).
const grouped = (number) => String(number).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
const w = (key, params = {}) =>
  (words[key] || key).replace(/\{(\w+)\}/g, (_, name) => (name in params ? params[name] : ""));

// A name as long as the server allows (narrate.MAX_NAME), in characters as a reader counts them: an
// emoji family or a letter with its accent is one (maxlength would count UTF-16 code units); and at
// most NAME_POINTS code points (narrate.MAX_NAME_POINTS). Counted as the server keeps the name: on one
// line, each run of spaces one space.
const NAME_MOST = 24;
const NAME_POINTS = 200;
const characters = (text) =>
  typeof Intl.Segmenter === "function" ? [...new Intl.Segmenter().segment(text)].length : [...text].length;
function nameInput(attrs) {
  const input = $("input", { name: "name", required: "", value: localStorage.getItem("ll-name") || "", ...attrs });
  return inOurWords(input, "web_name_empty", (field) => {
    const name = field.value.trim().replace(/\s+/g, " ");
    return characters(name) > NAME_MOST ? w("web_name_long", { max: NAME_MOST })
      : [...name].length > NAME_POINTS ? w("web_name_marks") : "";
  });
}

// A field whose checks (required, min, max, a whole number) say what is wrong in the page's language:
// the browser's own messages speak the browser's. ``missing``: the key said for an empty field;
// ``own``: a check of the field's own, its message or "".
function inOurWords(input, missing = "web_check_missing", own = () => "") {
  const check = (field) => {
    field.setCustomValidity("");  // the browser's checks, without the last message of ours
    const v = field.validity;
    field.setCustomValidity(v.valueMissing ? w(missing)
      : v.badInput || v.stepMismatch ? w("web_check_whole")
      : v.rangeUnderflow || v.rangeOverflow ? w("web_check_range", { min: grouped(field.min), max: grouped(field.max) })
      : own(field));
  };
  listen(input, "input", function () { check(this); });
  listen(input, "change", function () { check(this); });  // a file chosen
  check(input);
  return input;
}

// The page's words in `lang`; false, and nothing changed, if the language changed again while they
// came (clicked twice: the words of the first click came last, and left the page in two languages);
// null if the server could not be reached.
async function loadWords() {
  const asked = lang;
  const answer = await reach(`/api/words/${asked}`);
  if (!answer) return null;
  if (lang !== asked) return false;
  words = answer.data;
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = w(node.dataset.w);
  document.getElementById("lang").lang = lang === "nl" ? "en" : "nl";  // it names the other language
  return true;
}

// "The server cannot be reached", from the words the page put in (those the server sent with it, in
// every language: before the page's words came, it showed their key).
function unreachable() {
  if (words.web_unreachable) return words.web_unreachable;
  const put = JSON.parse(document.getElementById("alert").dataset.unreachable);
  return put[lang] || put.en;  // (a language kept in the browser that we do not have: English)
}

// How long a request may take before the server is told out of reach (ms): a network that drops its
// packets answers nothing, and a click, or the lobby's list, waited without a word. (A let, as
// ASK_AGAIN_AFTER, PING_EVERY and ANSWER_WITHIN below: the tests shorten them.)
let REACH_WITHIN = 10000;
const REPLAY_WITHIN = 120000;  // a record's upload and replay take longer
const RECORD_MOST = 1000000;  // the most bytes of a record uploaded (replays.MAX_RECORD_BYTES)

// A request to the server, its answer read as JSON: {ok, data}; null, and said so, where the server
// could not be reached or answered without JSON (stopped, the network gone, a proxy's error page):
// the lobby's buttons did nothing, without a word. ``quiet``: asked by the page itself (the lobby's
// list, again and again; a request asked again): said once, not read out again at each try, as a
// person's try is. ``options.within``: a time limit other than REACH_WITHIN.
// ``unreached``: what is said where no answer came (by default: try again in a moment, or, while a
// request is asked again, that it is: the lobby's list failing meanwhile said "try again" over it).
async function reach(url, options = {}, quiet = false, unreached = asking.size ? w("web_unreachable_asking") : unreachable()) {
  const { within = REACH_WITHIN, ...given } = options;
  try {
    const response = await fetch(url, { ...given, signal: AbortSignal.timeout(within) });
    notePage(response);
    const answer = { ok: response.ok, data: await response.json() };
    // in reach again; but not while a request is asked again: the lobby's list answering put it
    // away, and the request's next try that failed read it out again, time after time
    if (outOfReach() && !asking.size) alertUser("");
    return answer;
  } catch {
    alertUser(unreached, !quiet);
    return null;
  }
}

// What the API answers; null where it refused (its reason shown, and the refusal given to
// ``refused``) or could not be reached.
async function ask(url, options, refused = () => {}) {
  return answered(await reach(url, options), refused);
}

// Whether the server that gave ``response`` names another page than this one (it was upgraded since
// this page was loaded): then said, until the page is reloaded.
function notePage(response) {
  const served = response.headers.get("X-Loveletter-Page");
  if (served && served !== PAGE && !outdated) {
    outdated = true;
    alertUser("");  // (says so: see alertUser)
  }
}

// The data of an ``answer`` from :func:`reach` (as :func:`ask` gives it).
function answered(answer, refused = () => {}) {
  if (!answer) return null;
  const { ok, data } = answer;
  if (!ok) {
    alertUser(data.message || (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)));
    refused(data);
    return null;
  }
  alertUser("");
  return data;
}

let putAway = null; // the alert's words a tap (or Escape) put away: kept away while it says the same
let alerted = ""; // what the alert says now (shown or put away)

// ``anew``: said again where it says that already, as a refusal of each try is (an alert's words
// rewritten are read out again); a state's standing reason, or the connection's, is not: it was read
// out at every bot's move, at every try to connect again.
function alertUser(text, anew = true) {
  if (!text && outdated) {  // said until the page is reloaded, read out once
    text = w("web_page_updated");
    anew = false;
  }
  if (!anew && text === alerted) return;
  const box = document.getElementById("alert");
  if (text !== putAway) putAway = null;  // (said anew)
  box.textContent = alerted = text;
  const focused = document.activeElement === box;  // (asked before it is hidden: then it has lost the focus)
  box.hidden = !text || text === putAway;
  // (an alert long enough to scroll is a stop for Tab: put away with the focus on it, the focus fell
  // to the page itself) to the first heading of what the page shows
  if (box.hidden && focused) document.querySelector("#main h2[tabindex]")?.focus();
  // what takes the focus is scrolled into sight below it, not under it
  document.documentElement.style.scrollPaddingTop = box.hidden ? "" : `${box.offsetHeight}px`;
}

// A form the browser will not send (its own checks say why, beside the field) puts away what the
// alert said of the last one sent: a name refused by the server ("someone is already called Ann")
// stayed above "at most 24 characters".
function notSent() {
  if (!outOfReach()) alertUser("");
}

// Whether the alert says the server is out of reach (a form's own refusal leaves that said).
function outOfReach() {
  return [unreachable(), words.web_unreachable_asking].includes(alerted);
}

function putAlertAway() {
  putAway = alerted;
  alertUser(putAway);
}

// ------------------------------------------------------------------------------------- lobby

async function showLobby() {
  const main = document.getElementById("main");
  main.replaceChildren();
  main.dataset.view = "lobby";
  document.title = w("web_title");  // (a replay or a table named the page)
  delete main.dataset.moves;
  const form = $("form", { id: "create", class: "panel" });
  const players = $("select", { name: "players", id: "players" });
  const edition = $("select", { name: "edition", id: "edition" },
    $("option", { value: "classic", text: w("web_classic") }),
    $("option", { value: "2019", text: w("web_2019") }));
  const seats = $("div", { id: "seats" });
  const fillPlayers = () => {
    const max = edition.value === "classic" ? 4 : 6;
    const chosen = Math.min(Number(players.value || 2), max);
    players.replaceChildren(...Array.from({ length: max - 1 }, (_, i) =>
      $("option", { value: i + 2, text: String(i + 2), selected: i + 2 === chosen ? "" : false })));
    fillSeats();
  };
  const fillSeats = () => {
    seats.replaceChildren(...Array.from({ length: Number(players.value) - 1 }, (_, i) =>
      $("label", {}, w("web_seat", { n: i + 1 }) + " ",
        $("select", { name: `seat${i + 1}`, class: "seat-kind" },
          $("option", { value: "", text: w("web_person") }), ...levelOptions()))));
  };
  // a bot's levels to choose from, the beginner chosen (made anew for each select: a node sits in one)
  const levelOptions = () => [
    $("option", { value: "random", text: w("web_level_random") }),
    $("option", { value: "beginner", text: w("web_level_beginner"), selected: "" }),
    $("option", { value: "expert", text: w("web_level_expert") })];
  // (the stand-in's level counts at a table with no time too: a bot plays there when a player asks)
  const timeout = inOurWords($("input", { name: "timeout", type: "number", min: 1, max: 3600 }));
  const standIn = $("select", { name: "stand_in", id: "stand-in" }, ...levelOptions());
  edition.addEventListener("change", fillPlayers);
  players.addEventListener("change", fillSeats);
  form.append(
    $("h2", { id: "create-title", tabindex: -1, text: w("web_create") }),
    $("label", {}, w("web_your_name") + " ", nameInput({ id: "name" })),
    $("label", {}, w("web_edition") + " ", edition),
    $("label", {}, w("web_players") + " ", players),
    seats,
    $("label", {}, w("web_target") + " ", inOurWords($("input", { name: "target", type: "number", min: 1, max: 20 }))),
    $("label", {}, $("input", { name: "private", type: "checkbox" }), " " + w("web_private")),
    $("label", {}, w("web_bot_timeout") + " ", timeout),
    $("label", {}, w("web_stand_in") + " ", standIn),
    $("button", { type: "submit", id: "create-button", text: w("web_create_button") }));
  fillPlayers();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const bots = {};
    for (const select of form.querySelectorAll(".seat-kind"))
      if (select.value) bots[select.name.slice(4)] = select.value;
    localStorage.setItem("ll-name", data.get("name"));
    const body = {
      name: data.get("name"), edition: data.get("edition"), players: Number(data.get("players")), bots,
      private: data.get("private") === "on",
      target: data.get("target") ? Number(data.get("target")) : null,
      bot_timeout: data.get("timeout") ? Number(data.get("timeout")) : null,
      stand_in: data.get("stand_in"),
    };
    const answer = await post("/api/tables", body);
    if (answer) enterTable(answer);
  });

  const joinForm = $("form", { id: "join-code", class: "panel" },
    $("h2", { text: w("web_join_code") }),
    // (no length limit: the browser cut " QV7RXV", copied from a chat with its space, to " QV7RX")
    $("label", {}, w("web_code") + " ", inOurWords($("input", { name: "code", id: "code", size: 8, required: "" }))),
    $("button", { type: "submit", text: w("web_join") }));
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    // the code, or the invitation's whole link pasted
    const field = document.getElementById("code");
    const code = codeIn(field.value);
    if (code && code.length <= CODE_MOST) { location.hash = `#/t/${code}`; return; }
    if (code) {  // longer than any table's code ("Join me at the table")
      field.setCustomValidity(w("web_no_table"));  // (put back at the next key typed: inOurWords)
    } else {  // nothing of a code: the field asks for one, in the page's words
      field.value = "";
      field.dispatchEvent(new Event("input"));
    }
    joinForm.reportValidity();
  });

  // The file input is hidden behind a label of our own: the browser's button ("Choose File") and its
  // "No file chosen" speak the browser's language, not the page's.
  const chosen = $("span", { class: "file-name", id: "record-file-name", text: w("web_no_file") });
  const picker = inOurWords($("input", { type: "file", name: "record", id: "record-file", accept: ".json,application/json",
    required: "", class: "visually-hidden", "aria-describedby": "record-file-name" }), "web_check_file");
  picker.addEventListener("change", () => {
    chosen.textContent = picker.files[0] ? picker.files[0].name : w("web_no_file");
  });
  const upload = $("form", { id: "upload", class: "panel" },
    $("h2", { text: w("web_view_record") }),
    $("p", {}, $("label", { class: "button file-pick" }, w("web_choose_file"), picker), " ", chosen),
    $("button", { type: "submit", text: w("web_view_button") }));
  upload.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("record-file").files[0];
    if (!file) return;
    // too large, said without sending it: a proxy in front refuses a large body with a page of its
    // own (nginx's, past 1 MiB), which was said as "the server cannot be reached: try again"
    if (file.size > RECORD_MOST) {
      alertUser(w("web_record_too_big", { max: grouped(Math.floor(RECORD_MOST / 1000)) }));
      return;
    }
    // its bytes as they are: the server reads them as the command line does (file.text() took a
    // file that is not UTF-8 for UTF-16, or put U+FFFD in, where it should be told "not a text file")
    const source = { record: await file.arrayBuffer() };
    const told = await replayFrames(source);
    if (told) showReplay(told, source);
  });

  const list = $("ul", { id: "open-tables" });
  const lobby = $("section", { class: "lobby" }, form, $("div", {},
    $("section", { class: "panel" }, $("h2", { id: "open-tables-title", tabindex: -1, text: w("web_open_tables") }), list),
    joinForm, upload));
  lobby.addEventListener("invalid", notSent, true);  // (capture: it does not bubble)
  main.append(lobby);
  if (keptForms) restoreForms(keptForms);
  await listOpenTables(list);
  clearInterval(lobbyTimer);  // (the lobby drawn again: a language switch)
  lobbyTimer = setInterval(() => {
    if (document.contains(list)) listOpenTables(list);
    else clearInterval(lobbyTimer);  // (the lobby left)
  }, LOBBY_EVERY);
}

// How often the lobby asks again for the open tables while it is shown (ms): a table made or filled
// meanwhile showed only after a reload, and a Join stayed offered at a table with no seat left.
const LOBBY_EVERY = 10000;
let lobbyTimer = null;

// The open tables, put in ``list`` in place (morph, each by its code): a Join link that has the focus
// keeps it while its table is listed, whatever comes or goes before it.
async function listOpenTables(list) {
  const answer = await reach("/api/tables", undefined, true);
  if (!answer) return;  // (said so: no list, rather than "no open tables")
  const drawn = $("ul", {});
  if (!answer.data.length) drawn.append($("li", { text: w("web_none_open") }));
  for (const table of answer.data) {
    // people by name, bots and free seats as the table names them ("Bot 1 (expert)", "Free seat 2": a
    // dash was read out as "em dash", or not at all)
    const who = table.names.map((name, i) => name || (table.bots[i] ? w(`web_bot_${table.bots[i]}`, { n: i })
      : `${w("web_free_seat")} ${i}`)).join(", ");
    drawn.append($("li", { "data-key": `open-${table.code}` }, `${table.code} · ${w(`web_named_${table.edition}`)} · ${who} `,
      $("a", { href: `#/t/${table.code}`, class: "button", text: w("web_join"),
        "aria-label": w("web_join_table", { code: table.code }) })));  // each link named apart in a list of links
  }
  const entries = [...list.children];
  const focused = entries.findIndex((entry) => entry.contains(document.activeElement));
  const after = entries.slice(focused + 1).map((entry) => entry.dataset.key);  // (the tables listed after it)
  morph(list, drawn);
  // the focused link's table gone (filled): on to the next still listed, else the last, else the
  // list's heading (the focus fell to the page itself, unsaid)
  if (focused >= 0 && !list.contains(document.activeElement))
    refocus(null, [...after.map((key) => `#open-tables [data-key="${CSS.escape(key)}"] a`), "#open-tables li:last-child a",
      "#open-tables-title"]);
}

// Each request that makes a table or takes a seat goes with a key, the same until an answer comes
// back, and is asked again by itself where none came (the server out of reach, or its answer lost on
// the way after it acted): the server gives the answer it gave, rather than a refusal ("already called
// Bob") that left the seat taken by nobody, and the page, the table now full, no way to ask again. An
// impatient second click is the same request too.
const requestKeys = new Map();
const asking = new Set(); // the requests being asked now: a second click meanwhile asks nothing more
// The waits (ms) before a request that got no answer is asked again, while the page stays where it was.
let ASK_AGAIN_AFTER = [1000, 2000, 4000, 8000];
let hashChanges = 0; // how often the page has moved (to a table, the lobby, a replay): a request's tries end with it
window.addEventListener("hashchange", () => { hashChanges++; });

async function post(url, body, refused) {
  const request = `${url} ${JSON.stringify(body)}`;
  if (asking.has(request)) {  // (the first click's answer is awaited, and taken, there)
    announce(w("web_still_asking"));  // (a second click did nothing, unsaid)
    return null;
  }
  if (!requestKeys.has(request))
    requestKeys.set(request, [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join(""));
  const asked = { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "Request-Key": requestKeys.get(request) } };
  const here = hashChanges;
  let answer = null;
  asking.add(request);
  try {
    const waits = [0, ...ASK_AGAIN_AFTER];
    for (const [i, wait] of waits.entries()) {
      if (wait) await new Promise((done) => setTimeout(done, wait));
      if (hashChanges !== here) return null;  // (moved on, and perhaps back: not taken into a table now)
      // (said once, not at each try; while it is asked again, reach says so itself; "try again" at the last)
      answer = await reach(`${url}?lang=${lang}`, asked, wait > 0, i < waits.length - 1 ? undefined : unreachable());
      if (answer) break;
    }
  } finally {
    asking.delete(request);
  }
  if (answer) requestKeys.delete(request);  // (answered: a new request from now on)
  return hashChanges === here ? answered(answer, refused) : null;
}

// The form that takes a free seat at table ``code``: a spectator's, or a person's refused as one
// where the table's spectators are too many (invited by a streamer, they could not sit down).
function seatForm(code) {
  // (its words marked: a language chosen meanwhile says them anew, see loadWords)
  const form = $("form", { id: "join" },
    $("label", {}, $("span", { "data-w": "web_your_name", text: w("web_your_name") }), " ",
      listen(nameInput({}), "invalid", notSent)),
    $("button", { type: "submit", "data-w": "web_join", text: w("web_join") }));
  listen(form, "submit", async function (event) {
    event.preventDefault();
    const name = new FormData(this).get("name");
    localStorage.setItem("ll-name", name);
    const answer = await post(`/api/tables/${code}/join`, { name });
    if (answer) enterTable(answer);
  });
  return form;
}

// A free seat offered to a person refused as a spectator (the table's spectators too many). Refused
// again 30 s later, or in another language, the form shown stays as it is, the name being typed and
// the focus with it (its words follow the language: see loadWords).
function offerSeat(code) {
  const main = document.getElementById("main");
  if (main.querySelector("#join")) return;
  main.dataset.view = "seat";
  main.replaceChildren($("section", { class: "status panel", "aria-labelledby": "seat-title" },
    $("h2", { id: "seat-title", "data-w": "web_seat_offered", text: w("web_seat_offered") }), seatForm(code)));
}

function enterTable(answer) {
  localStorage.setItem(`ll-seat-${answer.code}`, answer.secret);
  standing = null;  // seated now
  if (location.hash === `#/t/${answer.code}`) connect(answer.code);
  else location.hash = `#/t/${answer.code}`;
}

// ------------------------------------------------------------------------------------- table

// The table on screen cleared, when the page moves elsewhere: its controls would be dead.
function leaveTable() {
  state = null; hints = null; picking = null; sentAt = null; standing = null; cutOff = false;
  announce("");  // (a screen reader found the table's "Your turn" at the top of the lobby)
  const main = document.getElementById("main");
  main.replaceChildren();
  delete main.dataset.view;
}

// Refusals of a table's connection whose reason stays shown, the table asked for again 30 s later: a
// table unreadable (its rows may be mended meanwhile); refused as another site's page (a proxy in front
// that does not pass the host asked for, until its operator mends it: it was put away for
// "reconnecting…", asked again every 0.6 s for ever)
const ASKED_AGAIN_LATER = new Set(["web_too_many_watchers", "web_too_many_tabs", "web_too_many_misses",
  "web_table_unreadable", "web_foreign_origin"]);

let reconnectTimer = null; // the next try to connect, after a close (cleared by a connect made meanwhile)
// the next try, to be made at once where the page is back on a network, or shown again: set while
// the page is not connected (a try on a dead network may hang until the system gives it up)
let tryAgain = null;

function connect(code) {
  clearTimeout(reconnectTimer);  // (a language click connects at once: the pending try closed it again)
  if (socket) { socket.onclose = null; socket.close(); }
  if (state && state.code !== code) leaveTable();
  if (standing && standing.code !== code) standing = null;  // (said of another table, whether or not it showed a state)
  const again = () => { if (location.hash === `#/t/${code}`) connect(code); };  // unless the page moved on
  tryAgain = again;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${code}`);
  socket.onopen = () => {
    retry = 0; serverStopped = false; tryAgain = null;
    heardAt = Date.now(); askedAt = null;
    // a move sent on a connection that dropped was made (the state says so) or lost (said so then)
    lostAt = sentAt; sentAt = null;
    socket.send(JSON.stringify({ type: "hello", secret: localStorage.getItem(`ll-seat-${code}`), lang }));
    // (back: the server may have been upgraded meanwhile; a failure here is the connection's to say)
    if (cutOff) fetch("/api/page").then(notePage, () => {});
  };
  socket.onmessage = (event) => {
    heardAt = Date.now();
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      // (told "Connection lost" by an alert, a screen reader heard nothing when the table came back)
      const said = news(state, message);
      announce(cutOff ? [w("web_reconnected"), said].filter(Boolean).join(" ") : said);
      cutOff = false;
      turnBegun = turnBegins(state, message);
      picking = samePicking(state, message);
      awaitedSince = Date.now() - 1000 * message.waited;  // (a page reloaded, or one that saw the table fill)
      awaySince = since(message.away_for);
      seenHere = seatsHere(state, message);
      state = message; hints = null; alertUser(standing ? w(standing.key) : "", false);
      // the table where it was when our move went, and our move still awaited: it never reached the
      // table (the state came back unchanged, the alert put away, and nothing said)
      if (lostAt !== null && message.moves === lostAt && message.legal.length) alertUser(w("web_move_not_received"));
      lostAt = null;
      render();
      askHints();
    } else if (message.type === "away") {  // a person came or went: nothing else changed
      // the one to move back: their time to move starts again, as the server counts it
      if (state && state.away.includes(state.current) && !message.away.includes(state.current))
        awaitedSince = Date.now();
      if (state) {
        const said = comings(state, message.away);
        if (said) announce(said);  // (nothing said: the last news stays)
        state.away = message.away; awaySince = since(message.away_for); seenHere = seatsHere(state, state);
        render();
      }
    } else if (message.type === "hints") {
      // (not for a position left, nor in a language just left: hints asked for before a switch)
      if (state && message.moves === state.moves && message.lang === lang) { hints = message; render(); }
    }
    else if (message.type === "error") {
      sentAt = null;  // the move was refused: another may be chosen
      const leaving = message.key === "web_no_table";
      // a refusal said again in the language just chosen: put away still, where it was put away
      if (message.again && awayAtSwitch) putAway = message.message;
      if (!leaving) alertUser(message.message);  // (leaving: said once the lobby is shown, not twice)
      if (message.key === "web_bad_secret") {  // forgotten, and the table watched at once, the reason kept shown
        localStorage.removeItem(`ll-seat-${code}`);
        standing = { code, key: message.key };
        socket.onclose = again;
      }
      if (ASKED_AGAIN_LATER.has(message.key)) {
        socket.onclose = () => { reconnectTimer = setTimeout(again, 30000); };
      }
      if (message.open_seats && !state) offerSeat(code);  // refused as a spectator: a seat may still be taken
      if (leaving) {  // back to the lobby (not a blank page), the reason shown there
        socket.onclose = null; socket = null; leaveTable();
        lobbySaying(message.message);
      }
    }
  };
  socket.onclose = (event) => {
    // (1012: the server shut down; said until it is back, not only until the first try that fails)
    serverStopped ||= event.code === 1012;
    cutOff = true;
    const lost = w(serverStopped ? "web_server_stopped" : "web_reconnecting");
    // (a move not sent stays said, with why: the next try that failed put it away, reading out why alone)
    if (alerted !== `${w("web_move_not_sent")} ${lost}`) alertUser(lost, false);
    retry = Math.min(retry + 1, 6);
    reconnectTimer = setTimeout(again, 300 * 2 ** retry);
    tryAgain = again;
  };
}

// The connection's pulse: a ping where nothing was heard for a while, and the connection taken for
// dead where the answer to a ping or a move does not come. A network that drops its packets (a phone
// moving from Wi-Fi, a laptop waking, a router's lost mapping) closes nothing: the page showed an old
// table as current, "Your turn", and a move tapped went nowhere, unsaid. Timed from the question, not
// from the last word heard: a tab in the background, its timers slowed to one a minute, keeps its
// connection.
let PING_EVERY = 10000;
let ANSWER_WITHIN = 10000;
let heardAt = 0; // when (Date.now()) the server last said anything on this connection
let askedAt = null; // when a ping or a move awaiting an answer was sent (null: none sent yet)

const answerAwaited = () => askedAt !== null && heardAt < askedAt;

function ping() {
  if (!answerAwaited() && tell({ type: "ping" })) askedAt = Date.now();
}

function checkPulse() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (!answerAwaited()) {
    if (Date.now() - heardAt >= PING_EVERY) ping();
  } else if (Date.now() - askedAt > ANSWER_WITHIN) {  // dead: put aside, and connected again as after a close
    const dead = socket, lost = dead.onclose;
    dead.onopen = dead.onmessage = dead.onclose = null;
    socket = null;
    dead.close();
    if (lost) lost({ code: 1006 });
  }
}
const pulse = setInterval(checkPulse, 2000);  // (stopped by the tests that keep what is sent)
// Back on a network, or to the tab: connected again at once where the connection was lost (the next
// try, up to 19.2 s away, kept the table on "reconnecting…" that long), else asked at once whether it
// still holds.
function backAgain() {
  if (tryAgain) {
    retry = 0;
    tryAgain();
  } else {
    ping();
  }
}
window.addEventListener("online", backAgain);
document.addEventListener("visibilitychange", () => { if (!document.hidden) backAgain(); });

// The card being chosen, in the words of the state ``after``, if that state changes only the
// language (a new move ends the choice).
function samePicking(before, after) {
  if (!picking || !before || before.moves !== after.moves || before.code !== after.code || before.round !== after.round)
    return null;
  const card = after.hand[picking.index];  // the same hand, in other words
  const moves = after.legal.filter((m) => m.card === picking.card.card);
  return card && card.card === picking.card.card && moves.length ? { ...picking, card, moves } : null;
}

// Send the message m to the server, if the connection is open; false where it is not (closed, as the
// page moved on, or still connecting: sending then threw).
function tell(m) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(m));
  return true;
}

// The expert's figures for this position, asked for where they are wanted (on the player's turn)
// and the connection is open: while it connects again, they are asked for once the state comes.
function askHints() {
  if (hintsOn() && state && state.legal.length) tell({ type: "hints" });
}

let sentAt = null; // the state (its move count) a move was sent from: one move per state
let lostAt = null; // the same, for a move sent on a connection that dropped (see connect)

function send(move) {
  // a double click sent the same move twice, and the second was refused as stale
  if (!state || sentAt === state.moves) return;
  if (tell({ type: "move", move, at: state.moves })) {
    sentAt = state.moves;
    if (!answerAwaited()) askedAt = Date.now();  // (answered by the state after it, or a refusal)
  }
  else {  // (the connection lost: a tap that did nothing, unsaid) said before why, which stays
    const notSent = w("web_move_not_sent");
    const why = alerted.startsWith(notSent) ? alerted.slice(notSent.length).trim() : alerted;
    alertUser(why ? `${notSent} ${why}` : notSent);
  }
}

function cardView(face, attrs = {}, tag = "div") {  // "span" inside a button, which may hold no div
  return $(tag, { class: `card card-${face.card}`, ...attrs },
    $("span", { class: "value", text: String(face.value) }),
    $("span", { class: "name", text: face.name }),
    $("span", { class: "effect", text: face.effect }),
    artView(face.card));
}

// The card's emblem, from static/cards.svg: a decoration, so a screen reader skips it.
function artView(card) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "art");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `/static/cards.svg#art-${card}`);
  svg.append(use);
  return svg;
}

// Cards side by side (a discard pile, say) as a list, so that a screen reader tells how many there are.
function pileView(cards, cls, label) {
  return $("ul", { class: `pile ${cls}`, "aria-label": label },
    ...cards.map((c) => $("li", {}, cardView(c, { class: `card small card-${c.card}` }))));
}

// A row of cards with its name shown before it (``shown``), the list named ``label`` (the same words,
// unless given) for a screen reader, which does not read the visible words out beside it (it said them
// twice); ``rowClass``: the row's own class, besides.
function namedPile(cards, cls, shown, label = shown, rowClass = "") {
  return $("div", { class: `named-pile ${rowClass}`.trim() }, $("span", { "aria-hidden": "true", text: shown + ": " }),
    pileView(cards, cls, label));
}

// The cards removed face up (two players): the list named without its colon.
function faceUpView(cards) {
  return namedPile(cards, "face-up-cards", w("web_face_up"), undefined, "face-up");
}

function render() {
  const s = state;
  const main = document.getElementById("main");
  const focused = focusKey();
  const ours = focusIsOurs(main);
  // the lists whose reader has scrolled back from their newest line: they stay where they are
  const scrolledBack = new Set([...main.querySelectorAll(LOGS)].filter((list) => !atEnd(list)).map((list) => list.dataset.key));
  enterView(main, "table");
  main.dataset.moves = s.moves; // for the browser tests: which state is shown
  main.dataset.round = s.round;
  const me = s.seat;
  const top = $("section", { class: "status panel", "aria-labelledby": "status-title" },
    $("h2", { id: "status-title", class: "visually-hidden", tabindex: -1, text: w("web_status") }));
  if (me === null) top.append($("p", { class: "spectating", text: w("web_spectating") }));
  if (s.free_seats.length) {
    top.append($("p", { text: s.free_seats.length === 1 ? w("web_waiting_player") : w("web_waiting_players", { n: s.free_seats.length }) }));
    // (a spectator at a rematch whose free seats are kept for the last match's players: nobody to invite)
    if (me !== null || s.open_seats.length)
      top.append($("p", { id: "invite", text: w("web_link", { code: s.code }) + ": " + location.href }));
    if (me === null && !s.open_seats.length) top.append($("p", { class: "kept", text: w("web_seat_kept") }));
    if (me === null && s.open_seats.length) top.append(seatForm(s.code));
  } else if (s.match_winners.length) {
    top.append($("p", { class: "result", text: w("web_match_won", { names: s.match_won_by }) }));
    const lost = lostRematch(s), offer = rematchOffer(s);
    if (offer !== "web_rematch_watch") {  // first: where the focus goes when the match ends
      // back at the finished table after joining the rematch (its seat is ours in this browser): go to it
      // (read again when clicked: another tab of ours may have joined since this button was drawn)
      top.append($("p", {}, $("button", { id: "rematch", text: w(offer),
        onclick: async () => {
          if (joinedRematch(s)) { location.hash = `#/t/${s.rematch}`; return; }
          const answer = await post(`/api/tables/${s.code}/rematch`, { secret: localStorage.getItem(`ll-seat-${s.code}`) },
            (refusal) => {  // our seat there taken while we were away: the way to watch it too
              if (SEAT_LOST.includes(refusal.key)) {
                rematchLost = { code: s.rematch, full: refusal.key === "web_seat_taken_full" };
                render();
              }
            });
          if (answer) enterTable(answer);
        } })));
    }
    if (s.rematch && (me === null || lost)) {  // a spectator, or a player whose seat there was taken: on to watch it
      top.append($("p", {}, $("a", { class: "button", id: "rematch-watch", href: `#/t/${s.rematch}`, text: w("web_rematch_watch") })));
    }
    top.append($("p", {}, $("a", { class: "button", id: "replay-link", href: `#/replay/${s.code}`, text: w("web_replay") }), " ",
      $("a", { class: "button", href: `/api/tables/${s.code}/record`, download: `loveletter-${s.code}.json`,
        text: w("web_download") })));
  } else if (s.legal.length) {
    top.append($("p", { class: "your-turn", text: w("web_your_turn") }));
  } else {
    top.append($("p", { text: w("web_turn_of", { name: s.names[s.current] }) }));
    const ask = askButton(s);
    if (ask) top.append($("p", {}, ask));
  }
  top.append($("p", { text: `${w("web_deck", { n: s.deck_size })}` }));
  if (s.stand_in && !s.match_winners.length) top.append($("p", { class: "stand-in-rule", text: s.stand_in }));
  if (s.face_up.length)
    top.append(faceUpView(s.face_up));

  const over = s.match_winners.length > 0;  // (nobody's turn any more)
  const players = playersSection();
  s.names.forEach((name, i) => {
    const tags = [];
    if (i === me) tags.push(w("web_you"));
    if (!s.alive[i]) tags.push(w("web_out"));
    if (s.protected[i] && !s.winners.length) tags.push(w("web_protected"));  // (a round over protects nobody)
    if (s.away.includes(i) && !over) tags.push(w("web_away"));  // (nothing to wait for at a match's end)
    players.append($("div", { class: `player panel${i === s.current && !over ? " current" : ""}${s.alive[i] ? "" : " out"}`,
      "data-seat": i },
      $("h3", { text: playerHeading(name, tags) }),
      $("p", { text: w("web_tokens", { n: s.tokens[i], target: s.target }) }),
      pileView(s.discards[i], "discards", w("web_discards"))));
  });

  // (the heading takes the focus where nothing in the hand may be played: see FIRST_STEP)
  const hand = $("section", { class: "hand panel" }, $("h2", { id: "hand-title", tabindex: -1, text: w("web_hand") }));
  const cards = $("div", { class: "cards" });
  hand.append(cards);
  const legal = s.legal;
  if (s.phase === "chancellor" && legal.length) {
    // above the choices, in sight on a phone (one card goes under where the Chancellor drew the deck's last)
    hand.insertBefore($("p", { text: w(s.hand.length === 2 ? "web_pick_keep_one" : "web_pick_keep") }), cards);
    for (const move of legal)
      cards.append($("button", { class: "move", "data-key": `move-${move.move}`, onclick: () => send(move.move),
        "aria-label": move.keep_label,
        text: keepText(move) }));
  }
  s.hand.forEach((face, index) => {
    const mine = legal.filter((m) => m.card === face.card);
    const reason = s.blocked[face.card];
    const button = $("button", { class: "card-button", "data-key": cardKey(s.hand, index),
      "aria-pressed": picking && picking.index === index ? "true" : false,  // this copy, of two alike
      disabled: legal.length && mine.length && s.phase === "play" ? false : "",
      title: reason || "", "aria-label": `${face.name} (${face.value}): ${face.effect}${reason ? " — " + reason : ""}`,
      onclick: () => choose(face, mine, index) }, cardView(face, {}, "span"));
    cards.append(button);
    if (reason) cards.append($("p", { class: "reason", text: reason }));
  });
  if (picking) hand.append(pickingView());
  else if (legal.length && s.phase === "play") hand.append($("p", { text: w("web_pick_card") }));
  if (me !== null) {
    const toggle = $("input", { type: "checkbox", id: "hints-toggle", checked: hintsOn() ? "" : false });
    listen(toggle, "change", function () {
      localStorage.setItem("ll-hints", this.checked ? "on" : "off");
      hints = null;
      askHints();
      render();
    });
    hand.append($("label", { class: "hints-toggle" }, toggle, " " + w("web_hints")));
  }
  if (hints && hintsOn()) {
    const names = Object.fromEntries(s.hand.map((face) => [face.card, face.name]));
    // ``spoken``: in words, for a screen reader (an arrow was read out as "right arrow", "↓" and
    // "≈" not at all), as --screen-reader says it
    const describe = (notation, spoken = false) => {
      const m = s.legal.find((entry) => entry.move === notation);
      if (!m) return notation;
      if (m.keep_name !== null) return spoken ? m.keep_label : keepText(m);
      const target = m.target === me ? w("web_yourself") : s.names[m.target];
      if (spoken && m.guess_name !== null) return w("sr_move_fmt_guard", { target, guess: m.guess_name });
      if (spoken && m.target !== null) return w("sr_move_fmt_target", { card: names[m.card], target });
      return `${names[m.card]}${m.target !== null ? " → " + target : ""}${m.guess_name !== null ? ", " + m.guess_name : ""}`;
    };
    // each figure worded and the best marked by the server, as the terminal shows them; to the eye
    // in signs, to a screen reader in words
    // how to read them, as the terminal says it (a certain 0% and an estimated <1% looked alike)
    hand.append($("section", { class: "hints" }, $("h3", { text: w("web_hint_title") }),
      $("p", { class: "hint-legend" }, $("span", { class: "shown", "aria-hidden": "true", text: w("hint_legend") }),
        $("span", { class: "visually-hidden", text: w("sr_hint_legend") })),
      $("ol", { id: "hint-list" }, ...hints.odds.map((o) =>
        $("li", { class: o.best ? "best" : false },
          $("span", { class: "shown", "aria-hidden": "true" }, `${describe(o.move)}: `,
            $("span", { class: "figure", text: o.text.replace(/([≈±<>]) /g, "$1\u00a0") }),  // (a sign stays with its number)
            o.best ? ` · ${w("hint_best")}` : null),
          $("span", { class: "visually-hidden",
            text: `${describe(o.move, true)}: ${o.spoken}${o.best ? `, ${w("hint_best")}` : ""}` }))))));
  }

  const known = $("section", { class: "panel" }, $("h2", { text: w("web_known") }));
  const knownEntries = Object.entries(s.known);
  if (!knownEntries.length) known.append($("p", { text: w("web_nothing_known") }));
  for (const [seat, face] of knownEntries) known.append($("p", { text: `${s.names[seat]}: ${face.name}` }));
  if (hints && hintsOn()) {
    known.append($("h3", { text: w("web_belief") }));
    for (const [seat, odds] of Object.entries(hints.belief)) {
      // the likely cards with their figures, then the cards still possible at under 1% by name
      // (each card with its chance in one piece, kept whole on a narrow screen)
      const likely = odds.filter((o) => o.shown !== "<1%");
      const figures = likely.map((o) => $("span", { class: "figure", text: `${o.name} ${o.shown}` }));
      const unlikely = odds.filter((o) => o.shown === "<1%").map((o) => o.name);
      const rest = unlikely.length ? `; ${w("web_belief_unlikely")}: ${unlikely.join(", ")}` : "";
      known.append($("p", { class: "belief" },
        $("span", { class: "shown", "aria-hidden": "true" }, `${s.names[seat]}: `,
          ...figures.flatMap((span, i) => (i ? [", ", span] : [span])), rest),
        // (">99%" was heard as "99 percent")
        $("span", { class: "visually-hidden",
          text: `${s.names[seat]}: ${likely.map((o) => `${o.name} ${o.spoken}`).join(", ")}${rest}` })));
    }
  }
  const tracker = $("section", { class: "panel tracker" }, $("h2", { text: w(me === null ? "web_tracker_watching" : "web_tracker") }),
    $("ul", {}, ...s.tracker.map((e) => $("li", { text: `${e.card.name} (${e.card.value}): ${e.unseen}` }))));
  if (s.under_deck.length)  // top first: the order they will be drawn in
    tracker.append($("p", { class: "under-deck", text: `${w("web_under_deck")} ${s.under_deck.map((f) => f.name).join(", ")}` }));
  const log = $("section", { class: "panel log" }, $("h2", { text: w("web_log") }),
    logList(s.log, w("web_log"), "log"));
  // at the match's end the last round's panel (below) tells that round whole, with its result
  // (a spectator has no hand and nothing private)
  const side = $("div", { class: "side" }, ...(me === null ? [] : [known]), tracker, ...(over && s.previous ? [] : [log]));
  if (s.previous) {
    // (at the match's end, the round that ended it: in Dutch "de vorige ronde" reads as one before)
    const heading = w(s.match_winners.length ? "web_final_round" : "web_last_round");
    side.prepend($("section", { class: "panel previous" }, $("h2", { text: heading }),
      $("p", { class: "result", text: w("web_round_won", { names: s.previous.won_by }) }),
      logList(s.previous.log, heading, "last-round")));
  }
  // at the match's end there is nothing left to play: no hand panel (it stood empty, with the hints' box)
  // without a hand (watching, or the match over) the side's panels share the whole width
  const handless = me === null || over;
  morph(main, $("div", {}, top, players, $("div", { class: handless ? "play handless" : "play" }, ...(handless ? [] : [hand]), side)));
  // the newest lines in sight: the log (and the last round's cards, which come at its end)
  for (const list of main.querySelectorAll(LOGS)) {
    if (scrolledBack.has(list.dataset.key)) following.delete(list.dataset.key);
    else {
      list.scrollTop = list.scrollHeight;
      following.add(list.dataset.key);
    }
  }
  document.title = s.legal.length ? `${w("web_your_turn")} – ${w("web_title")}` : w("web_title");
  // the page is drawn anew on every change (and brought up to date in place: a control kept keeps the
  // focus); where its control went, the focus goes back to its like, or on to the next step
  // (a card chosen: its first choice; the start of your turn: your first playable card)
  // (its control gone, or none had it: the next step; focus elsewhere, in the header say, stays there)
  // (at the match's end: the rematch, or for a spectator the replay)
  // (watching: the join form's name, else the status; the body took it where the form went)
  const next = over ? "#rematch, #replay-link" : me === null ? WATCHING : FIRST_STEP;
  const [key, fallback] = focusNext || [turnBegun ? null : focused, ours ? next : null];
  focusNext = null;
  turnBegun = false;
  refocus(key, fallback);
}

// (tried in this order: a choice half made first, though the hand's cards come before it on the page;
// with nothing to play, the hand itself, so that the focus is not dropped when the card played goes)
// (the Princess last: one Enter on her, the focus put there, knocked you out)
const FIRST_STEP = [".picking button", ".hand button.move", ".card-button:not([disabled]):not([data-key=card-princess])",
  ".card-button:not([disabled])", "#hand-title"];
const WATCHING = ["#join input", "#status-title"];
let focusNext = null; // [key, selector] (see refocus) for the next redraw, if not back where it was
let turnBegun = false; // the state to draw starts your turn: the focus goes on to your first playable card

// Whether the focus is for the page's main part to place: in it, or nowhere (not in the header, say).
function focusIsOurs(main) {
  const active = document.activeElement;
  return !active || active === document.body || main.contains(active);
}

// Which control has the focus, as a key that survives a redraw: its id or its data-key.
function focusKey() {
  const node = document.activeElement;
  if (!node || !document.getElementById("main").contains(node)) return null;
  return node.id ? `#${node.id}` : node.dataset.key || null;
}

// Focus the control ``key`` names again, else the first that ``fallback`` finds (a selector, or a
// list of them tried in turn).
function refocus(key, fallback) {
  const main = document.getElementById("main");
  let node = null;
  if (key) node = key.startsWith("#") ? document.getElementById(key.slice(1)) : main.querySelector(`[data-key="${CSS.escape(key)}"]`);
  for (const selector of [].concat(fallback || [])) {
    if (node && !node.disabled) break;
    node = main.querySelector(selector);
  }
  if (node) node.focus();
}

// Said to a screen reader (a live region that stays on the page): what happened since ``before``,
// and that it is your turn.
function news(before, after) {
  // a copy: "Your turn" is said, not added to the state's log (it showed there, and the next news skipped a line)
  // (a table just opened: its last line and whose turn it is, not the whole round read out)
  const opened = !sameTable(before, after);
  const lines = sameRound(before, after) ? after.log.slice(before.log.length) : after.log.slice(opened ? -1 : 0);
  if (opened && !after.legal.length && !after.match_winners.length && !after.free_seats.length)  // (as the status says)
    lines.push(w("web_turn_of", { name: after.names[after.current] }));
  if (nextRound(before, after) && after.previous)  // how the round we followed ended (its result too) comes first
    lines.unshift(...after.previous.log.slice(before.log.length));
  if (!opened)  // who came to a seat left free (only its panel showed it)
    for (const seat of before.free_seats.filter((i) => !after.free_seats.includes(i) && i !== after.seat))
      lines.push(w("web_came_to_table", { name: after.names[seat] }));
  if (turnBegins(before, after)) lines.push(w("web_your_turn"));
  if (after.match_winners.length && (opened || !before.match_winners.length))
    lines.push(w("web_match_won", { names: after.match_won_by }));  // (shown in the status, which is not read out)
  if (after.rematch && (opened || !before.rematch))  // (its button's words changed, unsaid)
    lines.push(w("web_rematch_ready", { button: w(rematchOffer(after)) }));
  return lines.join(" ");
}

// The words of what a finished table offers this page for its rematch: to ask for one, to join the
// one another asked for, to go to the one joined from this browser, or to watch it (a spectator, or
// a player whose seat there was taken, the rematch full).
function rematchOffer(s) {
  const lost = lostRematch(s);
  if (s.seat === null || (lost && lost.full)) return "web_rematch_watch";
  return !s.rematch ? "web_rematch" : joinedRematch(s) ? "web_rematch_go" : "web_rematch_join";
}

// Our seat at ``s``'s rematch, taken while we were away ({code, full}: the rematch full too), if it was.
function lostRematch(s) {
  return rematchLost && rematchLost.code === s.rematch ? rematchLost : null;
}

// Whether this browser holds a seat at ``s``'s rematch (joined from here, or from another tab).
function joinedRematch(s) {
  return Boolean(s.rematch && localStorage.getItem(`ll-seat-${s.rematch}`));
}

// Since when (Date.now()) each seat away has been, from the server's seconds (``away_for``).
function since(awayFor) {
  return Object.fromEntries(Object.entries(awayFor).map(([seat, seconds]) => [seat, Date.now() - 1000 * seconds]));
}

// The seats whose person this page has seen at the table: those seen before at ``before``'s table,
// if ``s`` shows the same, and those taken and not away in ``s`` (a bot is never away).
function seatsHere(before, s) {
  const here = new Set(sameTable(before, s) ? seenHere : []);
  s.names.forEach((_, i) => { if (!s.away.includes(i) && !s.free_seats.includes(i)) here.add(i); });
  return here;
}

// Said to a screen reader when people go or come back (``away``: the seats away now), while the match
// goes on; a newcomer's first coming is no coming back.
function comings(s, away) {
  if (s.match_winners.length) return "";
  const went = away.filter((i) => !s.away.includes(i));
  const back = s.away.filter((i) => !away.includes(i) && seenHere.has(i));
  return [...went.map((i) => w("web_went_away", { name: s.names[i] })),
    ...back.map((i) => w("web_came_back", { name: s.names[i] }))].join(" ");
}

function sameTable(before, after) {
  return Boolean(before) && before.code === after.code;
}

function sameRound(before, after) {
  return sameTable(before, after) && before.round === after.round;
}

// Whether ``after`` is the round after the one ``before`` showed (a move of it ended that round).
function nextRound(before, after) {
  return sameTable(before, after) && after.round === before.round + 1;
}

// Whether the state ``after`` starts your turn (a new round you start counts, as your card kept
// from a move that ended the last one is not the card to go back to).
function turnBegins(before, after) {
  return after.legal.length > 0 && !(sameRound(before, after) && before.legal.length);
}

function announce(text) {
  document.getElementById("announce").textContent = text;
}

function choose(face, moves, index) {
  if (!moves.length) return;
  if (moves.length === 1) { send(moves[0].move); return; }
  picking = { card: face, moves, index };
  focusNext = [null, ".picking button"];
  render();
}

// The button that asks a bot to play the move awaited of another person, for a player: once that
// person has been away a while, or has not moved for a while here (the server says if it is too
// soon); null before, and the table is drawn again when the while is over.
function askButton(s) {
  clearTimeout(askTimer);
  if (s.seat === null || s.bots[s.current]) return null;
  const away = s.away.includes(s.current);
  const waited = (Date.now() - (away ? awaySince[s.current] : awaitedSince)) / 1000;
  const after = away ? s.ask_after.away : s.ask_after.idle;
  if (waited < after) {
    askTimer = setTimeout(() => { if (state === s) render(); }, (after - waited) * 1000);
    return null;
  }
  return $("button", { id: "stand-in-ask", text: w("web_stand_in_ask", { name: s.names[s.current] }),
    onclick: () => tell({ type: "stand_in", at: s.moves }) });
}

// A player panel's heading: the name, then what is true of the player after a dash, not in brackets
// ("Bot 1 (random) — out, protected"): a bot's name has brackets of its own.
function playerHeading(name, tags) {
  return tags.length ? `${name} — ${tags.join(", ")}` : name;
}

function playersSection() {
  return $("section", { class: "players", "aria-labelledby": "players-title" },
    $("h2", { id: "players-title", class: "visually-hidden", text: w("web_players") }));
}

// A log that scrolls: reachable with the keyboard, and named for a screen reader.
function logList(lines, name, key) {
  // data-key: the focus comes back to it when the table is drawn again (focusKey)
  return $("ol", { tabindex: 0, "aria-label": name, "data-key": key }, ...lines.map((line) => $("li", { text: line })));
}

// A Chancellor's choice: the card kept, then the others in the order they go under the deck.
function keepText(move) {
  return `${move.keep_name}${move.bottom.length ? " ↓ " + move.bottom.join(", ") : ""}`;
}

function pickingView() {
  const box = $("div", { class: "picking", role: "group", "aria-labelledby": "pick-prompt" });
  const { card, moves } = picking;
  if (picking.target === undefined) {
    // yourself last (a Prince's): the focus goes to the first, and from seat 0 one Enter made you discard
    const targets = [...new Set(moves.map((m) => m.target))].sort((a, b) => (a === state.seat) - (b === state.seat));
    box.append($("p", { id: "pick-prompt", text: w("web_pick_player", { card: card.name }) }));
    for (const target of targets)
      box.append($("button", { class: "target", "data-key": `target-${target}`, onclick: () => {
        const left = moves.filter((m) => m.target === target);
        if (left.length === 1) send(left[0].move); else { picking.target = target; focusNext = [null, ".picking button"]; render(); }
      }, text: target === state.seat ? w("web_yourself") : state.names[target] }));
  } else {
    box.append($("p", { id: "pick-prompt", text: w("web_pick_guess") }));
    for (const move of moves.filter((m) => m.target === picking.target))
      box.append($("button", { class: "guess", "data-key": `guess-${move.move}`, onclick: () => send(move.move),
        text: move.guess_name }));
  }
  box.append($("button", { class: "cancel", "data-key": "cancel", onclick: cancelPicking, text: w("web_cancel") }));
  return box;
}

// The key the focus comes back to on a redraw of the card ``index`` of ``hand``: a second copy's own
// (it went to the first copy).
function cardKey(hand, index) {
  const copy = hand.slice(0, index).filter((other) => other.card === hand[index].card).length;
  return `card-${hand[index].card}${copy ? `-${copy + 1}` : ""}`;
}

function cancelPicking() {
  focusNext = [cardKey(state.hand, picking.index), null];
  picking = null;
  render();
}

// ------------------------------------------------------------------------------------- replays

let replay = null; // {frames, target, result, at, source}

// A replay in the page's language ({frames, target, result}), from a finished table ({code}) or an
// uploaded record ({record}: its bytes); null (and the reason shown, and given to ``refused``) if the
// server refuses, or cannot be reached. The fields
// of a record that the format does not name, left out, are named in the alert.
async function replayFrames(source, refused = () => {}) {
  const answer = await (source.code  // (a long match's frames take a while, and a large record's upload)
    ? ask(`/api/tables/${source.code}/replay?lang=${lang}`, { within: REPLAY_WITHIN }, refused)
    : ask(`/api/replay?lang=${lang}`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: source.record, within: REPLAY_WITHIN }, refused));
  if (answer && answer.left_out) alertUser(answer.left_out);  // (fields the format does not name, named)
  return answer && answer.frames ? answer : null;
}

function showReplay({ frames, target, result }, source, at = 0) {
  replay = { frames, target, result, at: Math.min(at, frames.length - 1), source };
  drawReplay();
}

// The page's main part shows ``view`` ("table", "replay"), brought up to date in place (morph) while it
// stays that view: another page's nodes are not this one's.
function enterView(main, view) {
  if (main.dataset.view !== view) main.replaceChildren();
  main.dataset.view = view;
}

function drawReplay() {
  const main = document.getElementById("main");
  const focused = focusKey();
  const ours = focusIsOurs(main);
  enterView(main, "replay");
  const f = replay.frames[replay.at];
  main.dataset.step = replay.at;
  const step = (by) => { replay.at = Math.max(0, Math.min(replay.frames.length - 1, replay.at + by)); drawReplay(); };
  // named, as the table's page is: a replay, and of which table (an uploaded record has no code)
  const title = replay.source.code ? `${w("web_replay")} · ${replay.source.code}` : w("web_replay");
  const last = replay.at === replay.frames.length - 1;
  document.title = `${title} – ${w("web_title")}`;
  const controls = $("section", { class: "panel replay-controls", "aria-labelledby": "replay-title" },
    $("h2", { id: "replay-title", class: "visually-hidden", text: title }),
    // both buttons first, side by side: after the step's words, whose length changes, "Next" moved
    // under a thumb tapping it again and again on a phone
    // the arrows for the eye: in the buttons' names a screen reader read them out ("left-pointing triangle")
    $("button", { id: "replay-back", onclick: () => step(-1), disabled: replay.at === 0 ? "" : false },
      $("span", { "aria-hidden": "true", text: "◀ " }), w("web_previous")),
    " ",
    $("button", { id: "replay-next", onclick: () => step(1),
      disabled: last ? "" : false }, w("web_next"), $("span", { "aria-hidden": "true", text: " ▶" })),
    $("span", { id: "replay-step", "aria-keyshortcuts": "ArrowLeft ArrowRight",
      text: " " + w(f.turn ? "web_step" : "web_step_deal", { n: replay.at + 1, total: replay.frames.length, round: f.round, turn: f.turn }) }));
  const players = playersSection();
  f.names.forEach((name, i) => {
    const tags = [];
    if (!f.alive[i]) tags.push(w("web_out"));
    if (f.protected[i] && !f.winners.length) tags.push(w("web_protected"));
    players.append($("div", { class: `player panel${i === f.current && !f.winners.length ? " current" : ""}${f.alive[i] ? "" : " out"}` },
      $("h3", { text: playerHeading(name, tags) }),
      $("p", { text: w("web_tokens", { n: f.tokens[i], target: replay.target }) }),
      // (named for the eye too: the hand and the discards were two rows of cards alike)
      namedPile(f.hands[i], "cards", w("web_replay_hand"), w("web_hand_of", { name })),
      namedPile(f.discards[i], "discards", w("web_discards"))));
  });
  const log = $("section", { class: "panel log" }, $("h2", { text: w("web_log") }),
    logList(f.log, w("web_log"), "replay-log"));
  const faceUp = f.face_up.length ? [faceUpView(f.face_up)] : [];  // (two players), as at the table
  // at the record's last step, how the match stands: who won it, or that the record stops before
  const result = last ? [$("p", { id: "replay-result", class: "result", text: replay.result })] : [];
  morph(main, $("div", {}, controls, ...result, $("p", { text: w("web_deck", { n: f.deck_size }) }), ...faceUp, players, log));
  for (const list of main.querySelectorAll(".log ol")) list.scrollTop = list.scrollHeight;  // the newest line in sight
  // the step's new lines (a round's end is several: the deck left, the winners, the Spy's token)
  const before = replay.frames[replay.at - 1];
  // (a round's first step: all its lines, who starts, the cards face up, the deal; only the last was said)
  const fresh = !before || before.round !== f.round ? f.log
    : before.log.length < f.log.length ? f.log.slice(before.log.length) : f.log.slice(-1);
  // the step's words a sentence of their own, so that a screen reader pauses before the lines
  announce([`${document.getElementById("replay-step").textContent.trim()}.`, ...fresh, ...(last ? [replay.result] : [])].join(" "));
  refocus(focused, ours ? "#replay-next:not([disabled]), #replay-back:not([disabled])" : null);
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && picking) cancelPicking();  // as the Back button
  else if (event.key === "Escape" && !document.getElementById("alert").hidden) putAlertAway();  // as a tap
  if (!replay || !document.getElementById("replay-step")) return;
  if (event.key === "ArrowRight") document.getElementById("replay-next").click();
  if (event.key === "ArrowLeft") document.getElementById("replay-back").click();
});

// ------------------------------------------------------------------------------------- routes

// The longest table's code a link or the code field is read as (a table's is six characters).
const CODE_MOST = 12;

// A table's code in a text typed or pasted, in capitals: in a link to the table (or to its replay:
// ``place`` "replay"), the first letters and digits after its "#/t/" (not what a chat put after
// them: "…/#/t/QV7RXV). See you"); a code typed, its letters and digits alone (a space copied with it).
function codeIn(text, place = "t") {
  let plain = text;
  try { plain = decodeURIComponent(text); } catch { /* (a "%" of its own: read as it is) */ }
  const link = plain.match(new RegExp(`#/${place}/(.*)$`, "s"));
  return (link ? link[1].match(/[A-Za-z0-9]+/)?.[0] ?? "" : plain.replace(/[^A-Za-z0-9]/g, "")).toUpperCase();
}

async function route() {
  alertUser("");
  replay = null;
  // a link to a table or its replay in small letters, or with what a chat put after it ("…/#/t/QV7RXV)."),
  // is the table's own (a reconnect asks whether the page is still there); it opened the lobby, unsaid
  const place = location.hash.match(/^#\/(t|replay)\//)?.[1];
  const code = place ? codeIn(location.hash, place) : "";
  const noTable = place !== undefined && (!code || code.length > CODE_MOST);  // a link with no table's code in it
  if (place && !noTable) history.replaceState(null, "", `#/${place}/${code}`);  // (no code: the lobby's, below)
  // (a table left before its first state: the next one's was said "Connected again"; the same one,
  // asked again by a language switched while it was cut off, still is)
  if (state?.code !== code) cutOff = false;
  if (place === "t" && !noTable) {
    connect(code);
    return;
  }
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
  const fromTable = state !== null;
  if (state) leaveTable();
  standing = null;  // (a table left, whether or not it showed a state)
  if (place === "replay" && !noTable) {
    const source = { code };
    const here = hashChanges;
    let refused = false;
    const told = await replayFrames(source, () => { refused = true; });
    // (moved on meanwhile; or the server out of reach, said so: the link kept, to be tried again)
    if (hashChanges !== here || !(told || refused)) return;
    if (told) {
      showReplay(told, source);
      return;
    }
  }
  // a link with no table's code, or a replay the server refused (the reason said): said in the lobby
  // (the page was left blank), as when the server finds no such table
  if (place) {
    await lobbySaying(noTable ? w("web_no_table") : undefined);
    return;
  }
  const shown = showLobby();  // (drawn at once; its list of tables comes after)
  // (the browser's Back from a table left the focus on the page itself, where its controls had gone)
  if (fromTable && document.activeElement === document.body) document.getElementById("create-title").focus();
  await shown;
}

// Back to the lobby (not a blank page), saying ``text`` there (or what the alert says already: a
// refusal, not read out again), the focus on the code field, to be typed again: where a table's code
// or a replay's was not found, or a table is gone.
async function lobbySaying(text) {
  history.replaceState(null, "", "#/");
  const shown = showLobby();  // (drawn at once; its list of tables comes after)
  if (text !== undefined) alertUser(text, false);
  document.getElementById("code").focus();
  await shown;
}

document.getElementById("lang").addEventListener("click", async () => {
  lang = lang === "nl" ? "en" : "nl";
  const chosen = lang;
  localStorage.setItem("ll-lang", lang);
  const loaded = await loadWords();
  if (loaded === null && lang === chosen) {  // not reached: the page stays in the language it shows
    lang = document.documentElement.lang;  // (not the one before this click: another unreached click's)
    localStorage.setItem("ll-lang", lang);
  }
  if (!loaded) return;  // clicked again meanwhile: the last click's language is the page's
  awayAtSwitch = Boolean(putAway);  // (put away: putAway is what the alert says, else null)
  if (tell({ type: "lang", lang })) return;  // the table comes again in that language
  if (replay) {  // the same step of the same replay, in the other language
    const { source, at } = replay;
    const told = await replayFrames(source);
    if (told && lang === chosen) showReplay(told, source, at);
  } else {
    keptForms = formValues();  // put back by showLobby, as soon as its forms are drawn
    await route();
    keptForms = null;
  }
});

let keptForms = null; // what the lobby's forms held before the language changed

// What the page's forms hold (the lobby's: a name typed, an edition chosen …), to keep across a redraw.
function formValues() {
  return [...document.querySelectorAll("#main form [name]")]
    .map((field) => [field.form.id, field.name,
      field.type === "checkbox" ? field.checked : field.type === "file" ? field.files : field.value]);
}

// Put back what formValues() read, in page order: a choice that changes the fields after it (the
// edition, the number of players) is told with a change event before those fields are filled in.
function restoreForms(typed) {
  for (const [form, name, value] of typed) {
    const field = document.querySelector(`#main form#${CSS.escape(form)} [name="${CSS.escape(name)}"]`);
    if (!field) continue;
    if (field.type === "checkbox") field.checked = value;
    else if (field.type === "file") {  // the file chosen stays chosen (a file input takes only a FileList)
      if (!value.length) continue;
      const chosen = new DataTransfer();
      for (const file of value) chosen.items.add(file);
      field.files = chosen.files;
      field.dispatchEvent(new Event("change"));
    } else field.value = value;
    // told as if chosen or typed: a select fills in the fields after it, an input checks itself anew
    // (inOurWords: its message in the new language)
    field.dispatchEvent(new Event(field.tagName === "SELECT" ? "change" : "input"));
  }
}
window.addEventListener("hashchange", route);
// another tab of ours joined the rematch of the finished match shown: this one's button now leads there
window.addEventListener("storage", (event) => {
  if (state && state.rematch && event.key === `ll-seat-${state.rematch}` && !replay) render();
});
loadWords().then((current) => { if (current) route(); });  // (not current: the language was switched meanwhile, and that switch routes)

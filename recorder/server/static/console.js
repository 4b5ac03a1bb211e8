// The arbiter console: one tile per board with the live position, the last moves, both clocks, the
// alert state and the advice awaiting the arbiter's ruling; the tiles grouped by event and round (a
// heading each), boards in number order within; updated from the server's event stream.
"use strict";

(() => {
  const games = new Map();     // id -> state
  const received = new Map();  // id -> Date.now() when its state arrived (for the running clock)
  const tiles = document.getElementById("tiles");

  function lastMoves(state, count) {
    const moves = state.moves.slice(-count);
    const script = XQ.prefs.script;
    return moves.map((m) => `<li class="${m.side}${m.corrected_by ? " corrected" : ""}${m.rivals ? " unsure" : ""}" title="ply ${m.ply}: ${XQ.esc(m.iccs)}${XQ.unsureNote(m, script)}">`
      + `<span class="n">${XQ.moveLabel(m.ply, state.start_fen)}</span><span class="mv">${XQ.esc(XQBoard.notation(m.chinese, script))}</span>`
      + "</li>").join("");
  }

  function openAlerts(state) { return state.alerts.filter((a) => !a.acknowledged); }

  function clockHtml(state, side) {
    const running = XQ.clockRuns(state, side);
    return `<div class="clock ${side}${running ? " running" : ""}" data-side="${side}">`
      + `<span class="who" title="${XQ.esc(state[side] || "")}">${XQBoard.notation(side === "red" ? "红" : "黑", XQ.prefs.script)} ${XQ.esc(state[side] || (side === "red" ? "Red" : "Black"))}</span>`
      + `<span class="time">${XQ.clock(XQ.clockNow(state, side, received.get(state.id)))}</span></div>`;
  }

  function alertHtml(state, alert, more) {
    const picture = alert.frame
      ? `<a class="stilllink" href="${XQ.esc(alert.frame)}" target="_blank" title="the camera at the alert (full size)"><img class="still" src="${XQ.esc(alert.frame)}" alt="camera still of the alert"></a>`
      : "";
    return `<section class="alertbox${alert.frame ? " has-still" : ""}" data-seq="${alert.seq}">
      <div class="words">
      <div class="what"><span class="icon">⚠</span> ${XQ.esc(XQ.kindName(alert))}
        ${alert.article ? `<span class="article">art. ${XQ.esc(alert.article)}</span>` : ""}
        ${alert.squares.length ? `<span class="sq">${XQ.esc(alert.squares.join(" "))}</span>` : ""}</div>
      <div class="text">${XQ.esc(alert.text)}</div>
      ${alert.back ? `<div class="back">✓ ${XQ.esc(alert.back)}</div>` : ""}
      <div class="acts"><button type="button" class="ack" data-game="${state.id}" data-seq="${alert.seq}">Acknowledge</button>
      ${alert.foul ? `<button type="button" class="nofoul" data-game="${state.id}" data-seq="${alert.seq}" title="no foul was committed (the camera misread, or the move was legal): not counted among the side's fouls">No foul</button>` : ""}
      ${more ? `<span class="more">+${more} more</span>` : ""}
      <a href="/games/${state.id}#alerts">details</a></div>
      </div>
      ${picture}
    </section>`;
  }

  function adviceHtml(state, advice, more) {
    return `<section class="alertbox advice" data-seq="${advice.seq}">
      <div class="words">
      <div class="what"><span class="icon">⚖</span> Ruling needed: ${XQ.esc(XQ.kindName(advice))}
        ${advice.article ? `<span class="article">art. ${XQ.esc(advice.article)}</span>` : ""}
        ${advice.result ? `<span class="sq">suggests ${XQ.esc(XQ.resultText(advice.result))}</span>` : ""}</div>
      <div class="text">${XQ.esc(advice.text)}</div>
      <div class="acts"><button type="button" class="ack" data-game="${state.id}" data-seq="${advice.seq}">Acknowledge</button>
      ${more ? `<span class="more">+${more} more</span>` : ""}
      <a href="/games/${state.id}#alerts">details</a></div>
      </div>
    </section>`;
  }

  function tileHtml(state) {
    const open = openAlerts(state);
    const advice = XQ.openAdvice(state);
    const alert = open[open.length - 1];
    const last = state.moves.length ? state.moves[state.moves.length - 1].iccs : "";
    // the alert's position while the game has not moved on from it; once moves came after it the
    // live board (the alert's own position is on the game page), so no tile shows a stale board
    const atAlert = alert && alert.fen === state.fen;
    const since = alert && !atAlert ? state.moves.length - (alert.ply || 0) : 0;
    const marks = atAlert ? alert.squares.flatMap((s) => s.length === 4 ? [s.slice(0, 2), s.slice(2)] : [s]) : [];
    const board = XQBoard.svg(state.fen, {script: XQ.prefs.script, last: atAlert ? "" : last, marks});
    const caption = atAlert ? "position at the alert"
      : alert ? `${state.state === "recording" ? "live" : "the game's last position"}: ${since > 0 ? since + (since > 1 ? " plies" : " ply") + " after the alert" : "the alert's position differs"}` : "";
    const result = state.result && state.result !== "*" ? `<span class="result">${XQ.esc(XQ.resultText(state.result))}</span>` : "";
    const title = [state.event, state.round && "R" + state.round].filter(Boolean).join(" · ");
    // another game on this board in this round (an edit onto a board taken, a replayed game): marked,
    // or the console, the broadcast and the round's sheets show two boards "1" with nothing to tell them
    const twins = boardTwins(state);
    const twinNote = twins.length ? `board ${state.board} of this round also has game ${twins.map((g) => g.id).join(", ")}` : "";
    return `<header>
        <span class="boardno${twins.length ? " twin" : ""}" title="${XQ.esc(twinNote || title)}">${state.board != null ? state.board : "#" + state.id}${twins.length ? " ⚠" : ""}</span>
        <a class="players" href="/games/${state.id}"><b class="red">${XQ.esc(state.red || "Red")}</b>
          <span class="vs">–</span> <b class="black">${XQ.esc(state.black || "Black")}</b></a>
        ${result}<span class="state ${state.state}">${XQ.esc(state.state)}</span>
      </header>
      ${twins.length ? `<div class="twinnote">⚠ ${XQ.esc(twinNote)}: correct the board (xqrec edit GAME --board N) or void the wrong one</div>` : ""}
      <div class="body">
        <a class="boardview" href="/games/${state.id}" title="${atAlert ? "position at the alert" : "current position"}">${board}${caption ? `<span class="caption">${XQ.esc(caption)}</span>` : ""}</a>
        <div class="side">
          ${clockHtml(state, "black")}
          <ol class="moves">${lastMoves(state, 8)}</ol>
          <div class="tomove">${state.moves.length} plies · ${(state.result || "*") !== "*" ? "game over" : XQBoard.notation(state.side_to_move === "red" ? "红方走" : "黑方走", XQ.prefs.script)}${state.alerts.length && !open.length ? ` · <span class="done">${state.alerts.length} alert${state.alerts.length > 1 ? "s" : ""} ✓</span>` : ""}</div>
          ${clockHtml(state, "red")}
        </div>
      </div>
      ${alert ? alertHtml(state, alert, open.length - 1) : ""}
      ${advice.length ? adviceHtml(state, advice[advice.length - 1], advice.length - 1) : ""}`;
  }

  // one group per event and round, in name order (round numbers as numbers), each a heading and a grid
  const collate = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
  function groupKey(state) { return JSON.stringify([state.event || "", state.round || ""]); }
  function groupOf(state) {
    const key = groupKey(state);
    const found = [...tiles.querySelectorAll(":scope > .group")].find((g) => g.dataset.key === key);
    if (found) return found.querySelector(".grid");
    const group = document.createElement("section");
    group.className = "group";
    group.dataset.key = key;
    const round = state.round ? (/^\d+$/.test(state.round) ? "Round " + state.round : state.round) : "";
    const name = [state.event || "", round].filter(Boolean).join(" · ")
      || "Games without an event or round";
    // the round's records in one file each, for the organiser (they were only on the command line)
    const query = `?event=${encodeURIComponent(state.event || "")}&round=${encodeURIComponent(state.round || "")}`;
    const round_ = state.event || state.round ? "round" : "group";
    const exports = [["pgn", "PGN"], ["pdf", "scoresheets (PDF)"], ["txt", "text"]].map(([kind, label]) =>
      `<a href="/rounds/export.${kind}${query}" download title="every game of this ${round_} in one file, by board">${label}</a>`).join(" · ");
    // the name is the fold's button: a large target, read out as what it does
    group.innerHTML = `<h2 class="grouphead"><button type="button" class="fold" aria-expanded="true">`
      + `<span class="arrow" aria-hidden="true">▾</span> <span class="name">${XQ.esc(name)}</span></button>`
      + `<span class="ginfo"></span><span class="gexports">the ${round_}'s games: ${exports}</span></h2><div class="grid"></div>`;
    // games without an event or round (a camera tried out) come after the tournament's rounds
    const compare = (a, b) => { const [x, y] = [JSON.parse(a), JSON.parse(b)];
      const [xs, ys] = [!x[0] && !x[1], !y[0] && !y[1]];
      return (xs - ys) || collate.compare(x[0], y[0]) || collate.compare(x[1], y[1]); };
    const after = [...tiles.querySelectorAll(":scope > .group")].find((g) => compare(g.dataset.key, key) > 0);
    tiles.insertBefore(group, after || null);
    return group.querySelector(".grid");
  }

  function render(state, quiet = false) {
    let tile = document.getElementById("game-" + state.id);
    if (state.void) {  // voided with xqrec edit: no longer on the console
      games.delete(state.id);
      if (tile) dropTile(tile);
      if (!quiet) refresh();
      return;
    }
    if (tile && tile.closest(".group").dataset.key !== groupKey(state)) {  // its event or round was edited
      dropTile(tile);
      tile = null;
    }
    if (tile && tile.dataset.order !== String(order(state))) {  // its board number was edited
      const grid = tile.parentElement;
      tile.remove();
      const after = [...grid.children].find((t) => Number(t.dataset.order) > order(state));
      grid.insertBefore(tile, after || null);
    }
    if (!tile) {
      tile = document.createElement("article");
      tile.id = "game-" + state.id;
      const empty = tiles.querySelector(".empty");
      if (empty) empty.remove();
      const grid = groupOf(state);
      const after = [...grid.children].find((t) => Number(t.dataset.order) > order(state));
      grid.insertBefore(tile, after || null);
    }
    tile.dataset.order = String(order(state));
    const open = openAlerts(state).length + XQ.openAdvice(state).length;
    tile.className = "tile" + (open ? " alerting" : "") + ((state.result || "*") !== "*" ? " ended" : "")
      + (state.state === "interrupted" || state.state === "stopped" ? " " + state.state : "");
    tile.dataset.alerts = String(open);
    tile.dataset.plies = String(state.moves.length);
    tile.classList.add("stale");  // drawn below unless its round is folded away (drawn when unfolded)
    if (!quiet) refresh();
  }

  // after any change: the groups' order, their headings and folds, the tiles still to draw, the header
  function refresh() {
    sortGroups();
    tiles.querySelectorAll(":scope > .group").forEach(foldGroup);
    summary();
  }

  function draw(tile) {
    const state = games.get(Number(tile.id.slice(5)));
    tile.classList.remove("stale");
    if (state) tile.innerHTML = tileHtml(state);
  }

  // A round no longer played is folded to its heading (a tournament's earlier rounds had filled the
  // page below the live one: an organiser tester); one with an open alert or ruling, or two games on
  // one board, never is (the round's sheets would hold two "board 1"). The arbiter's own click on a
  // heading, or acknowledging an alert in the round, stands until the page is reloaded.
  const folds = new Map();  // group key -> folded, as the arbiter chose
  function foldGroup(group) {
    const key = group.dataset.key;
    const members = [...games.values()].filter((state) => groupKey(state) === key);
    const open = members.reduce((n, state) => n + openAlerts(state).length + XQ.openAdvice(state).length, 0);
    const over = members.filter((state) => (state.result || "*") !== "*").length;
    const recording = members.filter((state) => state.state === "recording").length;
    const twice = [...new Set(members.filter((state) => boardTwins(state).length).map((state) => state.board))];
    const past = group.classList.contains("past");
    const held = open > 0 || twice.length > 0;
    const folded = !held && (folds.has(key) ? folds.get(key) : past);
    group.classList.toggle("folded", folded);
    const button = group.querySelector(".fold");
    button.querySelector(".arrow").textContent = folded ? "▸" : "▾";
    button.setAttribute("aria-expanded", String(!folded));
    button.disabled = held;
    button.title = held ? "stays open while an alert or ruling is open or a board has two games"
      : folded ? "show this round's boards" : "fold this round to its heading";
    const facts = [past ? "not being played" : "",
                   `${members.length} board${members.length === 1 ? "" : "s"}`,
                   recording ? `${recording} recording` : "", over ? `${over} over` : ""];
    const info = facts.filter(Boolean).map(XQ.esc).join(" · ")
      + (open ? ` · <b class="bad">${open} open</b>` : "")
      + twice.map((board) => ` · <b class="bad">⚠ board ${XQ.esc(String(board))} twice</b>`).join("");
    const line = group.querySelector(".ginfo");
    if (line.innerHTML !== info) line.innerHTML = info;
    if (!folded) group.querySelectorAll(".tile.stale").forEach(draw);
  }

  // the rounds being played first (name order), then the others, the latest first: a tournament's
  // earlier rounds no longer push the live boards down the page (a broadcaster tester)
  // With none recorded now, the newest game's round is the one being played, as the header, /watch and
  // the broadcast feed have it (a tester's console said "not being played" of the round /watch showed live)
  function sortGroups() {
    const rank = new Map();
    const all = [...games.values()];
    const anyRecording = all.some((state) => state.state === "recording");
    const newest = Math.max(...all.map((state) => state.id));
    for (const state of all) {
      const key = groupKey(state);
      const [live, latest] = rank.get(key) || [false, 0];
      const playing = anyRecording ? state.state === "recording" : state.id === newest;
      rank.set(key, [live || playing, Math.max(latest, state.id)]);
    }
    const groups = [...tiles.querySelectorAll(":scope > .group")];
    const sorted = [...groups].sort((a, b) => {
      const [x, y] = [rank.get(a.dataset.key) || [false, 0], rank.get(b.dataset.key) || [false, 0]];
      if (x[0] !== y[0]) return x[0] ? -1 : 1;
      return x[0] ? collate.compare(a.dataset.key, b.dataset.key) : y[1] - x[1];
    });
    sorted.forEach((group) => group.classList.toggle("past", !(rank.get(group.dataset.key) || [false])[0]));
    if (sorted.some((group, index) => group !== groups[index])) sorted.forEach((group) => tiles.appendChild(group));
  }

  function dropTile(tile) {  // and its group when no tile is left in it
    const group = tile.closest(".group");
    tile.remove();
    if (group && !group.querySelector(".tile")) group.remove();
  }

  function order(state) { return (state.board != null ? state.board : 1000) * 100000 + state.id; }

  function summary() {
    const all = [...games.values()];
    const alerts = all.reduce((n, g) => n + openAlerts(g).length, 0);
    const rulings = all.reduce((n, g) => n + XQ.openAdvice(g).length, 0);
    const flagged = [alerts ? `${alerts} open alert${alerts > 1 ? "s" : ""}` : "",
                     rulings ? `${rulings} ruling${rulings > 1 ? "s" : ""} needed` : ""].filter(Boolean).join(", ");
    // the header names the rounds being played (else the latest game's): a tournament's earlier rounds,
    // shown below as "not being played", had it wrap to two lines (an organiser tester); the boards
    // counted are those rounds' (it had counted every game in the store: "round 5 · 9 boards" for one)
    const playing = all.filter((g) => g.state === "recording");
    const named = playing.length ? playing : all.filter((g) => g.id === Math.max(...all.map((x) => x.id)));
    const roundOf = (g) => [g.event, g.round && "round " + g.round].filter(Boolean).join(", ");
    const rounds = new Set(named.map(roundOf));
    const boards = all.filter((g) => rounds.has(roundOf(g))).length;
    const others = all.length - boards;
    document.getElementById("summary").innerHTML = `${boards} board${boards === 1 ? "" : "s"}`
      + (others ? ` (${all.length} games in all)` : "") + " · "
      + (flagged ? `<button type="button" class="bad" title="show the first board with an open alert">${flagged}</button>` : "no open alerts");
    document.getElementById("round").textContent = [...rounds].filter(Boolean).join(" | ");
    document.title = (alerts + rulings ? `(${alerts + rulings}) ⚠ ` : "") + "Arbiter console · xqrec";
  }

  function tick() {
    for (const state of games.values()) {
      const tile = document.getElementById("game-" + state.id);
      if (!tile) continue;
      for (const el of tile.querySelectorAll(".clock")) {
        el.querySelector(".time").textContent = XQ.clock(XQ.clockNow(state, el.dataset.side, received.get(state.id)));
      }
    }
  }

  function boardTwins(state) {
    if (state.board == null) return [];
    return [...games.values()].filter((g) => g.id !== state.id && !g.void && g.board === state.board
                                             && groupKey(g) === groupKey(state));
  }

  function accept(state, quiet = false) {
    const before = games.get(state.id);
    // the games that shared its board before or share it now: their tiles' marks change with it
    const touched = [...(before ? boardTwins(before) : []), ...boardTwins(state)];
    if (state.void) {
      render(state, true); games.delete(state.id); touched.forEach((twin) => render(twin, true));
      if (!quiet) refresh();
      return false;
    }
    const known = new Set(before ? before.alerts.concat(before.advice || []).map((a) => a.seq) : []);
    games.set(state.id, state);
    received.set(state.id, Date.now());
    render(state, true);
    touched.forEach((twin) => { if (games.has(twin.id)) render(games.get(twin.id), true); });
    if (!quiet) refresh();
    return state.alerts.some((a) => !known.has(a.seq) && !a.acknowledged)
      || XQ.openAdvice(state).some((a) => !known.has(a.seq));
  }

  document.getElementById("summary").addEventListener("click", (e) => {
    if (!e.target.closest("button.bad")) return;
    const first = tiles.querySelector(".tile.alerting");
    if (first) first.scrollIntoView({behavior: "smooth", block: "center"});
  });

  tiles.addEventListener("click", (e) => {
    const fold = e.target.closest("button.fold");
    if (!fold) return;
    const group = fold.closest(".group");
    folds.set(group.dataset.key, !group.classList.contains("folded"));
    foldGroup(group);
  });

  tiles.addEventListener("click", async (e) => {
    const button = e.target.closest("button.ack, button.nofoul");
    if (!button) return;
    const noFoul = button.classList.contains("nofoul");
    // a ruling changes the foul count the players sign (two fouls lose, art. 4.1.8): asked once more
    if (noFoul && !window.confirm(XQ.NO_FOUL_ASK)) return;
    button.disabled = true;
    const done = await XQ.act(button.dataset.game, "ack", noFoul ? {seq: Number(button.dataset.seq), ruling: "no_foul"} : {seq: Number(button.dataset.seq)});
    // the round the arbiter works in stays open: its tile does not vanish under the cursor
    if (done) folds.set(groupKey(done.state), false);
    if (done) { accept(done.state); XQ.toast(noFoul ? "Ruled no foul" : button.closest(".advice") ? "Advice acknowledged" : "Alert acknowledged"); }
    else button.disabled = false;
  });

  function start() {
    XQ.scriptToggle(() => { games.forEach((state) => render(state, true)); refresh(); });
    XQ.soundToggle();
    load();
  }

  async function load() {
    let data;
    try {
      const r = await fetch("/api/games");
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      data = await r.json();
    } catch (error) {  // not "Loading…" for ever: say it, and try again
      const empty = tiles.querySelector(".empty");
      if (empty) empty.textContent = `The store did not answer (${error.message}): trying again…`;
      setTimeout(load, 3000);
      return;
    }
    XQ.serverNow(data.now);
    // every game first, then one refresh: the rounds no longer played are folded before they are drawn
    data.games.filter(Boolean).forEach((g) => accept(g, true));
    refresh();
    // "no games" is said only once the store has answered: a new user read it beside games still loading
    const empty = tiles.querySelector(".empty");
    if (empty) empty.innerHTML = "No games in the store yet. Start <code>xqrec record --db …</code> on a board.";
    XQ.stream(data.last_event_id, (msg) => {
      if (!msg.state) return;
      if (accept(msg.state)) XQ.beep();
    }, XQ.setStatus);
    setInterval(tick, 250);
  }
  start();
})();

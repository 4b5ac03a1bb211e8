// The arbiter console: one tile per board with the live position, the last moves, both clocks and the
// alert state; updated from the server's event stream.
"use strict";

(() => {
  const games = new Map();     // id -> state
  const received = new Map();  // id -> Date.now() when its state arrived (for the running clock)
  const tiles = document.getElementById("tiles");

  function lastMoves(state, count) {
    const moves = state.moves.slice(-count);
    const script = XQ.prefs.script;
    return moves.map((m) => `<li class="${m.side}${m.corrected_by ? " corrected" : ""}" title="${XQ.esc(m.iccs)}">`
      + `<span class="n">${m.ply}.</span><span class="mv">${XQ.esc(XQBoard.notation(m.chinese, script))}</span>`
      + "</li>").join("");
  }

  function openAlerts(state) { return state.alerts.filter((a) => !a.acknowledged); }

  function clockHtml(state, side) {
    const running = (state.clocks || {}).running === side && (state.result || "*") === "*";
    return `<div class="clock ${side}${running ? " running" : ""}" data-side="${side}">`
      + `<span class="who">${side === "red" ? "红" : "黑"} ${XQ.esc(state[side] || (side === "red" ? "Red" : "Black"))}</span>`
      + `<span class="time">${XQ.clock(XQ.clockNow(state, side, received.get(state.id)))}</span></div>`;
  }

  function alertHtml(state, alert, more) {
    const picture = alert.frame
      ? `<a class="stilllink" href="${XQ.esc(alert.frame)}" target="_blank" title="the camera at the alert (full size)"><img class="still" src="${XQ.esc(alert.frame)}" alt="camera still of the alert"></a>`
      : "";
    return `<section class="alertbox${alert.frame ? " has-still" : ""}" data-seq="${alert.seq}">
      <div class="words">
      <div class="what"><span class="icon">⚠</span> ${XQ.esc(XQ.kindName(alert.kind))}
        ${alert.article ? `<span class="article">art. ${XQ.esc(alert.article)}</span>` : ""}
        ${alert.squares.length ? `<span class="sq">${XQ.esc(alert.squares.join(" "))}</span>` : ""}</div>
      <div class="text">${XQ.esc(alert.text)}</div>
      <div class="acts"><button type="button" class="ack" data-game="${state.id}" data-seq="${alert.seq}">Acknowledge</button>
      ${more ? `<span class="more">+${more} more</span>` : ""}
      <a href="/games/${state.id}#alerts">details</a></div>
      </div>
      ${picture}
    </section>`;
  }

  function tileHtml(state) {
    const open = openAlerts(state);
    const alert = open[open.length - 1];
    const last = state.moves.length ? state.moves[state.moves.length - 1].iccs : "";
    const boardFen = alert ? alert.fen : state.fen;
    const marks = alert ? alert.squares.flatMap((s) => s.length === 4 ? [s.slice(0, 2), s.slice(2)] : [s]) : [];
    const board = XQBoard.svg(boardFen, {script: XQ.prefs.script, last: alert ? "" : last, marks});
    const result = state.result && state.result !== "*" ? `<span class="result">${XQ.esc(XQ.RESULT[state.result] || state.result)}</span>` : "";
    const title = [state.event, state.round && "R" + state.round].filter(Boolean).join(" · ");
    return `<header>
        <span class="boardno" title="${XQ.esc(title)}">${state.board != null ? state.board : "#" + state.id}</span>
        <a class="players" href="/games/${state.id}"><b class="red">${XQ.esc(state.red || "Red")}</b>
          <span class="vs">–</span> <b class="black">${XQ.esc(state.black || "Black")}</b></a>
        ${result}<span class="state ${state.state}">${XQ.esc(state.state)}</span>
      </header>
      <div class="body">
        <a class="boardview" href="/games/${state.id}" title="${alert ? "position at the alert" : "current position"}">${board}${alert ? `<span class="caption">position at the alert</span>` : ""}</a>
        <div class="side">
          ${clockHtml(state, "black")}
          <ol class="moves">${lastMoves(state, 8)}</ol>
          <div class="tomove">${state.moves.length} plies · ${state.side_to_move === "red" ? "红方走" : "黑方走"}${state.alerts.length && !open.length ? ` · <span class="done">${state.alerts.length} alert${state.alerts.length > 1 ? "s" : ""} ✓</span>` : ""}</div>
          ${clockHtml(state, "red")}
        </div>
      </div>
      ${alert ? alertHtml(state, alert, open.length - 1) : ""}`;
  }

  function render(state) {
    let tile = document.getElementById("game-" + state.id);
    if (!tile) {
      tile = document.createElement("article");
      tile.id = "game-" + state.id;
      const empty = tiles.querySelector(".empty");
      if (empty) empty.remove();
      const after = [...tiles.children].find((t) => Number(t.dataset.order) > order(state));
      tiles.insertBefore(tile, after || null);
    }
    tile.dataset.order = String(order(state));
    const open = openAlerts(state).length;
    tile.className = "tile" + (open ? " alerting" : "") + ((state.result || "*") !== "*" ? " ended" : "")
      + (state.state === "interrupted" ? " interrupted" : "");
    tile.dataset.alerts = String(open);
    tile.dataset.plies = String(state.moves.length);
    tile.innerHTML = tileHtml(state);
    summary();
  }

  function order(state) { return (state.board != null ? state.board : 1000) * 100000 + state.id; }

  function summary() {
    const all = [...games.values()];
    const alerts = all.reduce((n, g) => n + openAlerts(g).length, 0);
    document.getElementById("summary").innerHTML = `${all.length} boards · `
      + (alerts ? `<button type="button" class="bad" title="show the first board with an open alert">${alerts} open alert${alerts > 1 ? "s" : ""}</button>` : "no open alerts");
    const rounds = new Set(all.map((g) => [g.event, g.round && "round " + g.round].filter(Boolean).join(", ")));
    document.getElementById("round").textContent = [...rounds].filter(Boolean).join(" | ");
    document.title = (alerts ? `(${alerts}) ⚠ ` : "") + "Arbiter console · xqrec";
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

  function accept(state) {
    const before = games.get(state.id);
    const known = new Set(before ? before.alerts.map((a) => a.seq) : []);
    games.set(state.id, state);
    received.set(state.id, Date.now());
    render(state);
    return state.alerts.some((a) => !known.has(a.seq) && !a.acknowledged);
  }

  document.getElementById("summary").addEventListener("click", (e) => {
    if (!e.target.closest("button.bad")) return;
    const first = tiles.querySelector(".tile.alerting");
    if (first) first.scrollIntoView({behavior: "smooth", block: "center"});
  });

  tiles.addEventListener("click", async (e) => {
    const button = e.target.closest("button.ack");
    if (!button) return;
    button.disabled = true;
    const done = await XQ.act(button.dataset.game, "ack", {seq: Number(button.dataset.seq)});
    if (done) { accept(done.state); XQ.toast("Alert acknowledged"); } else button.disabled = false;
  });

  async function start() {
    XQ.scriptToggle(() => games.forEach(render));
    XQ.soundToggle();
    const r = await fetch("/api/games");
    const data = await r.json();
    data.games.filter(Boolean).forEach((g) => accept(g));
    XQ.stream(data.last_event_id, (msg) => {
      if (!msg.state) return;
      if (accept(msg.state)) XQ.beep();
    }, XQ.setStatus);
    setInterval(tick, 250);
  }
  start();
})();

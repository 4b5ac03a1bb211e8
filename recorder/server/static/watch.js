// The spectators' page: the boards of a round, live, read-only. Its data (/api/public/games) holds
// what the broadcast PGN publishes (moves, clock times, results), never the arbiter's alerts or notes.
// It polls with If-None-Match (a 304 costs nothing) rather than holding an event stream per viewer.
"use strict";

(() => {
  const tiles = document.getElementById("tiles");
  const focus = document.getElementById("focus");
  const picker = document.getElementById("roundpick");
  const heading = document.querySelector("header.bar h1");
  let data = {games: [], rounds: [], shown: []};
  let receivedAt = Date.now();
  let etag = null;
  let chosen = new URLSearchParams(location.search);  // ?event=E&round=R, else the live round(s)

  function clockHtml(state, side) {
    const running = XQ.clockRuns(state, side);
    const name = state[side] || (side === "red" ? "Red" : "Black");
    return `<div class="clock ${side}${running ? " running" : ""}" data-side="${side}">`
      + `<span class="who" title="${XQ.esc(name)}">${XQBoard.notation(side === "red" ? "红" : "黑", XQ.prefs.script)} ${XQ.esc(name)}</span>`
      + `<span class="time">${XQ.clock(XQ.clockNow(state, side, receivedAt))}</span></div>`;
  }

  // the moves as rows of a round (red, black), the last `rounds` of them (all when null)
  function movesHtml(state, rounds) {
    const script = XQ.prefs.script;
    let moves = state.moves;
    if (rounds != null) {
      let first = Math.max(0, moves.length - 2 * rounds);
      if (moves[first] && moves[first].side === "black" && first > 0) first -= 1;  // a row starts with red
      moves = moves.slice(first);
    }
    const rows = [];
    for (const m of moves) {
      if (m.side === "red" || !rows.length || rows[rows.length - 1].black) rows.push({n: XQ.moveLabel(m.ply, state.start_fen)});
      rows[rows.length - 1][m.side] = m;
    }
    const time = (m) => rounds == null && m.clock_ms != null ? ` <small>${XQ.clock(m.clock_ms)}</small>` : "";
    const cell = (m) => m ? `<td class="mv ${m.side}">${XQ.esc(XQBoard.notation(m.chinese, script))}${time(m)}</td>` : "<td></td>";
    return `<table class="rounds">${rows.map((r) => `<tr><th>${XQ.esc(r.n.replace(/[.…]$/, ""))}</th>${cell(r.red)}${cell(r.black)}</tr>`).join("")}</table>`;
  }

  function statusText(state) {
    if ((state.result || "*") !== "*") {
      // the rules' words for how it ended (the server never sends the arbiter's own), else the Termination's
      const ended = state.ended || {};
      const how = {"time forfeit": "on time", "rules infraction": "a rules infraction", abandoned: "not played"}[ended.termination];
      const article = (ended.article || "").replace(/^\s*art\.?\s*/i, "");  // typed "art. 21.6" or "21.6"
      const said = ended.text || [how, article ? `art. ${article}` : ""].filter(Boolean).join(", ");
      const why = said ? ` · ${said}` : "";
      return `<span class="result">${XQ.esc(XQ.resultText(state.result))}</span>${XQ.esc(why)}`;
    }
    // a recording that stopped with no result marked: say so, with how far the game got, and whether
    // the recorder was cut off (to go on: a broadcaster could not tell a crashed recorder from a game over)
    if (state.state !== "recording") {
      if (!state.moves.length) return "not started";
      const why = {interrupted: "recording interrupted, to go on", stopped: "recording stopped, to go on"}[state.state]
        || "recording ended, no result yet";
      return XQ.esc(`${state.moves.length} plies · ${why}`);
    }
    return `${state.moves.length} plies · ${XQBoard.notation(state.side_to_move === "red" ? "红方走" : "黑方走", XQ.prefs.script)}`;
  }

  function gameHref(id) {
    const q = new URLSearchParams(roundQuery());
    q.set("game", String(id));
    return "?" + q.toString();
  }

  function tileHtml(state) {
    const last = state.moves.length ? state.moves[state.moves.length - 1].iccs : "";
    return `<header><span class="boardno">${state.board != null ? state.board : "#" + state.id}</span>
        <a class="players" data-nav href="${gameHref(state.id)}"><b class="red">${XQ.esc(state.red || "Red")}</b>
        <span class="vs">–</span> <b class="black">${XQ.esc(state.black || "Black")}</b></a></header>
      <div class="body">
        <a class="boardview" data-nav href="${gameHref(state.id)}">${XQBoard.svg(state.fen, {script: XQ.prefs.script, last})}</a>
        <div class="side">${clockHtml(state, "black")}${movesHtml(state, 4)}
          <div class="tomove">${statusText(state)}</div>${clockHtml(state, "red")}</div>
      </div>`;
  }

  function focusHtml(state) {
    const last = state.moves.length ? state.moves[state.moves.length - 1].iccs : "";
    const where = [state.event, state.round && "round " + state.round, state.board != null && "board " + state.board]
      .filter(Boolean).join(" · ");
    return `<p><a class="button" data-nav href="${location.pathname}${roundQuery()}">← All boards</a> ${XQ.esc(where)}</p>
      <div class="focusgame"><div class="boardcol">${clockHtml(state, "black")}
        <div class="bigboard">${XQBoard.svg(state.fen, {script: XQ.prefs.script, last})}</div>${clockHtml(state, "red")}
        <div class="tomove">${statusText(state)}</div></div>
      <div class="sheetcol">${movesHtml(state, null)}</div></div>`;
  }

  function roundQuery() {
    const q = new URLSearchParams();
    if (chosen.has("event")) q.set("event", chosen.get("event"));
    if (chosen.has("round")) q.set("round", chosen.get("round"));
    const text = q.toString();
    return text ? "?" + text : "";
  }

  const roundName = (r) => [r.event, r.round && "round " + r.round].filter(Boolean).join(", ");

  function draw() {
    const gameId = Number(chosen.get("game"));
    const one = gameId ? data.games.find((g) => g.id === gameId) : null;
    drawPicker();
    focus.hidden = !one;
    tiles.hidden = !!one;
    if (one) {
      focus.innerHTML = focusHtml(one);
      document.title = `${one.red || "Red"} – ${one.black || "Black"} · Live boards`;
      return;
    }
    const shown = data.shown.map(roundName).join(" | ");
    document.title = (shown ? shown + " · " : "") + "Live boards";
    // the heading names the round on the screen too (an organiser's tester: a hall screen said only
    // "Live boards", the round hidden in the window's title)
    heading.textContent = "象棋 Live boards" + (shown ? " · " + shown : "");
    if (problem) {  // a stale or mistyped link: say so, and offer the round being played
      tiles.innerHTML = `<p class="empty">${XQ.esc(problem.charAt(0).toUpperCase() + problem.slice(1))}. <a data-nav href="${location.pathname}">The current round</a></p>`;
      return;
    }
    const tile = (g) => `<article class="tile${(g.result || "*") !== "*" ? " ended" : ""}" id="game-${g.id}" data-plies="${g.moves.length}">${tileHtml(g)}</article>`;
    // two rounds played at once (two events, or a round renamed mid-game): each under its own heading
    const groups = data.shown.length > 1
      ? data.shown.map((r) => ({name: roundName(r), games: data.games.filter((g) => g.event === r.event && g.round === r.round)}))
      : [{name: "", games: data.games}];
    tiles.innerHTML = data.games.length
      ? groups.filter((group) => group.games.length).map((group) => (group.name ? `<h2 class="grouphead">${XQ.esc(group.name)}</h2>` : "")
        + `<div class="grid">${group.games.map(tile).join("")}</div>`).join("")
      : `<p class="empty">No game is being played yet.</p>`;
  }

  function drawPicker() {
    const key = (r) => JSON.stringify([r.event, r.round]);
    const current = data.shown.length === 1 ? key(data.shown[0]) : "";
    const options = [`<option value="" title="the round being played, else the latest">the current round</option>`].concat(data.rounds.map((r) =>
      `<option value="${XQ.esc(key(r))}"${chosen.has("round") && key(r) === current ? " selected" : ""}>`
      + `${XQ.esc([r.event, r.round && "round " + r.round].filter(Boolean).join(", "))}</option>`));
    if (picker.dataset.options !== options.join("")) {
      picker.innerHTML = options.join("");
      picker.dataset.options = options.join("");
    }
    const feed = document.getElementById("feed");
    feed.href = data.shown.length === 1 && chosen.has("round")
      ? `/broadcast/round/${encodeURIComponent(data.shown[0].event)}/${encodeURIComponent(data.shown[0].round)}.pgn`
      : "/broadcast/live.pgn";
  }

  picker.addEventListener("change", () => {
    chosen = new URLSearchParams();
    if (picker.value) {
      const [event, round] = JSON.parse(picker.value);
      chosen.set("event", event);
      chosen.set("round", round);
    }
    history.pushState(null, "", location.pathname + roundQuery());
    etag = null;
    poll();
  });
  window.addEventListener("popstate", () => { chosen = new URLSearchParams(location.search); etag = null; draw(); poll(); });

  let polling = false;
  let problem = null;  // what the server said of a link it has no board or round for
  // a request the server leaves unanswered is given up after this, and the page says it is not live
  // (a stalled server or network had left it "live", its clocks running, for good)
  const ANSWER_MS = 8000;
  async function poll() {
    if (polling) return;
    polling = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ANSWER_MS);
    try {
      const game = chosen.get("game");  // a board opened in full is asked for by itself, whatever its round
      const query = game ? "?game=" + encodeURIComponent(game) : roundQuery();
      const r = await fetch("/api/public/games" + query,
                            {headers: etag ? {"If-None-Match": etag} : {}, signal: abort.signal});
      if (r.status === 200) {
        data = await r.json();
        XQ.serverNow(data.now);
        etag = r.headers.get("ETag");
        receivedAt = Date.now();
        problem = null;
        draw();
      } else if (r.status === 404) {
        problem = ((await r.json().catch(() => ({}))).error || "Nothing to show here");
        data = {games: [], rounds: data.rounds, shown: []};
        etag = null;
        draw();
      } else if (r.status !== 304) {
        throw new Error(`${r.status} ${r.statusText}`);
      }
      XQ.setStatus(true);
    } catch (error) {
      XQ.setStatus(false);
    } finally {
      clearTimeout(timer);
      polling = false;
    }
  }

  function tick() {  // the running clock counts down between polls
    for (const el of document.querySelectorAll(".clock.running")) {
      const game = el.closest("[id^=game-]") ? Number(el.closest("[id^=game-]").id.slice(5)) : Number(chosen.get("game"));
      const state = data.games.find((g) => g.id === game);
      if (state) el.querySelector(".time").textContent = XQ.clock(XQ.clockNow(state, el.dataset.side, receivedAt));
    }
  }

  document.addEventListener("click", (e) => {  // a board opens in place; the browser's back button returns
    const link = e.target.closest("a[data-nav]");
    if (!link || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    chosen = new URLSearchParams(location.search);
    etag = null;
    draw();
    poll();
    window.scrollTo(0, 0);
  });

  XQ.scriptToggle(draw);
  poll();
  setInterval(poll, 1500);
  setInterval(tick, 250);
})();

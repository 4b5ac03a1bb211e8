// A game's page: the board with the moves to step through, the scoresheet, the alerts, the
// arbiter's actions and the exports; follows the game live.
"use strict";

(() => {
  const gameId = Number(location.pathname.split("/").filter(Boolean)[1]);
  let state = null, receivedAt = Date.now(), view = null;  // view: ply shown, null = follow the latest
  const $ = (id) => document.getElementById(id);

  function fenAt(ply) { return ply === 0 ? state.start_fen : state.moves[ply - 1].fen; }
  function shown() { return view == null ? state.moves.length : Math.min(view, state.moves.length); }

  function drawBoard() {
    const ply = shown();
    const last = ply ? state.moves[ply - 1] : null;
    $("board").innerHTML = XQBoard.svg(fenAt(ply), {script: XQ.prefs.script, last: last ? last.iccs : ""});
    $("at").textContent = ply ? `${XQ.moveLabel(ply, state.start_fen)} ${XQBoard.notation(last.chinese, XQ.prefs.script)} (ply ${ply})` : "start";
    document.querySelectorAll("#sheet td.mv").forEach((td) => td.classList.toggle("here", Number(td.dataset.ply) === ply));
    drawClocks();
  }

  function drawClocks() {
    for (const side of ["red", "black"]) {
      const el = $("clock-" + side);
      const running = XQ.clockRuns(state, side);
      el.className = `clock ${side}${running ? " running" : ""}`;
      el.innerHTML = `<span class="who" title="${XQ.esc(state[side] || "")}">${XQBoard.notation(side === "red" ? "红" : "黑", XQ.prefs.script)} ${XQ.esc(state[side] || side)}</span>`
        + `<span class="time">${XQ.clock(XQ.clockNow(state, side, receivedAt))}</span>`;
    }
  }

  function drawSheet() {
    const script = XQ.prefs.script;
    const rows = [];
    let row = null;
    const startBlack = state.start_fen.split(" ")[1] === "b";
    const first = Math.max(1, parseInt(state.start_fen.split(" ")[5], 10) || 1);  // a FEN's move number
    const cell = (m) => `<td class="mv ${m.side}${m.corrected_by ? " corrected" : ""}${m.rivals ? " unsure" : ""}" data-ply="${m.ply}" title="${XQ.esc(m.iccs)}${m.corrected_by ? (m.added ? " — added by " : " — corrected by ") + XQ.esc(m.corrected_by) : ""}${XQ.unsureNote(m, script)}">`
      + `${XQ.esc(XQBoard.notation(m.chinese, script))}${m.rivals ? '<sup class="unsure">?</sup>' : ""}${m.clock_ms != null ? `<small>${XQ.clock(m.clock_ms)}</small>` : ""}</td>`;
    state.moves.forEach((m, i) => {
      if (m.side === "red" || (i === 0 && startBlack)) {
        row = {n: rows.length + first, red: m.side === "red" ? cell(m) : "<td>……</td>", black: m.side === "black" ? cell(m) : ""};
        rows.push(row);
      } else if (row) row.black = cell(m);
      else rows.push(row = {n: first, red: "<td>……</td>", black: cell(m)});
    });
    $("sheet").tBodies[0].innerHTML = rows.map((r) => `<tr><th>${r.n}</th>${r.red}${r.black || "<td></td>"}</tr>`).join("")
      || `<tr><td colspan="3" class="none">no moves yet</td></tr>`;
    if (state.ended) {
      $("sheet").tBodies[0].insertAdjacentHTML("beforeend", `<tr class="end"><td colspan="3">${XQ.esc(XQ.resultText(state.ended.result))} ${XQ.esc(state.ended.text || "")}${state.ended.by ? " — " + XQ.esc(state.ended.by) : ""}</td></tr>`);
    }
  }

  function ackedHtml(a) {
    const said = {no_foul: "ruled no foul", foul: "ruled a foul after all"}[a.acknowledged.ruling] || "acknowledged";
    return `<div class="ackd">✓ ${said} by ${[XQ.esc(a.acknowledged.by), XQ.esc((a.acknowledged.at || "").replace("T", " ").replace("Z", " UTC"))].filter(Boolean).join(" ")}${a.acknowledged.note ? ": " + XQ.esc(a.acknowledged.note) : ""}</div>`;
  }

  // advice for the arbiter (an advisory game end: perpetual check...): listed with the alerts, as one
  function adviceHtml(a) {
    // an advice that suggests a result fills the result form in (its article first): the arbiter
    // still reads it and marks it (an arbiter tester found no way to mark the rulings it suggests)
    const fill = a.open && a.result
      ? ` <button type="button" class="fillresult" data-result="${XQ.esc(a.result)}" data-article="${XQ.esc((a.article || "").split(/[,;\s]+/)[0])}" data-text="${XQ.esc(XQ.kindName(a))}">Fill in ${XQ.esc(XQ.resultText(a.result))} below</button>` : "";
    // withdrawn: a foul it counted was ruled no foul since; otherwise closed by the result marked
    // (whatever it was: a resignation marked is not this advice followed)
    const done = (a.withdrawn ? `<div class="ackd">✗ ${XQ.esc(a.withdrawn)}</div>` : "")
      + (a.acknowledged ? ackedHtml(a)  // an acknowledgement made before it was withdrawn keeps its note
        : a.withdrawn ? ""
          : a.open ? `<button type="button" class="ack" data-seq="${a.seq}">Acknowledge</button>${fill}`
            : `<div class="ackd">closed: the game's result is marked (${XQ.esc(XQ.resultText(state.result))})</div>`);
    return `<div class="alertitem advice${a.open ? " open" : " done"}">
      <div class="thumb">${XQBoard.svg(a.fen || state.fen, {script: XQ.prefs.script})}</div>
      <div><div class="what">Ruling needed: ${XQ.esc(XQ.kindName(a))} ${a.article ? `<span class="article">art. ${XQ.esc(a.article)}</span>` : ""}</div>
      <div class="text">${XQ.esc(XQ.adviceLine(a))}</div>
      <div class="text">${XQ.esc(a.text)}</div>${(a.judged || []).length
        ? `<details class="judged"><summary>the moves judged</summary><ul>${a.judged.map((line) => `<li>${XQ.esc(line)}</li>`).join("")}</ul></details>`
        : ""}${done}</div></div>`;
  }

  function drawAlerts() {
    const list = state.alerts.concat(state.advice || []).sort((a, b) => b.seq - a.seq);
    $("alertlist").innerHTML = list.map((a) => {
      if ("reason" in a) return adviceHtml(a);
      const squares = a.squares.flatMap((s) => s.length === 4 ? [s.slice(0, 2), s.slice(2)] : [s]);
      const picture = a.frame ? `<img class="still" src="${XQ.esc(a.frame)}" alt="camera still">`
        : XQBoard.svg(a.fen_seen || a.fen, {script: XQ.prefs.script, marks: squares});
      // a foul alert acknowledged may still be ruled no foul (the video checked after the beep was cleared)
      const ack = (a.acknowledged ? ackedHtml(a) : `<button type="button" class="ack" data-seq="${a.seq}">Acknowledge</button>`)
        + (!a.foul ? "" : a.acknowledged && a.acknowledged.ruling === "no_foul"
          ? ` <button type="button" class="nofoul" data-ruling="foul" data-seq="${a.seq}" title="withdraw the no-foul ruling: the alert counts among the side's fouls again">Count as foul</button>`
          : ` <button type="button" class="nofoul" data-ruling="no_foul" data-seq="${a.seq}" title="no foul was committed (the camera misread, or the move was legal): not counted among the side's fouls">No foul</button>`);
      return `<div class="alertitem${a.acknowledged ? " done" : " open"}">
        <div class="thumb">${picture}</div>
        <div><div class="what">${XQ.esc(XQ.kindName(a))} ${a.article ? `<span class="article">art. ${XQ.esc(a.article)}</span>` : ""}</div>
        <div class="text">${[(a.ply ? `after ${XQ.moveLabel(a.ply, state.start_fen)} (ply ${a.ply})` : "before the first move")
          + (a.taken_back ? ", on moves since taken back" : ""), `raised at ${XQ.recTime(a.t)}`, XQ.esc(a.squares.join(" "))].filter(Boolean).join(" · ")}</div>
        <div class="text">${XQ.esc(a.text)}</div>${a.back ? `<div class="back">✓ ${XQ.esc(a.back)}</div>` : ""}${ack}</div></div>`;
    }).join("") || `<p class="none">No alerts.</p>`;
    $("actions").innerHTML = state.actions.map((a) => `<li><b>${XQ.esc(a.by)}</b> ${XQ.esc(a.text)} <small>${XQ.esc((a.at || "").replace("T", " ").replace("Z", ""))}</small></li>`).join("")
      || `<li class="none">none yet</li>`;
    const comments = state.comments || [];
    $("commentsbox").hidden = comments.length === 0;
    $("comments").innerHTML = comments.map((c) => `<li><small>${c.ply ? XQ.esc(XQ.moveLabel(c.ply, state.start_fen))
      : "before the first move"}</small> ${XQ.esc(c.text)}</li>`).join("");
  }

  function drawAll() {
    const title = `${state.board != null ? "Board " + state.board + ": " : ""}${state.red || "Red"} – ${state.black || "Black"}`;
    $("title").textContent = title;
    document.title = title + " · xqrec";
    $("state").textContent = state.state + (state.void ? `: ${state.void}` : "");  // a void game says why
    $("state").className = "state " + state.state;
    $("result").textContent = state.result && state.result !== "*" ? (XQ.resultText(state.result)) : "";
    $("correct").elements.ply.max = String(state.moves.length + 1);
    // the ply follows the game until the arbiter types one (a page left open corrected an old ply)
    if (!plyTyped) $("correct").elements.ply.value = String(Math.max(1, state.moves.length));
    showPly();
    const heads = $("sheet").tHead.rows[0].cells;  // 红方 / 黑方 in the script chosen
    heads[1].textContent = XQBoard.notation("红方", XQ.prefs.script);
    heads[2].textContent = XQBoard.notation("黑方", XQ.prefs.script);
    $("takeback").elements.ply.max = String(Math.max(0, state.moves.length - 1));
    showTakeBack();
    drawSheet();
    drawAlerts();
    drawBoard();
  }

  function accept(next) {
    const known = new Set(state ? state.alerts.concat(state.advice || []).map((a) => a.seq) : []);
    const fresh = state && (next.alerts.some((a) => !known.has(a.seq) && !a.acknowledged)
      || XQ.openAdvice(next).some((a) => !known.has(a.seq)));
    state = next;
    receivedAt = Date.now();
    drawAll();
    if (fresh) XQ.beep();
  }

  function step(how) {
    const n = state.moves.length;
    const at = shown();
    view = {first: 0, prev: Math.max(0, at - 1), next: Math.min(n, at + 1), last: null}[how];
    if (view === n) view = null;
    drawBoard();
  }

  document.querySelector(".stepper").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-step]");
    if (b) step(b.dataset.step);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea")) return;
    const how = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
    if (how) { e.preventDefault(); step(how); }
  });
  $("sheet").addEventListener("click", (e) => {
    const td = e.target.closest("td.mv");
    if (!td) return;
    view = Number(td.dataset.ply) === state.moves.length ? null : Number(td.dataset.ply);
    drawBoard();
  });
  $("alertlist").addEventListener("click", (e) => {
    const b = e.target.closest("button.fillresult");
    if (!b) return;
    const f = $("resultform").elements;
    f.result.value = b.dataset.result;
    const article = b.dataset.article;
    if (article && ![...f.article.options].some((o) => o.value === article)) {
      f.article.add(new Option(`art. ${article}`, article));  // the advice's own article (25.1, 26.9.1...)
    }
    f.article.value = article;
    if (!f.text.value.trim()) f.text.value = b.dataset.text;
    $("resultform").scrollIntoView({block: "center"});
    f.text.focus();
  });
  $("alertlist").addEventListener("click", async (e) => {
    const b = e.target.closest("button.ack, button.nofoul");
    if (!b) return;
    const ruling = b.dataset.ruling || "";
    // a ruling changes the foul count the players sign (two fouls lose, art. 4.1.8): asked once more
    if (ruling && !window.confirm(ruling === "no_foul" ? XQ.NO_FOUL_ASK : XQ.FOUL_ASK)) return;
    b.disabled = true;
    const done = await XQ.act(gameId, "ack", ruling ? {seq: Number(b.dataset.seq), ruling} : {seq: Number(b.dataset.seq)});
    if (done) {
      accept(done.state);
      XQ.toast(ruling === "no_foul" ? "Ruled no foul" : ruling ? "Counted as a foul again" : b.closest(".advice") ? "Advice acknowledged" : "Alert acknowledged");
    }
    else b.disabled = false;
  });
  // the ply's move as the page showed it when the arbiter began the correction: a live update or
  // another arbiter's correction while typing must not pass for what was seen (the server refuses it)
  let seen = null;
  let plyTyped = false;
  // what the ply chosen holds now, beside the box: the arbiter sees which move is being replaced
  function showPly() {
    const ply = Number($("correct").elements.ply.value);
    const shown = state.moves[ply - 1];
    const n = state.moves.length;
    $("plyshows").textContent = !ply ? "" : shown
      ? `now ${XQBoard.notation(shown.chinese, XQ.prefs.script)} (${shown.iccs})${ply === n ? ", the last ply" : `, ${n - ply} ${n - ply > 1 ? "plies" : "ply"} before the last`}`
      : ply === n + 1 ? "adds a move after the last" : `the game has ${n} plies`;
  }
  $("correct").elements.ply.addEventListener("input", () => { plyTyped = true; showPly(); });
  $("correct").addEventListener("input", () => {
    const ply = Number($("correct").elements.ply.value);
    if (!seen || seen.ply !== ply) {
      const shown = state.moves[ply - 1];
      seen = {ply, iccs: shown ? shown.iccs : ""};
    }
  });
  $("correct").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const ply = Number(f.ply.value);
    const adding = ply === state.moves.length + 1;  // a move the camera missed
    const shown = state.moves[ply - 1];
    const was = seen && seen.ply === ply ? seen.iccs : (shown ? shown.iccs : "");
    const done = await XQ.act(gameId, "correct", {ply, move: f.move.value.trim(), was});
    if (done) { plyTyped = false; accept(done.state); f.move.value = ""; seen = null; XQ.toast(`Ply ${ply} ${adding ? "added" : "corrected"}`); }
  });
  // the moves a take-back would remove, beside the box, and asked once more before it is sent
  function takenBack() {
    const value = $("takeback").elements.ply.value;
    const ply = value === "" ? NaN : Number(value);
    return Number.isInteger(ply) && ply >= 0 && ply < state.moves.length ? state.moves.slice(ply) : [];
  }
  function showTakeBack() {
    const taken = takenBack();
    const names = taken.map((m) => XQBoard.notation(m.chinese, XQ.prefs.script)).join(" ");
    $("takeshows").textContent = taken.length ? `removes ${taken.length} ${taken.length > 1 ? "plies" : "ply"}: ${names}` : "";
  }
  $("takeback").elements.ply.addEventListener("input", showTakeBack);
  $("takeback").addEventListener("submit", async (e) => {
    e.preventDefault();
    const ply = Number(e.target.elements.ply.value);
    const taken = takenBack();
    if (!taken.length) { XQ.toast(`Nothing after ply ${ply} to take back`, true); return; }
    const names = taken.map((m) => `${m.ply}. ${XQBoard.notation(m.chinese, XQ.prefs.script)}`).join(", ");
    if (!window.confirm(`Take back ${taken.length > 1 ? "plies" : "ply"} ${names}? They stay in the log, marked as taken back by you; the board must show the position after ply ${ply}.`)) return;
    const done = await XQ.act(gameId, "takeback", {ply, was: state.moves[state.moves.length - 1].iccs});
    if (done) { accept(done.state); e.target.elements.ply.value = ""; showTakeBack(); XQ.toast(`Taken back to ply ${ply}`); }
  });
  $("resultform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target.elements;
    const done = await XQ.act(gameId, "result", {result: f.result.value, article: f.article.value, text: f.text.value.trim(),
                                                 was: state.result || "*"});
    if (done) { accept(done.state); XQ.toast("Result marked"); }
  });

  async function start() {
    XQ.scriptToggle(() => drawAll());
    XQ.soundToggle();
    for (const [id, query] of [["pgn", "export.pgn"], ["pgn-cn", "export.pgn?notation=chinese"], ["pdf", "export.pdf"], ["txt", "export.txt"]]) {
      $(id).href = `/games/${gameId}/${query}`;
    }
    const r = await fetch(`/api/games/${gameId}`);
    if (!r.ok) { $("title").textContent = `No game ${gameId}`; return; }
    const first = await r.json();
    XQ.serverNow(first.now);
    accept(first);
    XQ.stream(state.last_event_id, (msg) => {
      if (msg.game === gameId && msg.state) accept(msg.state);
    }, XQ.setStatus);
    setInterval(drawClocks, 250);
  }
  start();
})();

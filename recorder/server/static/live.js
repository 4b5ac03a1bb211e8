// Shared by the console and the game page: the JSON API, the event stream, the arbiter's
// sign-in, the alert sound, clock and text formatting, the script (traditional/simplified) choice.
"use strict";

// A page opened with the password in its address (http://name:password@host/, a kiosk bookmark) cannot
// fetch the API: browsers refuse requests to addresses that carry credentials, and the page stayed
// blank (a tester). The browser has signed in by then: the same page without them works.
(() => {
  if (typeof location === "undefined" || typeof document === "undefined" || !document.URL) return;  // not a page
  const here = new URL(document.URL);  // location.href leaves them out, the base of relative fetches keeps them
  if (here.username || here.password) {
    here.username = here.password = "";
    location.replace(here.href);
  }
})();

const XQ = (() => {
  // Taiwan, Hong Kong and Macau write traditional characters (zh-TW, zh-HK, zh-MO, zh-Hant-*)
  function traditionalBrowser() {
    const languages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
    const first = languages.find((l) => /^zh\b/i.test(l));
    return !!first && /^zh-(hant|tw|hk|mo)\b/i.test(first);
  }
  const prefs = {
    // simplified, as the rules (CXA 2011) and the exports write, unless the browser asks for traditional
    get script() { return localStorage.getItem("xq.script") || (traditionalBrowser() ? "trad" : "simp"); },
    set script(v) { localStorage.setItem("xq.script", v); },
  };

  function esc(text) {
    return String(text == null ? "" : text).replace(/[&<>"']/g,
      (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  }

  // Time left as a clock shows it: whole seconds, truncated (904 973 ms is 15:04), as in the exports.
  function clock(ms) {
    if (ms == null) return "–:––";
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
  }

  // The running clock counts down from the last known time while the game is being recorded: from
  // when the store got that time (clocks.wall, the server's clock; ``skew`` is how far this browser's
  // clock is behind it), so every viewer shows the same time whenever the page was opened.
  let skew = 0;
  function serverNow(now) { if (typeof now === "number") skew = now * 1000 - Date.now(); }
  function clockRuns(state, side) {
    const c = state.clocks || {};
    return c.running === side && state.state === "recording" && (state.result || "*") === "*";
  }
  function clockNow(state, side, receivedAt) {
    const c = state.clocks || {};
    const ms = c[side + "_ms"];
    if (ms == null) return null;
    if (!clockRuns(state, side)) return ms;
    const since = c.wall != null ? Date.now() + skew - c.wall * 1000 : Date.now() - receivedAt;
    return ms - Math.max(0, since);
  }

  // --- the arbiter: a name (and the password when the server has one) ----------------------
  let auth = JSON.parse(sessionStorage.getItem("xq.auth") || "null");
  let needsPassword = null;
  let browserName = null;  // with a password, the browser signed in to read the console: it sends the name itself

  async function whoami() {
    if (needsPassword === null) {
      const r = await fetch("/api/whoami");
      const me = await r.json();
      needsPassword = me.password;
      browserName = me.name || null;
    }
    return needsPassword;
  }


  function askArbiter(message) {
    return new Promise((resolve) => {
      const dlg = document.getElementById("signin");
      dlg.querySelector(".why").textContent = message || "";
      dlg.querySelector("[name=pw]").parentElement.hidden = !needsPassword;
      dlg.querySelector("[name=name]").value = (auth && auth.name) || localStorage.getItem("xq.name") || "";
      dlg.onclose = () => {
        if (dlg.returnValue !== "ok") return resolve(null);
        auth = {name: dlg.querySelector("[name=name]").value.trim(), pw: dlg.querySelector("[name=pw]").value};
        localStorage.setItem("xq.name", auth.name);
        sessionStorage.setItem("xq.auth", JSON.stringify(auth));
        resolve(auth);
      };
      dlg.showModal();
    });
  }

  // POST an action; asks who acts (and the password) when the server says so.
  async function act(gameId, action, body) {
    try {
      return await send(gameId, action, body);
    } catch (error) {  // the server is down or the network gone: nothing was written, say so
      toast("Not sent: the console's server cannot be reached (" + error.message + "); try again when it is back", true);
      return null;
    }
  }

  async function send(gameId, action, body) {
    await whoami();
    let useBrowser = !(auth && auth.name) && !!browserName;
    if (!useBrowser && (!auth || !auth.name)) {
      if (!(await askArbiter("Your name is written in the game's record with each action."))) return null;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const headers = {"Content-Type": "application/json"};
      if (!useBrowser) headers.Authorization = "Basic " + btoa(unescape(encodeURIComponent(auth.name + ":" + (auth.pw || ""))));
      const r = await fetch(`/api/games/${gameId}/${action}`, {method: "POST", headers,
        body: JSON.stringify(Object.assign({by: useBrowser ? browserName : auth.name}, body))});
      const data = await r.json().catch(() => ({error: `the server answered ${r.status} ${r.statusText}`}));
      if (r.status === 401) {
        useBrowser = false;
        if (!(await askArbiter(data.error))) return null;
        continue;
      }
      if (!r.ok && data.confirm && !body.anyway) {  // the record speaks against it: the arbiter decides
        if (!window.confirm(`${data.error}\n\nMark it all the same?`)) return null;
        return send(gameId, action, Object.assign({}, body, {anyway: true}));  // with tries of its own
      }
      if (!r.ok) { toast(data.error || r.statusText, true); return null; }
      return data;
    }
    return null;
  }

  function toast(text, bad) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = text;
    el.className = "toast show" + (bad ? " bad" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.className = "toast"; }, 5000);
  }

  // --- sound: a two-tone beep on a new alert --------------------------------------------------
  // Browsers let a page play sound only after the user clicked or typed on it. The audio context is
  // made at the first such gesture (made earlier it stays suspended, and the browser warns), and the
  // sound button says when sound is still blocked, so an arbiter never trusts a silent "sound on".
  let audio = null;
  let showSound = () => {};
  function unlockSound() {
    if (!audio) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
      if (audio) audio.onstatechange = () => showSound();
    }
    if (audio && audio.state === "suspended") audio.resume().then(() => showSound(), () => showSound());
    showSound();
    return audio;
  }
  const soundRunning = () => !!audio && audio.state === "running";
  function beep() {
    if (!soundRunning() || localStorage.getItem("xq.mute") === "1") return false;
    const ctx = audio;
    const now = ctx.currentTime;
    [[880, 0], [660, 0.22], [880, 0.44]].forEach(([freq, at]) => {
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = freq;
      osc.type = "square";
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.2);
    });
    document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
    return true;
  }
  // A click that enables sound must not also switch it off: whether sound ran is taken when the
  // gesture begins (a tap's touchend and a key's keydown come before their click).
  let enabledByThisGesture = false;
  let ranAtGestureStart = null;
  function onGestureStart(e) { if (!(e.type === "keydown" && e.repeat)) ranAtGestureStart = soundRunning(); }
  function onGesture() {
    const before = ranAtGestureStart === null ? soundRunning() : ranAtGestureStart;
    unlockSound();
    enabledByThisGesture = !before;
  }
  ["pointerdown", "keydown"].forEach((kind) => document.addEventListener(kind, onGestureStart, {capture: true}));
  ["click", "keydown", "touchend"].forEach((kind) => document.addEventListener(kind, onGesture, {capture: true}));
  document.addEventListener("click", () => { ranAtGestureStart = null; });  // after the button's own handler

  // --- the event stream: the browser reconnects by itself and sends Last-Event-ID -----------
  // A server or network that stalls keeps the connection open and says nothing: the server sends a
  // ping every 15 s, and a stream silent for SILENT_MS is taken as lost and opened again from the
  // last event heard (a tester's stalled server had left the page "live" for good).
  const SILENT_MS = 40000;
  function stream(since, onMessage, onStatus) {
    let source = null;
    let heard = Date.now();
    let last = since;
    function open() {
      source = new EventSource("/api/events?since=" + encodeURIComponent(last));
      source.addEventListener("game", (e) => {
        heard = Date.now();
        last = e.lastEventId || last;
        document.body.dataset.lastEventId = e.lastEventId;
        onMessage(JSON.parse(e.data));
      });
      source.addEventListener("ping", () => { heard = Date.now(); onStatus(true); });
      source.addEventListener("reset", () => { source.close(); location.reload(); });  // the store was replaced
      source.onopen = () => { heard = Date.now(); onStatus(true); };
      source.onerror = () => onStatus(false);
    }
    open();
    setInterval(() => {
      if (Date.now() - heard < SILENT_MS) return;
      onStatus(false);
      source.close();
      heard = Date.now();  // the next try gets its own SILENT_MS
      open();
    }, 5000);
  }

  function setStatus(ok) {
    const el = document.getElementById("live");
    if (!el) return;
    el.textContent = ok ? "● live" : "● not live: reconnecting to the server…";
    el.className = ok ? "live ok" : "live down";
  }

  function scriptToggle(onChange) {
    const el = document.getElementById("script");
    const show = () => { el.textContent = prefs.script === "trad" ? "繁 → 简" : "简 → 繁"; };
    show();
    el.onclick = () => { prefs.script = prefs.script === "trad" ? "simp" : "trad"; show(); onChange(); };
  }

  function soundToggle() {
    const el = document.getElementById("sound");
    showSound = () => {
      const muted = localStorage.getItem("xq.mute") === "1";
      const blocked = !muted && !soundRunning();
      el.textContent = muted ? "♪ sound off" : blocked ? "♪ click to enable sound" : "♪ sound on";
      el.title = blocked ? "The browser plays sound only after a click on the page: click anywhere"
                         : "Beep on a new alert";
      el.classList.toggle("off", muted);
      el.classList.toggle("blocked", blocked);
    };
    showSound();
    el.onclick = () => {
      const muted = localStorage.getItem("xq.mute") === "1";
      if (muted || !enabledByThisGesture) localStorage.setItem("xq.mute", muted ? "0" : "1");
      enabledByThisGesture = false;
      unlockSound();
      showSound();
    };
  }

  // A ply as the scoresheet numbers it (art. 7.5: a move is red's and black's turn together): "12." for
  // red's ply of move 12, "12…" for black's; a game set up from a FEN goes on from its move number
  // (and with black to move begins at "N…"), as the scoresheet, PDF and PGN do.
  function moveLabel(ply, startFen) {
    const fields = String(startFen || "").split(" ");
    const blackFirst = fields[1] === "b";
    const first = Math.max(1, parseInt(fields[5], 10) || 1);
    const index = ply - 1 + (blackFirst ? 1 : 0);
    return `${Math.floor(index / 2) + first}${index % 2 ? "…" : "."}`;
  }

  // A move the camera could not tell from others (glare or a shadow over the points that differ): its
  // tooltip names them, escaped for an attribute; "" for a move read clearly.
  function unsureNote(move, script) {
    if (!move.rivals || !move.rivals.length) return "";
    const others = move.rivals.map((r) => `${XQBoard.notation(r.chinese, script)} (${r.iccs})`).join(", ");
    return esc(` — the camera could not rule out ${others}: worth a look at the board`);
  }

  const RESULT = {"1-0": "红胜 1-0", "0-1": "黑胜 0-1", "1/2-1/2": "和 ½-½"};
  // a result as the page shows it, in the script chosen
  function resultText(result) { return XQBoard.notation(RESULT[result] || result || "", prefs.script); }
  // what an alert or a piece of advice is called: its title comes with it from the server
  // (recorder.events.KIND_TITLES, the one home for these words: the sheets print them too)
  function kindName(item) {
    const code = String((item && (item.kind || item.reason)) || "alert").replace(/_/g, " ");
    return (item && item.title) || code.charAt(0).toUpperCase() + code.slice(1);
  }
  // the advice for the arbiter still waiting for a ruling (acknowledged or a result marked: done)
  function openAdvice(state) { return (state.advice || []).filter((a) => a.open); }
  const NO_FOUL_ASK = "Rule that no foul was committed? The alert will not count among the side's fouls on the "
    + "sheet (art. 4.1.8). The ruling is logged with your name; it can be withdrawn on the game page.";
  const FOUL_ASK = "Withdraw the no-foul ruling? The alert will count among the side's fouls again.";
  // a time of the recording as the recorder's texts give it (recorder.sources.recording_time): 0:01:44.0
  function recTime(t) {
    const tenths = Math.round(Math.max(Number(t) || 0, 0) * 10);
    const s = Math.floor(tenths / 10);
    return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.${tenths % 10}`;
  }
  function adviceLine(advice) {
    return [`after ply ${advice.ply}`, advice.result ? `suggests ${resultText(advice.result)}` : "",
            advice.t != null ? `at ${recTime(advice.t)} into the recording` : ""].filter(Boolean).join(" · ");
  }

  return {prefs, resultText, esc, clock, clockNow, clockRuns, serverNow, act, toast, beep, unlockSound, stream, setStatus, scriptToggle,
          soundToggle, moveLabel, unsureNote, RESULT, kindName, openAdvice, adviceLine, recTime, NO_FOUL_ASK, FOUL_ASK, whoami, askArbiter};
})();

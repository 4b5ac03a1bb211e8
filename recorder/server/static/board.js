// The xiangqi board as SVG, drawn from a FEN: 9x10 lines, river, palaces, round pieces with characters.
// No dependencies; used by the console tiles and the game page.
"use strict";

const XQBoard = (() => {
  const S = 10, M = 6;  // spacing between lines, margin around them (SVG units)
  const W = 8 * S + 2 * M, H = 9 * S + 2 * M;
  const FACES = {
    trad: {K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
           k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒"},
    simp: {K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
           k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒"},
  };
  const RIVER = {trad: ["楚 河", "漢 界"], simp: ["楚 河", "汉 界"]};
  // the simplified characters of moves, sides and results that traditional writes otherwise
  const TRAD = {"马": "馬", "车": "車", "帅": "帥", "将": "將", "进": "進", "后": "後", "炮": "炮", "红": "紅", "胜": "勝"};

  // FEN board part -> {"e0": "K", ...}
  function parseFen(fen) {
    const pieces = {};
    const rows = (fen || "").split(" ")[0].split("/");
    rows.forEach((row, i) => {
      const rank = 9 - i;
      let file = 0;
      for (const ch of row) {
        if (/[1-9]/.test(ch)) file += Number(ch);
        else { pieces["abcdefghi"[file] + rank] = ch; file += 1; }
      }
    });
    return pieces;
  }

  function xy(name, flip) {
    let f = "abcdefghi".indexOf(name[0]), r = Number(name.slice(1));
    if (flip) { f = 8 - f; r = 9 - r; }
    return [M + f * S, M + (9 - r) * S];
  }

  function line(x1, y1, x2, y2, cls) {
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="${cls || "ln"}"/>`;
  }

  function grid(script) {
    const out = [`<rect x="${M - 2.2}" y="${M - 2.2}" width="${8 * S + 4.4}" height="${9 * S + 4.4}" class="frame"/>`];
    for (let r = 0; r < 10; r++) out.push(line(M, M + r * S, M + 8 * S, M + r * S));
    for (let f = 0; f < 9; f++) {
      const x = M + f * S;
      if (f === 0 || f === 8) out.push(line(x, M, x, M + 9 * S));
      else { out.push(line(x, M, x, M + 4 * S)); out.push(line(x, M + 5 * S, x, M + 9 * S)); }
    }
    for (const top of [0, 7]) {  // palace diagonals
      out.push(line(M + 3 * S, M + top * S, M + 5 * S, M + (top + 2) * S));
      out.push(line(M + 5 * S, M + top * S, M + 3 * S, M + (top + 2) * S));
    }
    const [left, right] = RIVER[script] || RIVER.trad;
    out.push(`<text x="${M + 2 * S}" y="${M + 4.5 * S}" class="river">${left}</text>`);
    out.push(`<text x="${M + 6 * S}" y="${M + 4.5 * S}" class="river">${right}</text>`);
    return out.join("");
  }

  // opts: {script: "trad"|"simp", flip, last: "h2e2", marks: ["b0","b3"], labels}
  function svg(fen, opts) {
    opts = opts || {};
    const script = opts.script === "simp" ? "simp" : "trad";
    const faces = FACES[script];
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" class="xqboard" role="img"`
      + ` aria-label="board ${fen ? fen.split(" ")[0] : ""}">`, grid(script)];
    if (opts.last && opts.last.length === 4) {
      for (const sq of [opts.last.slice(0, 2), opts.last.slice(2)]) {
        const [x, y] = xy(sq, opts.flip);
        out.push(`<rect x="${x - 4.6}" y="${y - 4.6}" width="9.2" height="9.2" rx="1.5" class="lastmove"/>`);
      }
    }
    const pieces = parseFen(fen);
    for (const [sq, p] of Object.entries(pieces)) {
      const [x, y] = xy(sq, opts.flip);
      const side = p === p.toUpperCase() ? "red" : "black";
      out.push(`<g class="pc ${side}" data-sq="${sq}"><circle cx="${x}" cy="${y}" r="4.35" class="disc"/>`
        + `<circle cx="${x}" cy="${y}" r="3.6" class="ring"/>`
        + `<text x="${x}" y="${y}" class="face">${faces[p] || "?"}</text></g>`);
    }
    for (const sq of opts.marks || []) {
      if (!/^[a-i][0-9]$/.test(sq)) continue;
      const [x, y] = xy(sq, opts.flip);
      out.push(`<circle cx="${x}" cy="${y}" r="5.2" class="mark"/>`);
    }
    out.push("</svg>");
    return out.join("");
  }

  // Chinese notation in the chosen script (the store keeps the simplified form).
  function notation(text, script) {
    if (script !== "trad" || !text) return text || "";
    return Array.from(text).map((ch) => TRAD[ch] || ch).join("");
  }

  return {svg, parseFen, notation};
})();

// The hex page's feedback and keyboard play, used by game.js.
// The server says what happened (view.last: the last move, removal and captures; view.announcements:
// the sentences). This script only shows them: it slides the moving pawn, fades what left the
// table after it, keeps the announcements in a live region, and lets the board be played with the
// arrow keys and Enter. The end screen of every game is end_screen.js's.

const SLIDE_MS = 300;
const FADE_MS = 350;
const $ = (id) => document.getElementById(id);

function cellNode(board, name) {
  return board.querySelector(`g.tile[data-cell="${CSS.escape(name)}"]`);
}

function centre(g) {
  const match = /translate\(([-\d.]+),\s*([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Animate on the board still shown (old) what the next view's decision did; return how long to
// wait before drawing the next view (0: draw it at once).
export function animateHex(old, next, board) {
  const last = next.last;
  if (!old || !last || !last.action || next.ply !== old.ply + 1) return 0;
  if (!board.querySelector("g.tile") || reducedMotion()) return 0;
  const svg = board.querySelector("svg");
  let wait = 0;
  if (last.kind === "move") {
    const from = cellNode(board, last.from);
    const to = cellNode(board, last.to);
    const pawn = from && from.querySelector(".pawn");
    if (pawn && to) {
      const [fx, fy] = centre(from);
      const [tx, ty] = centre(to);
      svg.append(from); // drawn last: the pawn slides over the other tiles
      pawn.classList.add("sliding");
      pawn.getBoundingClientRect(); // start the transition from where the pawn stands
      pawn.style.transform = `translate(${tx - fx}px, ${ty - fy}px)`;
      wait = SLIDE_MS;
    }
  }
  const tiles = last.kind === "remove" ? last.gone.map(([, , name]) => cellNode(board, name)) : [];
  const pawns = last.captured.map((name) => {
    const g = cellNode(board, name);
    return g && g.querySelector(".pawn");
  });
  const fade = (nodes, delay) => {
    const present = nodes.filter(Boolean);
    if (!present.length) return delay;
    setTimeout(() => present.forEach((node) => node.classList.add("vanish")), delay);
    return delay + FADE_MS;
  };
  const afterTiles = fade(tiles, wait);
  wait = Math.max(afterTiles, fade(pawns, tiles.length ? wait + FADE_MS / 2 : wait));
  return wait;
}

// --- announcements: the sentences of the last few decisions, newest last ----------------------
const KEPT = 6;
let toldPly = null;

function announce(v) {
  const box = $("announcements");
  if (!box) return;
  if (toldPly === v.ply) return;
  const fresh = toldPly !== null && v.ply === toldPly + 1;
  toldPly = v.ply;
  if (!fresh) box.replaceChildren(); // a reload, an undo, a skipped view: start again
  const lines = v.announcements || [];
  if (!lines.length) return;
  const seat = v.move_seats && v.move_seats.length ? v.move_seats[v.move_seats.length - 1] : null;
  const p = document.createElement("p");
  p.className = "announcement";
  if (seat !== null && v.players[seat]) p.dataset.colour = v.players[seat].engine_name || v.players[seat].name;
  p.textContent = lines.join(" ");
  box.append(p);
  while (box.children.length > KEPT) box.firstElementChild.remove();
  box.scrollTop = box.scrollHeight;
}

// --- keyboard play: a focus ring moved with the arrow keys, Enter or Space to choose --------------
let focusCell = null;
let keyboardUsed = false;
const DIRECTIONS = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

function tilesOf(board) {
  return [...board.querySelectorAll("g.tile[data-cell]")].filter((g) => getComputedStyle(g).display !== "none");
}

function focusTile(board, g, moveFocus) {
  for (const tile of tilesOf(board)) tile.setAttribute("tabindex", tile === g ? "0" : "-1");
  if (!g) return;
  focusCell = g.dataset.cell;
  if (moveFocus) g.focus();
}

// The tile the arrow leads to: the nearest one in that direction. Up and Down zigzag around the
// column where the vertical moves began (rows are offset by half a tile), right of it first.
let columnX = null;

function nearest(board, from, [dx, dy]) {
  const [x, y] = centre(from);
  if (dy === 0 || columnX === null) columnX = x;
  let best = null;
  let bestCost = [Infinity, Infinity];
  for (const g of tilesOf(board)) {
    if (g === from) continue;
    const [gx, gy] = centre(g);
    const along = (gx - x) * dx + (gy - y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((gx - x) * dy - (gy - y) * dx);
    const cost = [Math.round(along + 2 * across), dy === 0 ? 0 : Math.abs(gx - columnX) - gx / 1000];
    if (cost[0] < bestCost[0] || (cost[0] === bestCost[0] && cost[1] < bestCost[1])) {
      bestCost = cost;
      best = g;
    }
  }
  if (dy === 0) columnX = null;
  return best;
}

function describeTile(g) {
  const pawn = g.querySelector(".pawn title");
  const states = [];
  if (g.classList.contains("movable")) states.push(t("your pawn, can move"));
  if (g.classList.contains("selected")) states.push(t("selected"));
  if (g.classList.contains("reachable")) states.push(t("a destination"));
  if (g.classList.contains("removable")) states.push(t("can be removed"));
  if (g.classList.contains("placeable")) states.push(t("a place"));
  const what = pawn ? pawn.textContent : t("{cell}, empty", { cell: g.dataset.cell });
  return [what, ...states].join(", ");
}

function wireKeyboard(board) {
  if (board.dataset.keyboard) return;
  board.dataset.keyboard = "1";
  board.addEventListener("keydown", (event) => {
    const g = event.target.closest && event.target.closest("g.tile");
    if (!g) return;
    keyboardUsed = true;
    if (event.key in DIRECTIONS) {
      event.preventDefault();
      const next = nearest(board, g, DIRECTIONS[event.key]);
      if (next) focusTile(board, next, true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      labelTiles(board);
    } else if (event.key === "Escape") {
      const selected = board.querySelector("g.tile.selected");
      if (selected) selected.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      labelTiles(board);
    }
  });
  board.addEventListener("pointerdown", () => {
    keyboardUsed = false;
  });
}

function labelTiles(board) {
  for (const g of tilesOf(board)) {
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", describeTile(g));
  }
}

function restoreFocus(board, v) {
  const tiles = tilesOf(board);
  if (!tiles.length) return;
  const wanted =
    (focusCell && cellNode(board, focusCell)) ||
    board.querySelector("g.tile.selected, g.tile.movable, g.tile.removable, g.tile.placeable") ||
    tiles[0];
  const hadFocus = keyboardUsed && (document.activeElement === document.body || board.contains(document.activeElement));
  focusTile(board, wanted && getComputedStyle(wanted).display !== "none" ? wanted : tiles[0], hadFocus && v.your_turn);
}

// After every drawing of a hex view (game.js has wired the clicks).
export function decorateHex(v) {
  const board = $("board");
  const svg = board.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "group");
    svg.setAttribute(
      "aria-label",
      t("The surface. Arrow keys move between tiles; Enter chooses a pawn, its destination or a tile to remove."),
    );
  }
  wireKeyboard(board);
  labelTiles(board);
  restoreFocus(board, v);
  announce(v);
  const input = $("action-input");
  const step = v.observation ? String(v.observation.step || "") : "";
  const example = { tile: "+d4", "second-tile": "+d4", ball: "@d4", "ball-any": "@d4", remove: "x d4" };
  if (input) input.placeholder = example[step] || t("c4-e5 or x d4");
}

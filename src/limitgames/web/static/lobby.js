// The lobby: pick a game and variant, fill the seats, start; list my games and open games.
// "My games" live in this browser's localStorage (key "limitgames.games"), with the seat tokens.

const catalog = JSON.parse(document.getElementById("catalog").textContent);
const gameSelect = document.getElementById("game-select");
const variantFields = document.getElementById("variant-fields");
const seatFields = document.getElementById("seat-fields");
const errorBox = document.getElementById("lobby-error");
// a game's status (the server's word) as the lobby shows it
const STATUS_WORDS = { playing: t("playing"), finished: t("finished"), abandoned: t("abandoned") };

export function loadMyGames() {
  try {
    return JSON.parse(localStorage.getItem("limitgames.games") || "{}");
  } catch {
    return {};
  }
}

export function saveMyGames(games) {
  localStorage.setItem("limitgames.games", JSON.stringify(games));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function currentGame() {
  return catalog.find((g) => g.id === gameSelect.value) || catalog[0];
}

function playerCount(game) {
  const input = variantFields.querySelector('[name="players"]');
  const value = input ? parseInt(input.value, 10) : NaN;
  return Number.isFinite(value) ? value : game.min_players;
}

function buildVariant() {
  const game = currentGame();
  variantFields.replaceChildren(el("legend", { text: t("Variant") }));
  document.getElementById("game-description").textContent =
    `${game.title}, ${game.designer} (${game.year}). ${game.description || ""}`;
  for (const p of game.parameters) {
    let input;
    if (p.choices) {
      input = el("select", { name: p.name });
      p.choices.forEach((choice, i) => {
        // null: the game's own value (for a data set: the shipped data), sent as ""
        const label = p.choice_labels ? p.choice_labels[i] : String(choice);
        const option = el("option", {
          value: choice === null ? "" : String(choice),
          text: choice === null ? t("default") : label,
        });
        if (choice === p.default) option.selected = true;
        input.append(option);
      });
    } else if (p.kind === "bool") {
      input = el("input", { type: "checkbox", name: p.name });
      input.checked = Boolean(p.default);
    } else if (p.kind === "int" || p.kind === "float") {
      input = el("input", { type: "number", name: p.name, value: String(p.default) });
      if (p.minimum !== null) input.min = String(p.minimum);
      if (p.maximum !== null) input.max = String(p.maximum);
      if (p.kind === "float") input.step = "any";
    } else {
      input = el("input", { type: "text", name: p.name, value: p.default ?? "" });
    }
    input.dataset.kind = p.kind;
    input.title = p.help;
    if (p.name === "players") input.addEventListener("change", buildSeats);
    variantFields.append(el("label", {}, `${p.label} `, input, el("span", { class: "small", text: ` ${p.help}` })));
  }
  buildSeats();
}

function buildSeats() {
  const game = currentGame();
  const count = Math.max(game.min_players, Math.min(game.max_players, playerCount(game)));
  const previous = [...seatFields.querySelectorAll("select")].map((s) => s.value);
  seatFields.replaceChildren(el("legend", { text: t("Seats") }));
  const best = Object.entries(game.levels).find(([level, note]) => level !== "random" && !note);
  const defaultComputer = `computer:${best ? best[0] : "random"}`;
  for (let seat = 0; seat < count; seat++) {
    const select = el("select", { name: `seat-${seat}`, "data-seat": String(seat) });
    select.append(el("option", { value: "me", text: t("me") }));
    select.append(el("option", { value: "friend", text: t("a friend (invite link)") }));
    select.append(el("option", { value: "open", text: t("open (anyone may take it)") }));
    for (const [level, note] of Object.entries(game.levels)) {
      select.append(
        el("option", { value: `computer:${level}`, text: t("computer: {level}", { level: t(level) }) + (note ? ` (${note})` : "") }),
      );
    }
    select.value = previous[seat] || (seat === 0 ? "me" : defaultComputer);
    seatFields.append(el("label", {}, t("Seat {number}", { number: seat + 1 }) + " ", select));
  }
}

export function readVariant() {
  const variant = {};
  for (const input of variantFields.querySelectorAll("[name]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") variant[input.name] = input.checked;
    else if (kind === "int") variant[input.name] = parseInt(input.value, 10);
    else if (kind === "float") variant[input.name] = parseFloat(input.value);
    else variant[input.name] = input.value;
  }
  return variant;
}

// The clock chosen in the lobby, as POST /api/games takes it (times in seconds; away blank:
// the server's default).
export function readClock() {
  const kind = document.getElementById("clock-kind").value;
  const number = (id) => parseFloat(document.getElementById(id).value);
  const clock = { kind };
  if (kind === "move") clock.seconds = number("clock-seconds");
  if (kind === "days") clock.days = parseInt(document.getElementById("clock-days").value, 10);
  if (kind === "fischer") {
    clock.minutes = number("clock-minutes");
    clock.increment = number("clock-increment") || 0;
  }
  if (kind !== "none" && document.getElementById("clock-forfeit").checked) clock.forfeit = true;
  const away = document.getElementById("clock-away").value.trim();
  if (away !== "" && kind !== "days") clock.away = parseFloat(away) * 60;
  return clock;
}

function showClockFields() {
  const kind = document.getElementById("clock-kind").value;
  for (const label of document.querySelectorAll("#clock-fields [data-clock]")) {
    label.hidden = !label.dataset.clock.split(" ").includes(kind);
  }
}

async function startGame(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const game = currentGame();
  const name = document.getElementById("player-name").value.trim();
  localStorage.setItem("limitgames.name", name);
  const seats = [...seatFields.querySelectorAll("select")].map((select) => {
    const [kind, level] = select.value.split(":");
    if (kind === "computer") return { kind, level };
    return kind === "me" && name ? { kind, name } : { kind };
  });
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: game.id, variant: readVariant(), seats, clock: readClock() }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = Array.isArray(answer.detail) ? answer.detail.map((d) => d.msg).join("; ") : answer.detail;
    errorBox.textContent = detail || t("the server refused ({status})", { status: response.status });
    return;
  }
  const mine = {};
  const invites = {};
  seats.forEach((s, seat) => {
    const token = answer.tokens[String(seat)];
    if (s.kind === "me") mine[seat] = token;
    if (s.kind === "friend") invites[seat] = answer.links[String(seat)];
  });
  const games = loadMyGames();
  games[answer.id] = { game: game.id, title: game.title, created: new Date().toISOString(), seats: mine, invites };
  saveMyGames(games);
  window.location.href = answer.url;
}

function gameLine(summary, extra) {
  const seats = summary.seats.map(seatWord).join(` ${t("vs")} `);
  const item = el("li");
  item.append(el("a", { href: `/games/${summary.id}`, text: `${summary.game} ${summary.id}` }));
  const actions = t("{count} actions", { count: summary.plies });
  item.append(` ${seats} · ${actions} · ${STATUS_WORDS[summary.status] || summary.status}`);
  if (summary.status === "finished") {
    item.append(" · ", el("a", { href: `/games/${summary.id}/replay`, text: t("replay") }));
  }
  if (extra) item.append(extra);
  return item;
}

function timeLeft(seconds) {
  if (seconds >= 86400) return t("{days} d {hours} h", { days: Math.floor(seconds / 86400), hours: Math.floor((seconds % 86400) / 3600) });
  if (seconds >= 3600) return t("{hours} h {minutes} min", { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
  return t("{minutes} min {seconds} s", { minutes: Math.floor(seconds / 60), seconds: Math.floor(seconds % 60) });
}

// "Your turn" (GET /api/your-turn): the games waiting for this browser's seats and the
// signed-in account's, the ones whose correspondence turn runs low marked as reminders; a
// system notification (if allowed on a game page) when a game joins the list while the lobby
// is hidden.
let waiting = null;
async function listYourTurn(mine) {
  const seats = Object.entries(mine).flatMap(([id, entry]) => Object.keys(entry.seats || {}).map((seat) => `${id}:${seat}`));
  const response = await fetch(`/api/your-turn?seats=${encodeURIComponent(seats.slice(-100).join(","))}`);
  if (!response.ok) return;
  const games = (await response.json()).games;
  const list = document.getElementById("your-turn");
  list.replaceChildren(
    ...(games.length
      ? games.map((g) => {
          const token = mine[g.id] && mine[g.id].seats ? mine[g.id].seats[String(g.seat)] : null;
          const href = token ? `/games/${g.id}#seat=${g.seat}&token=${token}` : `/games/${g.id}`;
          const item = el("li");
          item.dataset.gameId = g.id;
          item.append(el("a", { href, text: `${g.game} ${g.id}` }), ` · ${g.name}`);
          if (g.seconds_left !== null) item.append(` · ${t("{time} left", { time: timeLeft(g.seconds_left) })}`);
          if (g.remind) {
            item.classList.add("remind");
            item.append(el("strong", { text: ` · ${t("reminder: your time for this turn runs low")}` }));
          }
          return item;
        })
      : [el("li", { class: "small", text: t("none") })]),
  );
  const ids = new Set(games.map((g) => `${g.id}:${g.seat}`));
  const fresh = waiting === null ? [] : [...ids].filter((key) => !waiting.has(key));
  waiting = ids;
  if (fresh.length && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn: {title}", { title: document.title }));
  }
}

async function listGames() {
  const mine = loadMyGames();
  await listYourTurn(mine);
  const ids = Object.keys(mine);
  const myList = document.getElementById("my-games");
  if (ids.length) {
    const response = await fetch(`/api/games?ids=${encodeURIComponent(ids.slice(-100).join(","))}`);
    const summaries = response.ok ? await response.json() : [];
    if (summaries.length) myList.replaceChildren(...summaries.map((s) => gameLine(s)));
  }
  const response = await fetch("/api/games?status=playing");
  const open = response.ok ? await response.json() : [];
  const openList = document.getElementById("open-games");
  if (open.length) {
    openList.replaceChildren(...open.map((s) => gameLine(s, ` · ${mine[s.id] ? t("yours") : t("watch")}`)));
  }
}

for (const game of catalog) {
  gameSelect.append(el("option", { value: game.id, text: `${game.title} (${game.id})` }));
}
gameSelect.addEventListener("change", buildVariant);
document.getElementById("clock-kind").addEventListener("change", showClockFields);
document.getElementById("new-game-form").addEventListener("submit", startGame);
document.getElementById("player-name").value = localStorage.getItem("limitgames.name") || "";
buildVariant();
listGames();
setInterval(listGames, 10000);

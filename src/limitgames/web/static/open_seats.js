// The lobby's "Seats open" list (GET /api/open-games): take a seat and play it.
// Taking is first come, first served on the server; the new token is kept in this browser.

const list = document.getElementById("seats-open");

function remember(id, game, seat, token) {
  let games;
  try {
    games = JSON.parse(localStorage.getItem("limitgames.games") || "{}");
  } catch {
    games = {};
  }
  const entry = games[id] || { game, created: new Date().toISOString(), seats: {}, invites: {} };
  entry.seats = Object.assign(entry.seats || {}, { [seat]: token });
  games[id] = entry;
  localStorage.setItem("limitgames.games", JSON.stringify(games));
}

async function take(summary, seat, item) {
  const name = (document.getElementById("player-name").value || "").trim();
  const response = await fetch(`/api/games/${summary.id}/seats/${seat}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const note = document.createElement("span");
    note.className = "error";
    note.textContent = ` ${answer.detail || t("the server refused ({status})", { status: response.status })}`;
    item.append(note);
    return;
  }
  remember(summary.id, summary.game, seat, answer.token);
  window.location.href = `/games/${summary.id}`;
}

async function listOpenSeats() {
  const response = await fetch("/api/open-games");
  const games = response.ok ? await response.json() : [];
  if (!games.length) {
    const none = document.createElement("li");
    none.className = "small";
    none.textContent = t("none");
    list.replaceChildren(none);
    return;
  }
  list.replaceChildren(
    ...games.map((summary) => {
      const item = document.createElement("li");
      item.dataset.gameId = summary.id;
      const seats = summary.seats.map((s) => (s.kind === "open" ? t("(open)") : seatWord(s))).join(` ${t("vs")} `);
      item.append(`${summary.game} ${summary.id}: ${seats} `);
      for (const s of summary.seats.filter((x) => x.kind === "open")) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "take-seat";
        b.textContent = t("take seat {number}", { number: s.seat });
        b.addEventListener("click", () => take(summary, s.seat, item));
        item.append(b);
      }
      return item;
    }),
  );
}

listOpenSeats();
setInterval(listOpenSeats, 10000);

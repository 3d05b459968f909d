// The replay page: step back and forth through a finished game (spectator's view).

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const plies = Number(root.dataset.plies);
const $ = (id) => document.getElementById(id);
let ply = 0;
let moves = [];

async function show(target) {
  ply = Math.max(0, Math.min(plies, target));
  const response = await fetch(`/api/games/${gameId}/replay/${ply}`);
  const step = await response.json();
  if (!response.ok) {
    $("status").textContent = step.detail || t("cannot replay this game");
    return;
  }
  if (!moves.length) {
    moves = step.moves;
    $("moves").replaceChildren(
      ...moves.map((m, i) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "#";
        const seat = step.move_seats ? step.move_seats[i] : null;
        a.textContent = seat !== null && step.names[seat] ? `${step.names[seat]}: ${m}` : m;
        a.addEventListener("click", (event) => {
          event.preventDefault();
          show(i + 1);
        });
        li.append(a);
        return li;
      }),
    );
  }
  $("board").innerHTML = step.board;
  $("side").innerHTML = step.side || "";
  $("status").textContent = step.status;
  $("result").textContent = t("Result: {result}", { result: step.result });
  $("position").textContent = t("after {ply} of {plies} actions", { ply, plies });
  document.body.dataset.ply = String(ply);
  [...$("moves").children].forEach((li, i) => li.classList.toggle("current", i === ply - 1));
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(ply - 1));
$("next").addEventListener("click", () => show(ply + 1));
$("last").addEventListener("click", () => show(plies));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") show(ply - 1);
  if (event.key === "ArrowRight") show(ply + 1);
  if (event.key === "Home") show(0);
  if (event.key === "End") show(plies);
});
show(0);

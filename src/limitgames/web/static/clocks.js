// Clocks and zombie seats on the game page. The server keeps the time: each view carries
// every seat's seconds left at the moment it was sent (view.clock.remaining) and the seat
// whose clock runs (view.clock.running); this script counts that one down from the view's
// arrival, marks seats the computer plays for a person (view.players[].zombie) and offers
// "Take my seat back" (view.can_reclaim). Nothing here decides a time-out.

const $ = (id) => document.getElementById(id);
let view = null;
let received = 0;

function send(message) {
  document.dispatchEvent(new CustomEvent("limit:send", { detail: message }));
}

// 75 s -> "1:15"; under 10 s with tenths ("9.4"); an hour or more -> "1:02:03"
export function formatSeconds(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

function left(seat) {
  const clock = view.clock;
  const value = clock.remaining[seat];
  if (clock.running !== seat) return value;
  return value - (performance.now() - received) / 1000;
}

function zombieText(reason) {
  return reason === "time"
    ? t("played by the computer: time ran out")
    : t("played by the computer: left");
}

function describe(clock) {
  if (clock.kind === "move") return t("Clock: {seconds} s per move", { seconds: clock.seconds });
  if (clock.kind === "days") {
    return t("Clock: {days} days per move (correspondence)", { days: clock.days });
  }
  if (clock.kind === "fischer") {
    return t("Clock: {minutes} min + {increment} s a move (Fischer)", {
      minutes: Number(clock.minutes.toFixed(2)),
      increment: clock.increment,
    });
  }
  return "";
}

function draw() {
  const v = view;
  const items = $("players").querySelectorAll("li");
  v.players.forEach((p, seat) => {
    const li = items[seat];
    if (!li) return;
    if (v.clock.remaining && v.clock.remaining[seat] !== null) {
      const span = document.createElement("span");
      span.className = "clock";
      span.dataset.seat = String(seat);
      span.classList.toggle("running", v.clock.running === seat);
      li.append(" ", span);
    }
    if (p.zombie) {
      const mark = document.createElement("span");
      mark.className = "zombie";
      mark.textContent = ` (${zombieText(p.zombie)})`;
      li.append(mark);
    }
  });
  $("clock-info").textContent = describe(v.clock);
  $("clock-info").hidden = !v.clock.remaining;
  const mine = v.seats.filter((s) => v.players[s].zombie);
  const note = $("zombie-note");
  note.hidden = !mine.length || v.finished;
  if (mine.length) {
    note.textContent = t("The computer plays your seat ({why}).", {
      why: mine.map((s) => (v.players[s].zombie === "time" ? t("time ran out") : t("you left"))).join(", "),
    });
  }
  $("reclaim-button").hidden = !v.can_reclaim.length;
  drawReminders(v);
  tick();
}

// Correspondence games: a seat's person may give an address for the e-mail reminders
// ({"type": "email"}); the server answers {"type": "reminders", "address"} to this page only.
function drawReminders(v) {
  let form = document.getElementById("reminder-form");
  const wanted = v.clock.kind === "days" && v.seats.length > 0 && !v.finished;
  if (!wanted) {
    if (form) form.hidden = true;
    return;
  }
  if (!form) {
    form = document.createElement("form");
    form.id = "reminder-form";
    form.className = "reminder-form";
    const label = document.createElement("label");
    label.textContent = t("E-mail me when my time for a move runs low") + " ";
    const input = document.createElement("input");
    input.type = "email";
    input.id = "reminder-address";
    input.maxLength = 254;
    input.autocomplete = "email";
    label.append(input);
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = t("Save");
    const saved = document.createElement("span");
    saved.id = "reminder-saved";
    saved.className = "small";
    form.append(label, " ", button, " ", saved);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send({ type: "email", address: input.value });
    });
    $("clock-info").after(form);
  }
  form.hidden = false;
}

document.addEventListener("limit:message", (event) => {
  const message = event.detail;
  if (message && message.type === "reminders") {
    $("reminder-saved").textContent = t("Reminders go to {address}.", { address: message.address });
  }
});

function tick() {
  if (!view || !view.clock.remaining) return;
  for (const span of document.querySelectorAll("#players .clock")) {
    const seconds = left(Number(span.dataset.seat));
    span.textContent = formatSeconds(seconds);
    span.classList.toggle("low", span.classList.contains("running") && seconds < 10);
  }
}

document.addEventListener("limit:view", (event) => {
  view = event.detail;
  received = performance.now();
  draw();
});
$("reclaim-button").addEventListener("click", () => send({ type: "reclaim" }));
setInterval(tick, 100);

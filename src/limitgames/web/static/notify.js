// Turn notifications beyond the tab title (table_actions.js): a short beep (WebAudio, off by
// default, the choice remembered in localStorage "limitgames.sound") and a system
// notification (the Notification API, once the player allowed it with the button) when it
// becomes this page's turn while the tab is hidden. The first view of a page never notifies.

const $ = (id) => document.getElementById(id);
const soundBox = $("sound-toggle");
const notifyButton = $("notify-button");
const notifyState = $("notify-state");
const SOUND_KEY = "limitgames.sound";
let audio = null;
let wasMyTurn = null;

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function beep() {
  const context = audioContext();
  if (!context) return;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = "sine";
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.15, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.25);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.25);
}

soundBox.checked = localStorage.getItem(SOUND_KEY) === "1";
soundBox.addEventListener("change", () => {
  localStorage.setItem(SOUND_KEY, soundBox.checked ? "1" : "0");
  if (soundBox.checked) audioContext(); // a click: the browser lets the page play sound from now on
});

function showPermission() {
  if (!("Notification" in window)) {
    notifyButton.hidden = true;
    notifyState.textContent = t("This browser has no notifications.");
    return;
  }
  const permission = Notification.permission;
  notifyButton.hidden = permission !== "default";
  notifyState.textContent =
    permission === "granted"
      ? t("Notifications on (when this tab is hidden).")
      : permission === "denied"
        ? t("Notifications are blocked in this browser's settings.")
        : "";
}

notifyButton.addEventListener("click", async () => {
  try {
    await Notification.requestPermission();
  } finally {
    showPermission();
  }
});
showPermission();

function notify(v) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (document.visibilityState !== "hidden") return;
  const note = new Notification(t("Your turn"), {
    body: t("{title}: game {id}", { title: v.title, id: v.game_id }),
    tag: `limitgames-${v.game_id}`,
  });
  note.onclick = () => {
    window.focus();
    note.close();
  };
}

document.addEventListener("limit:view", (event) => {
  const v = event.detail;
  const mine = Boolean(v.your_turn);
  if (mine && wasMyTurn === false) {
    if (soundBox.checked) beep();
    notify(v);
  }
  wasMyTurn = mine;
});

// The pages of the table companion: a seat's phone (/seat#TOKEN) and the
// watchers' page (/watch). Everything shown comes worded from the device;
// docs/web.md describes the messages.
(function () {
  "use strict";
  const W = JSON.parse(document.getElementById("words").textContent);
  const page = document.body.dataset.page;
  const lang = document.documentElement.lang;
  const $ = (id) => document.getElementById(id);
  // The seat's token travels in the link's fragment: never in a request line.
  // A fragment that is no text (a link cut short: "#%E0") is no seat's either.
  const token = page === "seat" ? fragment() : "";
  let ws = null;
  let retry = 500;
  let stopped = token === null;
  let full = false; // the table had no room for this page: it tries again, every 5 s
  let table = null;
  let seat = null;
  let deadline = null;
  let mine = null; // what the table holds as this seat's choice this turn (its phones alone are told)
  let pending = null; // a choice sent and not yet answered: sent again on reconnect
  let notice = null; // a word for a few seconds on the status line (a press too late)
  let noticeUntil = 0;

  for (const el of document.querySelectorAll("[data-word]")) {
    el.textContent = W[el.dataset.word] || "";
  }
  document.title = W.title;
  say(stopped ? W.refused : W.connecting);

  function fragment() {
    try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return null; }
  }

  function say(text) { $("status").textContent = text || ""; }

  function connect() {
    if (stopped || (ws && ws.readyState <= 1)) return;
    ws = new WebSocket("ws://" + location.host + "/ws/" + page + "?lang=" + lang);
    ws.onopen = () => {
      retry = 500;
      if (page === "seat") ws.send(JSON.stringify({ type: "hello", token: token }));
    };
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = () => {
      ws = null;
      if (stopped) return;
      say(full ? W.full : W.offline);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function receive(m) {
    if (m.type === "welcome") {
      full = false;
      say("");
      if (pending) send(pending);
    } else if (m.type === "table" || m.type === "seat") {
      if (m.type === "seat") { seat = m.seat; mine = m.mine; }
      table = m.table;
      show();
    } else if (m.type === "ack") {
      // Counted: the table's view with this choice as the seat's own comes with it.
      if (pending && pending.id === m.id) pending = null;
    } else if (m.type === "error" && m.id) {
      // Not counted (the turn was revealed, the seat is no longer due): show what holds.
      if (pending && pending.id === m.id) {
        pending = null;
        if (m.reason === "old turn") { notice = W.too_late; noticeUntil = Date.now() + 6000; }
        show();
      }
    } else if (m.type === "full") {
      // No room now (the places are taken, perhaps by someone's flood): said,
      // and tried again every 5 s, as a phone that wakes must get back in.
      full = true;
      retry = 5000;
      say(W.full);
      setButtons(false);
    } else if (m.type === "refused") {
      stopped = true;
      say(W.refused);
      setButtons(false);
    } else if (m.type === "closing") {
      say(W.offline);
    }
  }

  function send(message) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(message));
  }

  function choose(choice) {
    if (!table || !table.turn) return;
    const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
    pending = { type: "choose", choice: choice, turn: table.turn, id: id };
    send(pending);
    show();
  }

  function setButtons(on) {
    if (page !== "seat") return;
    $("torch").disabled = !on;
    $("camp").disabled = !on;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function show() {
    if (!table) { say(W.no_game); return; }
    if (table.game === null) return;
    $("heading").textContent = table.heading;
    $("event").textContent = table.bust || table.event;
    if ($("prompt")) $("prompt").textContent = table.prompt;
    if ($("on-path")) $("on-path").textContent = table.on_path;
    deadline = table.countdown === null ? null : Date.now() + table.countdown * 1000;
    const path = $("path");
    path.replaceChildren(...table.path.map((p) => {
      const li = el("li", "card " + p.kind + (p.faded ? " faded" : "") + (p.highlight ? " highlight" : ""));
      li.append(el("b", "", p.title), el("span", "", p.subtitle));
      if (p.left) li.append(el("span", "left", p.left));
      if (p.note) li.append(el("span", "note", p.note));
      return li;
    }));
    const rows = $("seats");
    const head = el("tr");
    head.append(el("th"), el("th", "", W.hand), el("th", "", W.tent));
    if (table.artifacts_column) head.append(el("th", "", W.artifacts));
    head.append(el("th"));
    rows.replaceChildren(head, ...table.seats.map((s, i) => {
      const tr = el("tr", "seat " + s.status_key + (i === seat ? " me" : ""));
      const name = el("td", "name");
      const dot = el("span", "dot");
      dot.style.background = s.colour;
      name.append(dot, document.createTextNode(s.name), el("small", "", s.status));
      tr.append(name, el("td", "num", s.hand), el("td", "num", s.banked));
      if (table.artifacts_column) tr.append(el("td", "num", s.artifacts));
      tr.append(el("td", s.chosen ? "chosen" : "", s.choice));
      return tr;
    }));
    $("log").replaceChildren(...table.log.slice().reverse().map((line) => el("li", "", line)));
    const final = $("final");
    final.hidden = !table.final;
    if (table.final) {
      const t = el("table", "seats");
      for (const r of table.final.rows) {
        const tr = el("tr", r.winner ? "winner" : "");
        const name = el("td", "name");
        const dot = el("span", "dot");
        dot.style.background = r.colour;
        name.append(dot, document.createTextNode(r.name));
        tr.append(el("td", "", r.rank), name, el("td", "num", r.score));
        t.append(tr);
      }
      final.replaceChildren(el("h2", "", W.final), el("p", "", table.final.winners),
        el("p", "note", table.final.tie_break), t);
    }
    if ($("odds-box")) {
      $("odds-box").hidden = !table.odds;
      $("odds").textContent = table.odds;
    }
    if (page === "seat" && seat !== null) showSeat(table.seats[seat]);
    tick();
  }

  function showSeat(s) {
    const head = $("seat-name");
    head.textContent = s.name;
    $("seat-dot").style.background = s.colour;
    document.body.style.setProperty("--seat", s.colour);
    $("my-hand").textContent = s.hand;
    $("my-tent").textContent = s.banked;
    $("my-artifacts").textContent = s.artifacts || "–";
    $("my-artifacts-box").hidden = !table.artifacts_column;
    const due = s.due && !!table.turn;
    setButtons(due);
    // The choice on its way, until the table answers; then the one the table holds
    // (the same on every phone of the seat, and whatever the seat's buttons chose).
    const choice = pending && pending.turn === table.turn ? pending.choice : mine;
    $("torch").classList.toggle("picked", due && choice === "torch");
    $("camp").classList.toggle("picked", due && choice === "camp");
    let line;
    if (!due) line = table.phase === "game_over" ? "" : W.not_due;
    else if (s.chosen) line = choice ? W.you_chose.replace("{choice}", W[choice]) + "\n" + W.in : W.in;
    else line = W.choose;
    $("chosen").textContent = line;
    $("chosen").classList.toggle("in", due && s.chosen);
  }

  function tick() {
    if (notice && Date.now() < noticeUntil) { say(notice); return; }
    notice = null;
    if (deadline !== null && table && table.turn) {
      const n = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      say(W.reveal_in.replace("{n}", n));
    } else if (ws && ws.readyState === 1 && !stopped && table) {
      say("");  // a page with no game keeps saying so
    }
  }

  if (page === "seat") {
    $("torch").addEventListener("click", () => choose("torch"));
    $("camp").addEventListener("click", () => choose("camp"));
  }
  // A phone that slept comes back at once, not at its next retry.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { retry = 500; connect(); }
  });
  setInterval(tick, 250);
  connect();
})();

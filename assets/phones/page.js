// A player's private page. Everything shown comes from the laptop's snapshot for this player and
// is written with textContent (a name is never markup). No library, no network beyond the laptop.
"use strict";

(function () {
  const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
  const $ = (id) => document.getElementById(id);
  let version = 0;
  let socket = null;
  let socketFailures = 0;
  let polling = false;
  let question = null;          // the open question (as the laptop sent it)
  let answerId = "";            // one per attempt: a retried send is applied once
  let chosen = {};              // field -> card id (one card) or [card ids] (several)
  let photoLines = {};          // card id read in a photo -> the line of the list it is on (its copies)
  let sending = false;
  let linkGone = false;         // the link was replaced (new codes) or is unknown: stop asking
  const LINK_REPLACED = 4410;   // the server's close code for a replaced link (phones/server.py)

  function newAnswerId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function setStatus(text, bad) {
    $("status").textContent = text;
    $("status").classList.toggle("bad", !!bad);
  }

  // A dead link is said once and never retried: each retry would look like a guess to the laptop.
  function stopForGood(text) {
    linkGone = true;
    setStatus(text, true);
    if (socket) { socket.onclose = null; socket.close(); socket = null; }
  }

  // The words when the response says this link is dead (410: replaced by new codes; 404: unknown),
  // else "". A dead link stops every retry.
  async function deadLink(response) {
    let words = "";
    if (response.status === 410) {
      words = "These codes were replaced: scan your new code.";
      try { words = (await response.json()).message || words; } catch (e) { /* the words above */ }
    } else if (response.status === 404) {
      words = "This link no longer works: scan your code again.";
    }
    if (words) stopForGood(words);
    return words;
  }

  // --- the snapshot -------------------------------------------------------------------------
  function show(envelope) {
    if (envelope && typeof envelope.devices === "number") {
      $("devices").hidden = envelope.devices < 2;
      $("devices").textContent = "This page is open on " + envelope.devices + " devices. If one of them is not " +
                                 "yours, ask for new codes on the laptop.";
    }
    if (!envelope || typeof envelope.version !== "number" || envelope.version <= version) return;
    version = envelope.version;
    const s = envelope.snapshot;
    if (!s) return;
    document.title = s.player + " \u2014 Gumshoe";
    $("title").textContent = s.player;
    $("game").textContent = s.game;
    $("turn").textContent = s.turn;
    $("prompt").textContent = s.prompt;
    showJournal(s.journal);
    $("note").hidden = !s.note;
    $("note").textContent = s.note || "";
    $("j-hand").hidden = !s.hand;
    $("j-hand").textContent = s.hand || "";
    showLog(s.log);
    showQuestion(s.question);
  }

  function showJournal(j) {
    $("j-title").textContent = j.title;
    $("j-worked").textContent = "Worked out for you (assist: " + j.assist + ")";
    const groups = $("j-groups");
    groups.replaceChildren();
    for (const g of j.groups) {
      groups.appendChild(el("h3", g.kind));
      const known = g.entries.filter((e) => e.known);
      const unknown = g.entries.filter((e) => !e.known);
      const table = el("table");
      for (const e of known) table.appendChild(row(e, "known"));
      if (!known.length) {
        const tr = el("tr", null, "unknown");
        tr.appendChild(el("td", "None seen yet"));
        table.appendChild(tr);
      }
      groups.appendChild(table);
      if (unknown.length) {
        const more = el("details");
        more.appendChild(el("summary", "Not seen yet (" + unknown.length + ")"));
        const rest = el("table");
        for (const e of unknown) rest.appendChild(row(e, "unknown"));
        more.appendChild(rest);
        groups.appendChild(more);
      }
    }
    const list = $("j-deductions");
    list.replaceChildren();
    if (!j.deductions.length) list.appendChild(el("li", "Notes only: no deductions at this assist level."));
    for (const d of j.deductions) {
      const li = el("li", d.text);
      li.appendChild(el("span", "because: " + d.reason, "reason"));
      list.appendChild(li);
    }
  }

  function row(entry, cls) {
    const tr = el("tr", null, cls);
    tr.appendChild(el("td", entry.name));
    tr.appendChild(el("td", entry.where, "where"));
    return tr;
  }

  function showLog(lines) {
    const list = $("log-lines");
    list.replaceChildren();
    for (const line of lines.slice().reverse()) list.appendChild(el("li", line));
  }

  // --- the question ---------------------------------------------------------------------------
  function showQuestion(q) {
    if (!q) {
      question = null;
      $("question").hidden = true;
      return;
    }
    if (question && question.id === q.id) return;      // keep what the player chose so far
    question = q;
    answerId = newAnswerId();
    chosen = {};
    $("noted").hidden = true;
    $("q-heading").textContent = q.heading;
    $("q-text").textContent = q.text;
    $("q-message").textContent = "";
    $("q-confirm").hidden = true;
    const reads = $("q-reads");
    reads.replaceChildren();
    for (const r of q.reads) {
      chosen[r.field] = r.many ? [] : null;
      reads.appendChild(readBlock(r));
    }
    $("q-send").textContent = q.reads.some((r) => r.many) || q.reads.length > 1 ? "Note them in my journal"
                                                                                 : "Note it in my journal";
    $("question").hidden = false;
    $("question").scrollIntoView({ block: "start" });
  }

  function readBlock(r) {
    const box = el("div", null, "read");
    box.dataset.field = r.field;
    if (question.reads.length > 1) {
      box.appendChild(el("h3", r.many ? "Which cards are " + r.what + "?" : "Which card is " + r.what + "?"));
    }
    const photo = el("label", r.many ? "Photograph a card" : "Photograph the card", "photo");
    const input = document.createElement("input");
    input.type = "file";
    input.accept = "image/*";
    input.setAttribute("capture", "environment");
    input.name = "photo-" + r.field;
    input.addEventListener("change", () => { if (input.files.length) sendPhoto(r, input.files[0], input); });
    photo.appendChild(input);
    box.appendChild(photo);
    if (r.many) box.appendChild(el("p", countWords(r), "count"));
    if (r.choices.length > 8) {
      const filter = document.createElement("input");
      filter.type = "search";
      filter.className = "filter";
      filter.placeholder = "Find a card by name";
      filter.addEventListener("input", () => {
        const text = filter.value.trim().toLowerCase();
        for (const li of box.querySelectorAll(".choices li")) {
          li.hidden = text !== "" && !li.dataset.words.includes(text);
        }
      });
      box.appendChild(filter);
    }
    box.appendChild(el("p", "or choose it from the list:", "count"));
    const list = el("ul", null, "choices");
    for (const [card, words] of r.choices) {
      const li = el("li");
      li.dataset.card = card;
      li.dataset.words = words.toLowerCase();
      const label = el("label");
      const box2 = document.createElement("input");
      box2.type = r.many ? "checkbox" : "radio";
      box2.name = "card-" + r.field;
      box2.value = card;
      box2.addEventListener("change", () => pick(r, card, box2.checked));
      label.appendChild(box2);
      label.appendChild(el("span", words));
      li.appendChild(label);
      list.appendChild(li);
    }
    box.appendChild(list);
    return box;
  }

  function countWords(r) {
    const n = (chosen[r.field] || []).length;
    const want = r.most === r.least ? String(r.least) : r.most === null ? r.least + " or more" : r.least + " to " + r.most;
    return n + " of " + want + " chosen";
  }

  function pick(r, card, on) {
    if (r.many) {
      const list = chosen[r.field];
      const at = list.indexOf(card);
      if (on && at < 0) list.push(card);
      if (!on && at >= 0) list.splice(at, 1);
    } else {
      chosen[r.field] = on ? card : null;
    }
    redrawChoices(r);
    $("q-message").textContent = "";
    $("q-message").className = "";
  }

  function redrawChoices(r) {
    const box = document.querySelector('.read[data-field="' + CSS.escape(r.field) + '"]');
    if (!box) return;
    const value = chosen[r.field];
    const line = (card) => photoLines[card] || card;
    for (const li of box.querySelectorAll(".choices li")) {
      const on = r.many ? value.map(line).includes(li.dataset.card) : line(value) === li.dataset.card;
      li.classList.toggle("chosen", on);
      li.querySelector("input").checked = on;
    }
    const count = box.querySelector(".count");
    if (r.many && count) count.textContent = countWords(r);
  }

  function complete() {
    if (!question) return false;
    return question.reads.every((r) => {
      const v = chosen[r.field];
      if (!r.many) return !!v;
      return v.length >= r.least && (r.most === null || v.length <= r.most);
    });
  }

  function say(text, good) {
    $("q-message").textContent = text;
    $("q-message").className = good ? "good" : "";
  }

  async function sendPhoto(r, file, input) {
    if (!question) return;
    const asked = question.id;
    say("Reading the photo\u2026", true);
    try {
      const response = await fetch(base + "photo?question=" + encodeURIComponent(asked) + "&field=" +
                                   encodeURIComponent(r.field),
                                   { method: "POST", body: file,
                                     headers: { "Content-Type": file.type || "application/octet-stream" } });
      const gone = await deadLink(response);
      if (gone) { say(gone); return; }
      const result = await response.json();
      input.value = "";
      if (!question || question.id !== asked) return;
      if (!result.ok) { say(result.message); return; }
      const names = [];
      for (const [card, words, line] of result.cards) {
        names.push(words);
        if (line) photoLines[card] = line;        // the very copy read is sent; its line is ticked
        if (r.many) { if (!chosen[r.field].includes(card)) chosen[r.field].push(card); }
        else chosen[r.field] = card;
      }
      redrawChoices(r);
      say("Read from the photo: " + names.join(", "), true);
      if (!r.many && complete()) send(false);
    } catch (e) {
      say("The photo did not reach the laptop. Check the Wi-Fi and try again.");
    }
  }

  async function send(confirm, later) {
    if (!question || sending) return;
    if (!later && !complete()) { say("Choose the card first (or photograph it)."); return; }
    sending = true;
    $("q-send").disabled = true;
    const asked = question.id;
    // "Not now": the look is put off (the laptop's table comes back); nothing is noted.
    const body = JSON.stringify(later ? { question: asked, answer: answerId, later: true }
                                      : { question: asked, answer: answerId, cards: chosen, confirm: !!confirm });
    try {
      const response = await fetch(base + "answer", { method: "POST", body: body,
                                                      headers: { "Content-Type": "application/json" } });
      const gone = await deadLink(response);
      if (gone) { say(gone); return; }
      const result = await response.json();
      if (later && result.ok && (!question || question.id === asked)) {
        $("noted").textContent = result.message;      // put off: said even if the page already closed it
        $("noted").hidden = false;
        $("question").hidden = true;
        question = null;
      } else if (!question || question.id !== asked) {
        // The laptop has moved on (the next question may already be here): this reply is old news.
      } else if (result.ok) {
        $("noted").textContent = result.message || "Noted in your journal.";
        $("noted").hidden = false;
        $("question").hidden = true;
        question = null;
      } else if (result.confirm) {
        say(result.message + " Is it really that card?");
        $("q-confirm").hidden = false;
      } else {
        say(result.message);
        answerId = newAnswerId();    // a new attempt; the refused one stays refused
      }
    } catch (e) {
      say("The answer did not reach the laptop. Check the Wi-Fi and press the button again.");
    } finally {
      sending = false;
      $("q-send").disabled = false;
    }
  }

  $("q-send").addEventListener("click", () => send(false));
  $("q-later").addEventListener("click", () => send(false, true));
  $("q-yes").addEventListener("click", () => { $("q-confirm").hidden = true; answerId = newAnswerId(); send(true); });
  $("q-no").addEventListener("click", () => {
    $("q-confirm").hidden = true;
    answerId = newAnswerId();
    for (const r of question ? question.reads : []) { chosen[r.field] = r.many ? [] : null; redrawChoices(r); }
    say("");
  });

  // --- staying up to date: a WebSocket, or a long poll where that fails -------------------------
  function connect() {
    if (linkGone || (socket && socket.readyState <= 1)) return;
    let opened = false;
    try {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws");
    } catch (e) {
      socketFailures++;
      poll();
      return;
    }
    socket.binaryType = "arraybuffer";
    socket.onopen = () => { opened = true; socketFailures = 0; setStatus("Connected to the laptop"); };
    socket.onmessage = (m) => {
      const text = typeof m.data === "string" ? m.data : new TextDecoder().decode(m.data);
      try { show(JSON.parse(text)); } catch (e) { /* a damaged message: the next one replaces it */ }
    };
    socket.onclose = (event) => {
      socket = null;
      if (event.code === LINK_REPLACED) { stopForGood("These codes were replaced: scan your new code."); return; }
      if (!opened) socketFailures++;
      setStatus("Connection lost \u2014 trying again\u2026", true);
      if (socketFailures >= 3) poll();
      setTimeout(connect, Math.min(1000 * (socketFailures + 1), 5000));
    };
  }

  async function poll() {
    if (polling) return;
    polling = true;
    while (!linkGone && (!socket || socket.readyState !== 1)) {
      try {
        const response = await fetch(base + "state?after=" + version, { cache: "no-store" });
        if (await deadLink(response)) break;
        show(await response.json());
        setStatus("Connected to the laptop");
      } catch (e) {
        setStatus("Connection lost \u2014 trying again\u2026", true);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    polling = false;
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") connect();
  });
  fetch(base + "state", { cache: "no-store" })
    .then(async (r) => { if (!(await deadLink(r))) show(await r.json()); })
    .catch(() => {});
  connect();
})();

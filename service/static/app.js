// Hakem's page: ask, teach, FAQ. Plain JS, no library, no network beyond this app.
// Every piece of rule text is put in the page with textContent (never innerHTML), and
// offsets from the API are Python string offsets (code points), so text is sliced with
// Array.from, not with UTF-16 string indices.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "hakem.game";
  const SOURCE = { request: "seçiminiz", name: "sorudaki addan", content: "içerikten tahmin" };
  const state = { games: [], names: {}, lesson: null, step: 0, lastAsk: null, lastGame: null,
    teachGame: "", players: "", places: {}, faqTimer: 0 };

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  async function api(path, options) {
    const res = await fetch(path, options);
    let body = null;
    try { body = await res.json(); } catch (_) { body = null; }
    if (!res.ok) {
      const err = new Error((body && body.message) || `HTTP ${res.status}`);
      err.status = res.status;
      throw err;
    }
    return body;
  }

  function notice(err) {
    const box = $("notice");
    if (!err) { box.hidden = true; return; }
    box.textContent = err.status === 503
      ? `Kural dizini hazır değil: ${err.message}`
      : `Bir sorun oldu: ${err.message}`;
    box.hidden = false;
  }

  const gameName = (id) => state.names[id] || id;
  const currentGame = () => sessionStorage.getItem(KEY) || "";
  // Teach or list the FAQ of: the game chosen there, else the picked one, else the last answer's.
  const activeGame = () => state.teachGame || currentGame() || state.lastGame || "";
  const viewUrl = (p) => `/games/${encodeURIComponent(p.game)}/view?start=${p.start}&end=${p.end}#alinti`;

  function setGame(id) {
    if (id) sessionStorage.setItem(KEY, id); else sessionStorage.removeItem(KEY);
    $("game").value = id;
  }

  // A passage's text with [a, b) (offsets inside it) marked.
  function marked(text, a, b, tag) {
    const cps = Array.from(text);
    const node = el(tag || "p", { class: "passage" });
    if (a === null || a >= b) { node.textContent = text; return node; }
    node.append(cps.slice(0, a).join(""), el("mark", { text: cps.slice(a, b).join("") }),
      cps.slice(b).join(""));
    return node;
  }

  // A cited range as a reader names it: "Kurulum bölümü, 3. paragraf" (from /api/places).
  async function places(game) {
    if (!state.places[game]) {
      state.places[game] = api(`/api/places/${encodeURIComponent(game)}`)
        .then((d) => d.paragraphs).catch(() => []);
    }
    return state.places[game];
  }
  function placeOf(paragraphs, p) {
    const hit = paragraphs.find((x) => x.start <= p.start && p.start < x.end)
      || paragraphs.find((x) => p.start < x.end);
    return hit ? hit.where : (p.section || gameName(p.game));
  }

  // ------------------------------------------------------------- ask
  async function ask(question, game, fresh) {
    const button = $("ask-button");
    button.disabled = true;
    $("status").textContent = "Kurallara bakılıyor…";
    try {
      const data = await api("/ask", {
        method: "POST", headers: { "Content-Type": "application/json" },
        // The previous question goes along: "peki 2 kişiysek?" is asked as a follow-up to it.
        body: JSON.stringify({ question, game: game || null, k: 5,
          context: fresh ? null : state.lastAsk }),
      });
      notice(null);
      state.lastAsk = data.question;  // a follow-up may come after any question
      // Answered for several games: which one is played is still unknown.
      if (data.game && !data.abstained && !(data.other_games || []).length) state.lastGame = data.game;
      $("status").textContent = "";
      renderAnswer(data, question);
    } catch (err) {
      $("status").textContent = "";
      notice(err);
    } finally {
      button.disabled = false;
    }
  }

  function renderAnswer(data, typed) {
    $("result").hidden = false;
    const found = $("game-found");
    // A game guessed from the content of an unanswered question would only mislead.
    const showGame = data.game && (!data.abstained || data.game_source !== "content");
    const several = data.other_games && data.other_games.length > 0;
    found.replaceChildren(several
      ? el("span", {}, "Oyun: ", el("b", { text: [data.game, ...data.other_games].map(gameName).join(" / ") }),
        " (birden çok oyuna uyuyor)")
      : showGame
      ? el("span", {}, "Oyun: ", el("b", { text: gameName(data.game) }),
        ` (${SOURCE[data.game_source] || data.game_source})`)
      : "");
    const note = $("game-note");
    note.hidden = !data.requested_game;
    note.textContent = data.requested_game
      ? `Soruda ${gameName(data.game)} geçiyor; ona göre cevapladım (seçili oyun: ${gameName(data.requested_game)}).`
      : "";
    const understood = $("understood");
    understood.hidden = !typed || data.question === typed;
    understood.textContent = understood.hidden ? "" : `Anladığım soru: “${data.question}”`;
    $("regame").value = several ? "" : data.game || "";

    const box = $("answer-box");
    box.className = data.abstained ? "answer abstained" : data.hedged ? "answer hedged" : "answer";
    const calc = data.calculation;
    box.replaceChildren(data.abstained
      ? el("div", {}, el("span", { class: "verdict-title", text: "Kurallarda bulunamadı" }),
        el("p", { text: data.answer }))
      : el("p", { id: "answer-text", text: data.answer }),
      ...(calc && calc.working ? [el("p", { id: "working", class: "working", text: `Hesap: ${calc.working}` })] : []));

    const facts = data.abstained ? [] : data.facts;
    $("facts-box").hidden = facts.length === 0;
    $("facts-count").textContent = `Sayısal kurallar (${facts.length})`;
    $("facts").replaceChildren(...facts.map((f, i) => el("li", {},
      el("span", { class: "fact-no", text: `#${i + 1}` }), f.sentence, " ",
      el("a", { href: viewUrl(f), class: "cite-link", "data-cite": "", text: `(${f.section || gameName(f.game)})` }))));

    $("sources-title").textContent = data.abstained ? "En yakın pasajlar (cevap sayılmaz)" : "Kaynak";
    $("sources-title").hidden = data.passages.length === 0;
    const span = data.answer_span;
    const cards = data.passages.map((p, i) => card(p, i, span));
    $("cards").replaceChildren(...cards.slice(0, 1));
    $("more-count").textContent = `Diğer kaynaklar (${cards.length - 1})`;
    $("more-cards").replaceChildren(...cards.slice(1));
    $("more-box").hidden = cards.length < 2;
    $("more-box").open = false;
    labelPlaces(data);
    suggest(data);
  }

  // Citations named by section and paragraph once the game's places are known.
  async function labelPlaces(data) {
    const games = [...new Set([...data.passages, ...data.facts].map((p) => p.game))];
    for (const game of games) {
      const paragraphs = await places(game);
      for (const node of document.querySelectorAll(`#result [data-cite][data-game="${game}"]`)) {
        node.textContent = placeOf(paragraphs, { start: +node.dataset.start, section: node.dataset.section, game });
      }
      data.facts.filter((f) => f.game === game).forEach((f, i) => {
        const link = $("facts").children[i] && $("facts").children[i].querySelector("a");
        if (link) link.textContent = `(${placeOf(paragraphs, f)})`;
      });
    }
  }

  function card(p, i, span) {
    let a = null, b = null;
    if (span && span.game === p.game && span.start < p.end && span.end > p.start) {
      a = Math.max(span.start, p.start) - p.start;
      b = Math.min(span.end, p.end) - p.start;
    }
    const ctx = el("div", { class: "context", hidden: "" });
    const open = el("button", { type: "button", class: "open-context", text: "Bağlamında aç" });
    open.addEventListener("click", () => toggleContext(p, ctx, open));
    return el("article", { class: "card", "data-start": p.start, "data-end": p.end },
      el("p", { class: "card-head" }, el("b", { text: `${i + 1}. ${gameName(p.game)}` }), " · ",
        el("span", { "data-cite": "", "data-game": p.game, "data-start": p.start, "data-section": p.section || "", text: p.section || "—" })),
      marked(p.text, a, b),
      el("div", { class: "card-actions" }, open,
        el("a", { href: viewUrl(p), text: "Bölümün tamamı" })),
      ctx);
  }

  async function toggleContext(p, box, button) {
    if (!box.hidden) { box.hidden = true; button.textContent = "Bağlamında aç"; return; }
    try {
      const c = await api(`/games/${encodeURIComponent(p.game)}/text?start=${p.start}&end=${p.end}`);
      box.replaceChildren(el("span", { class: "ctx-title", text: `${c.name} · ${c.section || "metin"} · çevresiyle` }),
        c.before, el("mark", { class: "ctx-mark", text: c.passage }), c.after);
      box.hidden = false;
      button.textContent = "Bağlamı kapat";
      box.querySelector("mark").scrollIntoView({ block: "nearest" });
    } catch (err) { notice(err); }
  }

  async function suggest(data) {
    const boxWrap = $("suggest-box");
    boxWrap.hidden = true;
    const top = data.passages[0];
    if (!top || data.abstained) return;
    const params = new URLSearchParams({ game: top.game, section: top.section, near: top.start });
    for (const p of data.passages) if (p.game === top.game) params.append("exclude", p.start);
    try {
      const s = await api(`/suggest?${params}`);
      if (!s.suggestions.length) return;
      $("suggestions").replaceChildren(...s.suggestions.map((x) => el("button", {
        type: "button", class: "suggestion", text: x.label,
        onclick: () => { $("question").value = x.label; ask(x.label, currentGame() || x.game, true); },
      })));
      boxWrap.hidden = false;
    } catch (_) { /* suggestions are optional */ }
  }

  // ------------------------------------------------------------- teach
  async function teach(game) {
    $("teach-pick").hidden = !!game;
    $("teach").hidden = !game;
    if (!game) return;
    try {
      const q = state.players ? `?players=${encodeURIComponent(state.players)}` : "";
      const lesson = await api(`/api/teach/${encodeURIComponent(game)}${q}`);
      if (!state.lesson || state.lesson.game !== lesson.game) state.step = 0;
      state.lesson = lesson;
      notice(null);
      playerChoices(lesson);
      renderStep();
    } catch (err) { notice(err); }
  }

  function playerChoices(lesson) {
    // A text that gives no player count offers none to choose (the setup step says so).
    const [lo, hi] = lesson.player_range || [1, 0];
    const select = $("players");
    const options = [el("option", { value: "", text: "hepsi" })];
    for (let n = lo; n <= hi; n++) options.push(el("option", { value: String(n), text: `${n} oyuncu` }));
    select.replaceChildren(...options);
    select.disabled = !lesson.player_range;
    select.value = lesson.players ? String(lesson.players) : "";
  }

  function renderStep() {
    const lesson = state.lesson;
    if (!lesson || !lesson.parts.length) return;
    const s = lesson.parts[state.step];
    $("step-count").textContent = `${lesson.name} · Adım ${state.step + 1} / ${lesson.parts.length}`;
    $("step-title").textContent = s.title;
    $("player-row").hidden = s.key !== "setup";
    $("step-note").hidden = !s.note;
    $("step-note").textContent = s.note;
    const list = el(s.key === "components" ? "ul" : "ol", { class: "lesson-items" },
      ...s.items.map((it) => el("li", { class: "lesson-item" },
        it.label ? el("b", { class: "item-label", text: `${it.label}: ` }) : null,
        el("span", { class: "item-text", text: it.text }), " ",
        el("a", { class: "cite", href: viewUrl(it), text: it.where }))));
    $("step-body").replaceChildren(list);
    $("prev").disabled = state.step === 0;
    $("next").disabled = state.step === lesson.parts.length - 1;
  }

  function move(delta) {
    if (!state.lesson) return;
    const n = Math.min(Math.max(state.step + delta, 0), state.lesson.parts.length - 1);
    if (n !== state.step) { state.step = n; renderStep(); $("step-title").scrollIntoView({ block: "nearest" }); }
  }

  // ------------------------------------------------------------- FAQ
  async function faq(game) {
    $("faq-pick").hidden = !!game;
    $("faq").hidden = !game;
    if (!game) return;
    const q = $("faq-q").value.trim();
    try {
      const data = await api(`/api/faq/${encodeURIComponent(game)}?q=${encodeURIComponent(q)}`);
      notice(null);
      $("faq-heading").textContent = `${data.name}: sık sorulan sorular`;
      $("faq-count").textContent = data.entries.length
        ? (q ? `“${q}” için ${data.entries.length} cevap` : `${data.entries.length} cevap`)
        : (q ? `“${q}” için cevap yok` : "Bu oyunun metninde SSS bölümü yok.");
      $("faq-list").replaceChildren(...data.entries.map((e) => el("li", {},
        el("details", {},
          el("summary", {}, e.verdict ? el("span", { class: /^(Hayır|Yanlış|Normalde hayır)/.test(e.verdict) ? "verdict no" : "verdict", text: e.verdict }) : null, e.title),
          el("div", { class: "faq-body" }, marked(e.text, null, null),
            el("a", { href: viewUrl(e), text: "Bağlamında aç" }))))));
    } catch (err) { notice(err); }
  }

  // ------------------------------------------------------------- views and games
  function show(view) {
    for (const name of ["ask", "teach", "faq"]) {
      $(`view-${name}`).hidden = name !== view;
      $(`tab-${name}`).setAttribute("aria-selected", String(name === view));
    }
    const game = activeGame();
    if (view === "teach") { history.replaceState(null, "", game ? `/teach/${encodeURIComponent(game)}` : "/#ogren"); teach(game); }
    else if (view === "faq") { history.replaceState(null, "", "/#sss"); faq(game); }
    else history.replaceState(null, "", "/");
  }
  const activeView = () => ["ask", "teach", "faq"].find((v) => !$(`view-${v}`).hidden);

  function gameChips(container, onPick) {
    container.replaceChildren(...state.games.map((g) => el("button", {
      type: "button", "data-game": g.id, text: g.name, onclick: () => onPick(g.id),
    })));
  }

  async function loadGames() {
    try {
      state.games = await api("/games");
    } catch (err) { notice(err); return; }
    for (const g of state.games) state.names[g.id] = g.name;
    const options = () => state.games.map((g) => el("option", { value: g.id, text: g.name }));
    $("game").append(...options());
    $("regame").replaceChildren(el("option", { value: "", text: "—" }), ...options());
    // Choosing a game to learn does not change the game questions are asked about.
    gameChips($("teach-games"), (id) => { state.teachGame = id; show("teach"); });
    gameChips($("faq-games"), (id) => { state.teachGame = id; show("faq"); });
    if (!state.names[currentGame()]) setGame("");
    $("game").value = currentGame();
  }

  async function start() {
    $("ask-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const q = $("question").value.trim();
      if (q) ask(q, currentGame(), false);
    });
    $("game").addEventListener("change", () => {
      setGame($("game").value);
      state.teachGame = "";
      const v = activeView();
      if (v !== "ask") show(v);
    });
    $("regame").addEventListener("change", () => {
      const g = $("regame").value;
      if (!g || !state.lastAsk) return;
      setGame(g);  // the player chose it: keep it for the next questions too
      ask(state.lastAsk, g, true);
    });
    for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => show(b.dataset.view));
    $("prev").addEventListener("click", () => move(-1));
    $("players").addEventListener("change", () => { state.players = $("players").value; teach(activeGame()); });
    $("clear-game").addEventListener("click", () => { setGame(""); state.teachGame = ""; });
    $("next").addEventListener("click", () => move(1));
    document.addEventListener("keydown", (e) => {
      if (activeView() !== "teach" || /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return;
      if (e.key === "ArrowRight") move(1);
      if (e.key === "ArrowLeft") move(-1);
    });
    $("faq-q").addEventListener("input", () => {
      clearTimeout(state.faqTimer);
      state.faqTimer = setTimeout(() => faq(activeGame()), 200);
    });
    // Listeners first, so nothing typed while the games load is lost.
    const m = location.pathname.match(/^\/teach\/([^/]+)$/);
    await loadGames();
    if (m && state.names[decodeURIComponent(m[1])]) state.teachGame = decodeURIComponent(m[1]);
    show(m ? "teach" : location.hash === "#sss" ? "faq" : location.hash === "#ogren" ? "teach" : "ask");
    document.body.dataset.ready = "1";  // for tests and for people's scripts
  }

  document.addEventListener("DOMContentLoaded", start);
})();

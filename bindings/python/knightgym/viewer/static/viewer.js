// The knightgym viewer's page: replays of recorded games and games against agents, drawn
// by the server (knightgym.svg); this file only asks and shows (routes.py lists the API).
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  mode: "replay",   // or "play"
  view: null,       // the last view the server sent
  replay: null,     // {index, ply, total}
  playId: null,
  prefix: [],       // squares clicked towards a move
  games: [],        // /api/games
};

function showMessage(text, isError) {
  const message = $("message");
  message.textContent = text || "";
  message.classList.toggle("error", Boolean(isError));
}

// JSON from the server; a refusal (status 400) shows its message and changes nothing.
async function ask(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  let response, data;
  try {
    response = await fetch(path, options);
    data = await response.json();
  } catch (error) {  // the server stopped, or answered something that is not JSON
    showMessage(`No answer from the viewer's server: ${error.message}`, true);
    return null;
  }
  if (!response.ok) {
    showMessage(data.error || `${response.status} ${response.statusText}`, true);
    return null;
  }
  showMessage("");
  return data;
}

function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function returnsText(returns, sides) {
  return returns.map((r, i) => `${sides[i] || "seat " + i} ${r > 0 ? "+" : ""}${+r.toFixed(3)}`)
      .join(", ");
}

// ---- Showing a view (replay and play alike) ----

function show(view) {
  page.view = view;
  page.prefix = [];
  $("game").classList.remove("hidden");
  $("board").innerHTML = view.svg;
  const sides = view.sides;
  $("status").textContent = view.over ? "The game is over." :
      `${sides[view.to_move] || "seat " + view.to_move} to move` +
      (page.mode === "play" && view.legal.length ? " (you)" : "");
  $("result").textContent = view.over ? `Returns: ${returnsText(view.returns, sides)}` : "";
  showMoves(view);
  showLegal(view.legal);
  showReport(view.report);
  highlight();
}

function showMoves(view) {
  const list = $("moves");
  list.replaceChildren();
  view.moves.forEach((move, i) => {
    const item = el("li", move, {"data-ply": i + 1});
    if (page.mode === "replay") {
      if (i < (view.opening_plies || 0)) item.classList.add("opening");
      if (i + 1 === view.ply) item.classList.add("current");
      item.addEventListener("click", () => loadReplay(page.replay.index, i + 1));
    }
    list.append(item);
  });
  const current = list.querySelector(".current") || list.lastElementChild;
  if (current) current.scrollIntoView({block: "nearest"});
}

function showLegal(moves) {
  const box = $("legal");
  box.replaceChildren();
  const shown = moves.filter((m) => startsWith(m.squares, page.prefix));
  for (const move of shown) {
    const button = el("button", move.text, {"data-move": move.text, type: "button"});
    button.addEventListener("click", () => playMove(move.text));
    box.append(button);
  }
  if (!moves.length) box.append(el("span", page.mode === "play" ? "none now" : "(replay)"));
}

function showReport(report) {
  const box = $("report");
  box.replaceChildren();
  if (!report) return;
  if (report.value === undefined) {
    box.append(el("p", `Agent played ${report.move}.`));
    return;
  }
  box.append(el("p", `Agent played ${report.move}: value ${report.value.toFixed(3)} for the ` +
                     `mover after ${report.sims} simulations`));
  const shares = Object.entries(report.moves).sort((a, b) => b[1] - a[1]).slice(0, 8);
  if (!shares.length) return;
  const table = el("table");
  for (const [move, share] of shares) {
    const row = el("tr");
    row.append(el("td", move), el("td", `${(100 * share).toFixed(1)}%`));
    table.append(row);
  }
  box.append(el("p", "Visit shares (also on the board):"), table);
}

// ---- Moves by clicking squares ----

function startsWith(squares, prefix) {
  return prefix.every((square, i) => squares[i] === square);
}

// Marks the squares that continue a legal move from the squares clicked so far.
function highlight() {
  const legal = page.view ? page.view.legal : [];
  const next = new Set();
  for (const move of legal) {
    if (startsWith(move.squares, page.prefix) && move.squares.length > page.prefix.length)
      next.add(move.squares[page.prefix.length]);
  }
  for (const square of document.querySelectorAll("#board g.square")) {
    const name = square.getAttribute("data-square");
    square.classList.toggle("hl", next.has(name));
    square.classList.toggle("sel", page.prefix.includes(name));
  }
}

function clickSquare(square) {
  const legal = page.view ? page.view.legal : [];
  if (!legal.length) return;
  let prefix = [...page.prefix, square];
  let candidates = legal.filter((m) => startsWith(m.squares, prefix));
  if (!candidates.length) {  // start again from this square
    prefix = [square];
    candidates = legal.filter((m) => startsWith(m.squares, prefix));
  }
  if (!candidates.length) {
    page.prefix = [];
    showMessage(`No legal move starts on ${square}.`, false);
  } else {
    const complete = candidates.filter((m) => m.squares.length === prefix.length);
    if (complete.length === 1 && candidates.length === 1) {
      playMove(complete[0].text);
      return;
    }
    page.prefix = prefix;
    showMessage(complete.length ? "Choose one of the moves listed." : "");
  }
  showLegal(legal);
  highlight();
}

// ---- Replay ----

async function refreshLibrary(games) {
  const body = $("library").querySelector("tbody");
  body.replaceChildren();
  for (const game of games) {
    const row = el("tr", undefined, {"data-index": game.index});
    for (const text of [game.index, game.spec, game.agents.join(" vs "), game.moves,
                        game.returns.join(", "), game.source.split("/").pop()])
      row.append(el("td", String(text)));
    row.addEventListener("click", () => loadReplay(game.index, 0));
    body.append(row);
  }
}

async function loadReplay(index, ply) {
  const view = await ask(`/api/replay?index=${index}&ply=${ply}`);
  if (!view) return;
  page.replay = {index, ply: view.ply, total: view.moves.length};
  for (const row of $("library").querySelectorAll("tbody tr"))
    row.classList.toggle("current", Number(row.dataset.index) === index);
  show(view);
  $("position").textContent = `move ${view.ply} of ${view.moves.length}`;
  if (view.over)
    $("result").textContent = `Returns: ${returnsText(view.returns, view.sides)} (${view.agents.join(" vs ")})`;
}

function stepReplay(to) {
  if (!page.replay) return;
  const ply = Math.max(0, Math.min(page.replay.total, to));
  if (ply !== page.replay.ply) loadReplay(page.replay.index, ply);
}

// ---- Play ----

async function newGame(event) {
  event.preventDefault();
  const seat = $("play-seat").value;
  const view = await ask("/api/play", {
    spec: $("play-spec").value, agent: $("play-agent").value,
    seats: seat === "" ? [] : [Number(seat)], seed: Number($("play-seed").value || 0)});
  if (!view) return;
  closeGame(page.playId);
  page.playId = view.id;
  showPlay(view);
}

// The server keeps a game and its agents until it is closed: the page closes each game
// it leaves.
function closeGame(id) {
  if (id === null) return;
  fetch(`/api/play/${id}/close`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}).catch(() => {});
}

function showPlay(view) {
  show(view);
  $("agent-move").classList.toggle("hidden", !view.agent_to_move || view.human_seats.length > 0);
  const download = $("download");
  download.classList.toggle("hidden", !view.record);
  if (view.record)
    download.href = "data:application/json;charset=utf-8," + encodeURIComponent(view.record + "\n");
}

async function playMove(text) {
  if (page.mode !== "play" || page.playId === null) return;
  const view = await ask(`/api/play/${page.playId}/move`, {move: text});
  if (view) showPlay(view);
  else { page.prefix = []; showLegal(page.view.legal); highlight(); }
}

async function agentMove() {
  const view = await ask(`/api/play/${page.playId}/step`, {});
  if (view) showPlay(view);
}

function chooseGame() {
  const game = page.games.find((g) => g.name === $("play-game").value);
  $("play-spec").value = game.spec;
  fillSeats(game.players);
}

// The seats of the spec as typed (3-player Knights Challenge has one fewer).
async function specChanged() {
  if (!$("play-spec").value.trim()) return;
  const game = await ask(`/api/game?spec=${encodeURIComponent($("play-spec").value)}`);
  if (game) fillSeats(game.players);
}

function fillSeats(players) {
  const seats = $("play-seat");
  seats.replaceChildren();
  for (let seat = 0; seat < players; ++seat) seats.append(el("option", `seat ${seat}`, {value: seat}));
  seats.append(el("option", "no seat (watch)", {value: ""}));
}

// ---- Wiring ----

function setMode(mode) {
  page.mode = mode;
  for (const tab of document.querySelectorAll(".tab"))
    tab.classList.toggle("active", tab.dataset.panel === mode);
  $("replay").classList.toggle("hidden", mode !== "replay");
  $("play").classList.toggle("hidden", mode !== "play");
  $("controls").classList.toggle("hidden", mode !== "replay");
  $("play-controls").classList.toggle("hidden", mode !== "play");
  $("game").classList.add("hidden");
  page.view = null;
  showMessage("");
}

async function start() {
  for (const tab of document.querySelectorAll(".tab"))
    tab.addEventListener("click", () => setMode(tab.dataset.panel));
  $("open-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = await ask("/api/open", {path: $("open-path").value});
    if (data) {
      refreshLibrary(data.games);
      showMessage(`Opened ${data.added} games.`);
    }
  });
  $("first").addEventListener("click", () => stepReplay(0));
  $("prev").addEventListener("click", () => stepReplay(page.replay.ply - 1));
  $("next").addEventListener("click", () => stepReplay(page.replay.ply + 1));
  $("last").addEventListener("click", () => stepReplay(page.replay.total));
  document.addEventListener("keydown", (event) => {
    if (page.mode !== "replay" || !page.replay || event.target.tagName === "INPUT") return;
    const to = {ArrowLeft: page.replay.ply - 1, ArrowRight: page.replay.ply + 1,
                Home: 0, End: page.replay.total}[event.key];
    if (to !== undefined) {
      event.preventDefault();
      stepReplay(to);
    }
  });
  $("board").addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square && page.mode === "play") clickSquare(square.getAttribute("data-square"));
  });
  $("play-form").addEventListener("submit", newGame);
  $("agent-move").addEventListener("click", agentMove);
  $("play-game").addEventListener("change", chooseGame);
  $("play-spec").addEventListener("change", specChanged);

  const games = await ask("/api/games");
  if (!games) return;
  page.games = games.games;
  for (const game of page.games) $("play-game").append(el("option", game.name, {value: game.name}));
  chooseGame();
  const agents = await ask("/api/agents");
  if (agents)
    $("play-agent").title = `random, greedy, mcts, az:model=${agents.models.join("|")}, ` +
        `uci:engine=${agents.engines.join("|")}; at most ${agents.max_sims} simulations and ` +
        `${agents.move_seconds} s a move (the command line names more)`;
  const library = await ask("/api/library");
  if (library) refreshLibrary(library.games);
  setMode("replay");
}

start();

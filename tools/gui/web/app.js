// The Dejarik board: draws what the server (the referee) says, and sends the player's
// choices back. Nothing is decided here: every event is checked by the server.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const R_CENTRE = 48, R_INNER = 118, R_OUTER = 192;
const OUTCOME_NAMES = {kill: 'kill', push: 'push', counterpush: 'counter-push',
  counterkill: 'counter-kill'};
const $ = (id) => document.getElementById(id);

const ui = {
  socket: null, state: null, hello: null, selected: null, pendingAttack: null,
  // Courtier: a step with several capture candidates, waiting for the enemy to take.
  captureChoice: null,
  // Set-up: the reserve index of the creature put on each home cell, or null.
  arrangement: [null, null, null, null],
  queue: [], busy: false, lastRecord: null, analysis: [], engineInfo: null,
};
// For the end-to-end test and anyone curious in the console.
window.dejarik = ui;

// Ray i's angle: ray 3.5 points down (player 1's side), indices grow counter-clockwise.
function rayAngle(ray) { return (-90 + (ray - 3.5) * 30) * Math.PI / 180; }
function polar(r, a) { return [r * Math.cos(a), -r * Math.sin(a)]; }
function fmt(p) { return p.map((v) => v.toFixed(2)).join(' '); }

function cellCentre(name) {
  if (name === 'a') return [0, 0];
  const ray = Number(name.slice(1));
  const r = name[0] === 'b' ? (R_CENTRE + R_INNER) / 2 : (R_INNER + R_OUTER) / 2;
  return polar(r, rayAngle(ray));
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function buildBoard() {
  const svg = $('board');
  const cells = el('g', {id: 'cells'}, svg);
  const centre = el('g', {class: 'cell centre', 'data-cell': 'a'}, cells);
  el('path', {d: `M ${-R_CENTRE} 0 A ${R_CENTRE} ${R_CENTRE} 0 1 0 ${R_CENTRE} 0 ` +
    `A ${R_CENTRE} ${R_CENTRE} 0 1 0 ${-R_CENTRE} 0 Z`}, centre);
  el('text', {class: 'label', x: 0, y: R_CENTRE - 6, 'text-anchor': 'middle'}, centre)
    .textContent = 'a';
  for (const [ring, r1, r2] of [['b', R_CENTRE, R_INNER], ['c', R_INNER, R_OUTER]]) {
    for (let ray = 1; ray <= 12; ++ray) {
      const a = rayAngle(ray), h = 15 * Math.PI / 180;
      const g = el('g', {class: `cell ${ring === 'c' ? 'outer' : 'inner'}`,
        'data-cell': ring + ray}, cells);
      el('path', {d: `M ${fmt(polar(r2, a - h))} A ${r2} ${r2} 0 0 0 ${fmt(polar(r2, a + h))} ` +
        `L ${fmt(polar(r1, a + h))} A ${r1} ${r1} 0 0 1 ${fmt(polar(r1, a - h))} Z`}, g);
      const [lx, ly] = polar(r2 - 7, a);
      el('text', {class: 'label', x: lx.toFixed(1), y: (ly + 3).toFixed(1),
        'text-anchor': 'middle'}, g).textContent = ring + ray;
    }
  }
  el('g', {id: 'pieces'}, svg);
  cells.addEventListener('click', (ev) => {
    const g = ev.target.closest('[data-cell]');
    if (g) onCellClick(g.dataset.cell);
  });
}

function send(message) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) ui.socket.send(JSON.stringify(message));
}

function toast(text, notice) {
  const t = $('toast');
  t.textContent = text;
  t.className = notice ? 'notice' : '';
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  ui.socket = socket;
  socket.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    ui.queue.push(m);
    pump();
  };
  socket.onclose = () => {
    document.body.dataset.turn = 'disconnected';
    $('status').textContent = 'Disconnected from the server. Reload the page to start again.';
  };
}

// Messages are shown one after the other, so that the dice finish rolling before the
// position they lead to appears.
async function pump() {
  if (ui.busy) return;
  ui.busy = true;
  document.body.dataset.busy = '1';
  while (ui.queue.length) {
    const m = ui.queue.shift();
    try { await handle(m); } catch (e) { console.error(e); }
  }
  ui.busy = false;
  document.body.dataset.busy = '';
}

async function handle(m) {
  switch (m.type) {
    case 'hello': ui.hello = m; $('engine-name').textContent = m.engine; fillNewForm(); break;
    case 'state': showState(m); break;
    case 'dice': await showDice(m); break;
    case 'info': showInfo(m); break;
    case 'record': saveRecord(m.text); break;
    case 'error': toast(m.message); $('btn-analyse').disabled = false; break;
    case 'notice':
      $('btn-analyse').disabled = false;
      if (m.kind !== 'analysis') toast(m.message, true);
      break;
    default: break;
  }
}

function playerName(p) {
  if (!ui.state) return `player ${p}`;
  return p === ui.state.human ? `you (player ${p})` : `${ui.state.engine} (player ${p})`;
}

function statusText(s) {
  if (s.turn === 'browse') return `Replay: event ${s.ply} of ${s.plies}. Go to the end to play.`;
  if (s.ending) return `Game over: ${s.ending.result} by ${s.ending.termination}.`;
  const who = s.decider === s.human ? 'You' : ui.state.engine;
  if (s.turn === 'engine') {
    if (s.engineFailed) return 'The engine failed: press Retry engine.';
    return `${who} (player ${s.decider}) ${s.phase === 'placement' ? 'places the pushed piece' :
      'is thinking'}…`;
  }
  if (s.phase === 'setup') {
    return s.turn === 'engine' ? `${ui.state.engine} (player ${s.decider}) sets up…` :
      `Set up (player ${s.human}): put your creatures on ${s.home.join(', ')}, ` +
      'your left to your right.';
  }
  if (s.turn === 'dice') return s.phase === 'roll' ? 'Rolling the combat cell…' : 'Rolling the dice…';
  if (s.phase === 'placement') return 'Place the pushed piece: click a highlighted cell.';
  if (s.ruleset === 'courtier') {
    return s.legal.every((e) => e.kind === 'pass') ?
      `Your turn (player ${s.human}), turn ${s.turnNumber}: boxed in, press Pass.` :
      `Your turn (player ${s.human}), turn ${s.turnNumber}: step a Guard or your King.`;
  }
  return `Your turn (player ${s.human}), turn ${s.turnNumber}: ` +
    `${s.actionsLeft} action${s.actionsLeft === 1 ? '' : 's'} left.`;
}

function showState(s) {
  // A state sends only the events from `eventsFrom` on: the rest are the last state's.
  const held = ui.state ? ui.state.events : [];
  if (s.eventsFrom > held.length) {
    // Cannot happen while the socket delivers in order.
    toast(`the page holds ${held.length} events, the server sent from ${s.eventsFrom}: reload`);
    return;
  }
  s.events = held.slice(0, s.eventsFrom).concat(s.events);
  ui.state = s;
  ui.selected = null;
  ui.pendingAttack = null;
  ui.captureChoice = null;
  ui.arrangement = [null, null, null, null];
  $('odds').hidden = true;
  document.body.dataset.turn = s.turn;
  document.body.dataset.ruleset = s.ruleset;
  document.body.dataset.phase = s.phase;
  $('status').textContent = statusText(s);
  $('btn-pass').hidden = !s.legal.some((e) => e.kind === 'pass');
  $('btn-stop').hidden = s.turn !== 'engine' || s.engineFailed;
  $('btn-retry').hidden = !s.engineFailed;
  $('game-info').textContent = `${s.ruleset}, seed ${s.seed}, engine ${s.strength}`;
  showSetup();
  drawPieces(s);
  markCells();
  showMoves(s);
  const b = $('banner');
  if (s.ending && !ui.bannerDismissed) {
    const r = s.ending.result;
    const winner = r === '1-0' ? 1 : r === '0-1' ? 2 : 0;
    $('banner-result').textContent = winner === 0 ? `Draw ${r}` :
      (winner === s.human ? `You win ${r}` : `${s.engine} wins ${r}`);
    $('banner-detail').textContent = s.ending.termination +
      (s.ending.showdown ? ` — ${s.ending.showdown}` : '');
    b.hidden = false;
  } else {
    b.hidden = true;
    if (!s.ending) ui.bannerDismissed = false;
  }
}

// The human's reserve (RULES §15.4) while a set-up is due, as [index, creature] pairs.
function ownReserve(s) {
  return s.phase === 'setup' && s.turn === 'human' ?
    s.reserve.map((p, i) => [i, p]).filter(([, p]) => p.owner === s.human) : [];
}

// The arrangement so far, as pieces on the home cells: drawn, not sent.
function previewPieces(s) {
  return ui.arrangement.flatMap((i, slot) => i === null ? [] :
    [{...s.reserve[i], cell: s.home[slot], preview: true}]);
}

function showSetup() {
  const s = ui.state;
  $('setup').hidden = s.phase !== 'setup' || s.turn === 'browse';
  if ($('setup').hidden) return;
  const own = ownReserve(s);
  $('setup-help').textContent = own.length ?
    `Click your creatures in the order they stand on ${s.home.join(', ')}; ` +
    'click a home cell to take its creature back.' : `${s.engine} sets up.`;
  const box = $('setup-reserve');
  box.replaceChildren();
  for (const [i, p] of own) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.reserve = i;
    b.textContent = `${p.letter} ${p.name}`;
    b.title = `attack ${p.attack}, defence ${p.defence}, movement ${p.movement}`;
    b.disabled = ui.arrangement.includes(i);
    b.onclick = () => placeReserve(i);
    box.appendChild(b);
  }
  const others = s.reserve.filter((p) => p.owner !== s.human || !own.length);
  $('setup-other').textContent = others.length ?
    `In reserve: ${others.map((p) => `${p.letter} ${p.name}`).join(', ')}` : '';
  $('btn-setup').hidden = $('btn-setup-clear').hidden = !own.length;
  $('btn-setup').disabled = ui.arrangement.includes(null);
}

function placeReserve(i) {
  const slot = ui.arrangement.indexOf(null);
  if (slot < 0 || ui.arrangement.includes(i)) return;
  ui.arrangement[slot] = i;
  redrawSetup();
}

function redrawSetup() {
  showSetup();
  drawPieces(ui.state);
  markCells();
}

function sendSetup() {
  const s = ui.state;
  if (ui.arrangement.includes(null)) return;
  send({type: 'play', event: 'setup:' +
    ui.arrangement.map((i) => s.reserve[i].letter).join('').toLowerCase()});
}

function drawPieces(s) {
  const layer = $('pieces');
  layer.replaceChildren();
  for (const p of s.cells.concat(previewPieces(s))) {
    const [x, y] = cellCentre(p.cell);
    const g = el('g', {class: `piece p${p.owner}${p.preview ? ' preview' : ''}`,
      'data-piece': p.cell,
      transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`}, layer);
    el('circle', {r: 17}, g);
    el('text', {class: 'letter', y: 3}, g).textContent = p.letter;
    // A long name (Mantellian Savrip) shows its last word on the disc, the whole name in
    // the tooltip and the dice panel; a last word still too long (a creature file's) is
    // squeezed to fit.
    const label = p.name.length > 10 ? p.name.split(' ').pop() : p.name;
    const fit = label.length > 10 ? {textLength: 30, lengthAdjust: 'spacingAndGlyphs'} : {};
    el('text', {class: 'name', y: 11, ...fit}, g).textContent = label;
    const title = el('title', {}, g);
    title.textContent = p.attack === undefined ? `${p.name} (player ${p.owner})` :
      `${p.name} (player ${p.owner}): attack ${p.attack}, ` +
      `defence ${p.defence}, movement ${p.movement}`;
  }
}

function cellEl(name) { return document.querySelector(`#cells [data-cell="${name}"]`); }

function markCells() {
  const s = ui.state;
  for (const g of document.querySelectorAll('#cells [data-cell]')) {
    g.classList.remove('selectable', 'selected', 'target-move', 'target-attack', 'target-place',
      'target-capture', 'pending', 'last', 'combat');
  }
  if (!s) return;
  // Rays of Death: attacks go into or out of the combat cell.
  if (s.combat) cellEl(s.combat).classList.add('combat');
  if (s.pending) { cellEl(s.pending.from).classList.add('pending');
    cellEl(s.pending.to).classList.add('pending'); }
  const last = s.ply > 0 ? s.events[s.ply - 1] : null;
  if (last) for (const c of last.token.split(/[-x]/)) { const g = cellEl(c); if (g) g.classList.add('last'); }
  if (s.phase === 'placement') {
    for (const e of s.legal) if (e.kind === 'place') cellEl(e.to).classList.add('target-place');
    return;
  }
  if (s.phase === 'setup') {
    if (s.turn === 'human') {
      s.home.forEach((c, slot) => cellEl(c).classList.add(
        ui.arrangement[slot] === null ? 'target-place' : 'selectable'));
    }
    return;
  }
  for (const e of s.legal) if (e.from) cellEl(e.from).classList.add('selectable');
  if (ui.captureChoice) {
    cellEl(ui.captureChoice.from).classList.add('selected');
    cellEl(ui.captureChoice.to).classList.add('target-move');
    for (const e of ui.captureChoice.events) cellEl(e.captured).classList.add('target-capture');
    return;
  }
  if (ui.selected) {
    cellEl(ui.selected).classList.add('selected');
    for (const e of s.legal) {
      if (e.from !== ui.selected) continue;
      cellEl(e.to).classList.add(e.kind === 'attack' ? 'target-attack' : 'target-move');
      // Courtier: the enemies this piece's steps would take.
      if (e.captured) cellEl(e.captured).classList.add('target-capture');
    }
  }
}

function onCellClick(cell) {
  const s = ui.state;
  if (!s || s.turn !== 'human' || ui.busy) return;
  if (s.phase === 'placement') {
    const e = s.legal.find((x) => x.kind === 'place' && x.to === cell);
    if (e) send({type: 'play', event: e.token});
    return;
  }
  if (s.phase === 'setup') {
    const slot = s.home.indexOf(cell);
    if (slot >= 0 && ui.arrangement[slot] !== null) {
      ui.arrangement[slot] = null;
      redrawSetup();
    }
    return;
  }
  if (ui.captureChoice) {
    // Courtier: the enemy to take, among the step's candidates; any other cell cancels.
    const e = ui.captureChoice.events.find((x) => x.captured === cell);
    ui.captureChoice = null;
    if (e) { send({type: 'play', event: e.token}); return; }
    $('status').textContent = statusText(s);
  }
  if (ui.selected) {
    const e = s.legal.find((x) => x.from === ui.selected && x.to === cell);
    if (e && e.kind === 'move') { send({type: 'play', event: e.token}); return; }
    if (e && e.kind === 'attack') { showOdds(e); return; }
    if (e && e.kind === 'capture') {
      ui.captureChoice = {from: ui.selected, to: cell,
        events: s.legal.filter((x) => x.from === ui.selected && x.to === cell)};
      ui.selected = null;
      $('status').textContent = `${cell}: click the highlighted enemy to take.`;
      markCells();
      return;
    }
  }
  ui.selected = s.legal.some((x) => x.from === cell) && ui.selected !== cell ? cell : null;
  $('odds').hidden = true;
  markCells();
}

function showOdds(e) {
  ui.pendingAttack = e;
  const s = ui.state;
  const a = s.cells.find((p) => p.cell === e.from), d = s.cells.find((p) => p.cell === e.to);
  $('odds-title').textContent = `${a.name} ${e.from} → ${d.name} ${e.to}`;
  const table = $('odds-table');
  table.replaceChildren();
  for (const [k, label] of Object.entries(OUTCOME_NAMES)) {
    const tr = document.createElement('tr');
    tr.dataset.outcome = k;
    const th = document.createElement('th'); th.textContent = label;
    const td = document.createElement('td'); td.textContent = `${(100 * e.odds[k]).toFixed(2)} %`;
    tr.append(th, td);
    table.appendChild(tr);
  }
  $('odds').hidden = false;
}

function dieFace(sides) { return 1 + Math.floor(Math.random() * sides); }

function setDice(box, side, rolling) {
  box.replaceChildren();
  if (side.bonus) {
    const b = document.createElement('span'); b.className = 'die bonus';
    b.textContent = `+${side.bonus}`; box.appendChild(b);
  }
  side.sides.forEach((n, i) => {
    const d = document.createElement('span');
    d.className = rolling ? 'die rolling' : 'die';
    d.title = `d${n}`;
    d.textContent = rolling ? dieFace(n) : side.faces[i];
    box.appendChild(d);
  });
}

// Rays of Death: a D4 and a D12 name the combat cell (1 or 4: the centre; 2: b<D12>,
// 3: c<D12>), shown in the attack dice's rows.
async function showRay(m) {
  $('dice').hidden = false;
  $('dice-attacker-name').textContent = 'D4';
  $('dice-defender-name').textContent = 'D12';
  $('dice-outcome').textContent = 'Rolling the combat cell…';
  $('dice-attacker-score').textContent = '';
  $('dice-defender-score').textContent = '';
  const d4 = {sides: [4], faces: [m.d4]}, d12 = {sides: [12], faces: [m.d12]};
  for (let i = 0; i < 10; ++i) {
    setDice($('dice-attacker'), d4, true);
    setDice($('dice-defender'), d12, true);
    await new Promise((r) => setTimeout(r, 60));
  }
  setDice($('dice-attacker'), d4, false);
  setDice($('dice-defender'), d12, false);
  $('dice-outcome').textContent =
    `combat cell ${m.cell} (${(100 * m.probability).toFixed(1)} % chance)`;
  $('dice-outcome').dataset.outcome = 'ray';
}

async function showDice(m) {
  if (m.kind === 'ray') return showRay(m);
  $('dice').hidden = false;
  $('dice-attacker-name').textContent = `${m.attacker.name} ${m.attacker.cell}`;
  $('dice-defender-name').textContent = `${m.defender.name} ${m.defender.cell}`;
  $('dice-outcome').textContent = m.model === 'split-d6' ? 'Rolling the die…' : 'Rolling…';
  $('dice-attacker-score').textContent = '';
  $('dice-defender-score').textContent = '';
  const frames = 10;
  for (let i = 0; i < frames; ++i) {
    setDice($('dice-attacker'), m.attacker, true);
    setDice($('dice-defender'), m.defender, true);
    await new Promise((r) => setTimeout(r, 60));
  }
  setDice($('dice-attacker'), m.attacker, false);
  setDice($('dice-defender'), m.defender, false);
  $('dice-attacker-score').textContent = m.attacker.score;
  $('dice-defender-score').textContent = m.defender.score;
  const p = (100 * m.odds[m.outcome]).toFixed(1);
  $('dice-outcome').textContent = (m.die ? `die ${m.die}: ` : '') +
    `${OUTCOME_NAMES[m.outcome]} (${p} % chance)`;
  $('dice-outcome').dataset.outcome = m.outcome;
}

function evForPlayer1(m) { return m.player === 1 ? m.ev : -m.ev; }

function infoText(m) {
  const wdl = m.wdl ? ` wdl ${m.wdl.join('/')}` : '';
  return `d${m.depth} ev ${(m.ev / 1000).toFixed(3)}${m.exact ? ' exact' : ''}${wdl} ` +
    `(${m.nodes} nodes, ${m.time} ms): ${m.pv.join(' ')}`;
}

function setEvalBar(ev1) {
  const share = Math.max(0, Math.min(1, (ev1 / 1000 + 1) / 2));
  $('evalbar-fill').style.width = `${(share * 100).toFixed(1)}%`;
  $('evalbar-text').textContent = (ev1 >= 0 ? '+' : '') + (ev1 / 1000).toFixed(2);
}

function showInfo(m) {
  if (m.multipv === 1) setEvalBar(evForPlayer1(m));
  if (!m.analysis) {
    $('engine-line').textContent = `${playerName(m.player)}: ${infoText(m)}`;
    return;
  }
  ui.analysis[m.multipv - 1] = m;
  const list = $('analysis-lines');
  list.replaceChildren();
  for (const line of ui.analysis) {
    if (!line) continue;
    const li = document.createElement('li');
    li.textContent = infoText(line);
    list.appendChild(li);
  }
}

function showMoves(s) {
  const list = $('move-list');
  // Only the events that changed are redrawn: a long game would otherwise cost n².
  while (list.children.length > s.eventsFrom) list.lastElementChild.remove();
  list.querySelector('.current')?.classList.remove('current');
  const start = list.children.length;
  s.events.slice(start).forEach((e, k) => {
    const i = start + k;
    const li = document.createElement('li');
    li.value = i + 1;
    const who = e.player === 0 ? 'dice' : e.player === s.human ? 'you' : s.engine;
    const tok = document.createElement('span');
    tok.className = e.player === 0 ? 'chance' : '';
    tok.textContent = `${e.startsTurn ? e.turn + '. ' : ''}${e.token}`;
    const c = document.createElement('span');
    c.className = 'comment';
    c.textContent = ` ${who}${e.comment ? ' {' + e.comment + '}' : ''}`;
    li.append(tok, c);
    li.addEventListener('click', () => send({type: 'goto', ply: i + 1}));
    list.appendChild(li);
  });
  const cur = s.ply > 0 ? list.children[s.ply - 1] : null;
  if (cur) {
    cur.classList.add('current');
    cur.scrollIntoView({block: 'nearest'});
  }
  $('ply').textContent = `${s.ply} / ${s.plies}`;
}

function saveRecord(text) {
  ui.lastRecord = text;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], {type: 'text/plain'}));
  a.download = 'dejarik-game.dgn';
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function fillNewForm() {
  const h = ui.hello;
  const rs = $('ng-ruleset');
  rs.replaceChildren();
  for (const r of h.rulesets) rs.add(new Option(r, r));
  const box = $('ng-options');
  box.querySelectorAll('label').forEach((l) => l.remove());
  for (const o of h.ruleOptions) {
    if (o.name === 'Ruleset') continue;
    const label = document.createElement('label');
    label.textContent = `${o.name} `;
    let input;
    if (o.type === 'combo') {
      input = document.createElement('select');
      for (const v of o.values) input.add(new Option(v, v));
    } else if (o.type === 'check') {
      input = document.createElement('select');
      for (const v of ['true', 'false']) input.add(new Option(v, v));
    } else {
      input = document.createElement('input');
      input.type = o.type === 'spin' ? 'number' : 'text';
      if (o.type === 'spin') { input.min = o.min; input.max = o.max; }
    }
    input.value = o.default;
    input.dataset.option = o.name;
    input.dataset.default = o.default;
    if (o.dejarikOnly) label.dataset.dejarikOnly = '1';
    label.appendChild(input);
    box.appendChild(label);
  }
  showRulesetOptions();
}

// Courtier refuses Dejarik's dice, path and centre options (RULES §14.13): hidden and not sent.
function showRulesetOptions() {
  const courtier = $('ng-ruleset').value === 'courtier';
  for (const label of document.querySelectorAll('#ng-options label[data-dejarik-only]')) {
    label.hidden = courtier;
    label.querySelector('[data-option]').disabled = courtier;
  }
}

function newGameRequest() {
  const options = {};
  for (const input of document.querySelectorAll('#ng-options [data-option]')) {
    if (!input.disabled && input.value !== input.dataset.default) options[input.dataset.option] = input.value;
  }
  const m = {type: 'new', ruleset: $('ng-ruleset').value, options, deal: $('ng-deal').value,
    side: Number($('ng-side').value)};
  if ($('ng-seed').value !== '') m.seed = Number($('ng-seed').value);
  m[$('ng-limit').value] = Number($('ng-strength').value);
  return m;
}

function goto(ply) {
  if (!ui.state) return;
  send({type: 'goto', ply: Math.max(0, Math.min(ui.state.plies, ply))});
}

function wire() {
  $('btn-new').onclick = () => $('new-dialog').showModal();
  $('ng-cancel').onclick = () => $('new-dialog').close();
  $('ng-ruleset').onchange = showRulesetOptions;
  $('ng-limit').onchange = () => {
    const ms = $('ng-limit').value === 'movetime';
    $('ng-strength').value = ms ? 1000 : 4;
    $('ng-strength').step = ms ? 100 : 1;
  };
  $('new-form').addEventListener('submit', () => {
    ui.analysis = [];
    $('analysis-lines').replaceChildren();
    $('dice').hidden = true;
    send(newGameRequest());
  });
  $('btn-undo').onclick = () => send({type: 'undo'});
  $('btn-pass').onclick = () => send({type: 'play', event: 'pass'});
  $('btn-setup').onclick = sendSetup;
  $('btn-setup-clear').onclick = () => {
    ui.arrangement = [null, null, null, null];
    redrawSetup();
  };
  $('btn-stop').onclick = () => send({type: 'stop'});
  $('btn-retry').onclick = () => send({type: 'retry'});
  $('btn-save').onclick = () => send({type: 'save'});
  $('file-load').onchange = async (ev) => {
    const f = ev.target.files[0];
    if (f) send({type: 'load', text: await f.text()});
    ev.target.value = '';
  };
  $('btn-confirm').onclick = () => {
    if (ui.pendingAttack) send({type: 'play', event: ui.pendingAttack.token});
    $('odds').hidden = true;
  };
  $('btn-cancel').onclick = () => { ui.pendingAttack = null; $('odds').hidden = true; };
  $('btn-analyse').onclick = () => {
    ui.analysis = [];
    $('analysis-lines').replaceChildren();
    $('btn-analyse').disabled = true;
    send({type: 'analyse', multipv: Number($('an-multipv').value),
      movetime: Number($('an-time').value)});
  };
  $('btn-first').onclick = () => goto(0);
  $('btn-prev').onclick = () => goto(ui.state.ply - 1);
  $('btn-next').onclick = () => goto(ui.state.ply + 1);
  $('btn-last').onclick = () => goto(ui.state.plies);
  $('banner-close').onclick = () => { ui.bannerDismissed = true; $('banner').hidden = true; };
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest('input, select, dialog') || !ui.state) return;
    if (ev.key === 'ArrowLeft') goto(ui.state.ply - 1);
    if (ev.key === 'ArrowRight') goto(ui.state.ply + 1);
  });
}

buildBoard();
wire();
connect();

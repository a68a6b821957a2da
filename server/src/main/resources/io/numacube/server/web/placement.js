// The placement view of `numacube serve`: every node of the machine (its CPUs, memory, distances, what this process
// may use of it), the partitions that live on each, the share of their pages measured on their node, what each node's
// workers ran, and the changes of the machine followed. It reads one small JSON, GET /v1/placement, once a second
// while the page is shown (one request at a time, none while hidden), and redraws. Each node card carries data-node,
// -partitions, -rows, -morsels, -cpus, -cpus-allowed, -memory-total, -memory-allowed, -data and -threads for
// tools/pivot-check-server.py.
"use strict";

(() => {
  const PERIOD_MS = 1000;
  const $ = (id) => document.getElementById(id);
  const int = new Intl.NumberFormat("en-US");
  const pct = (x) => x == null ? "–" : x.toFixed(1) + "%";

  function bytes(n) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let u = 0;
    while (n >= 1024 && u < units.length - 1) { n /= 1024; u++; }
    return (u === 0 ? n : n.toFixed(1)) + " " + units[u];
  }

  function el(tag, props, children) {
    const e = document.createElement(tag);
    Object.assign(e, props || {});
    for (const c of children || []) e.append(c);
    return e;
  }

  /** The node a partition's memory lives on: its memory node when it has one, else its home node. */
  const nodeOf = (p) => p.memory_node >= 0 ? p.memory_node : p.node;

  /** Per node: partitions, rows, bytes, bytes-weighted pages-on-node share, workers and their morsels. */
  function summarize(placement) {
    const nodes = new Map();
    const node = (n) => {
      if (!nodes.has(n)) {
        nodes.set(n, { node: n, data: false, threads: 0, partitions: [], rows: 0, bytes: 0,
                       measured: 0, onNode: 0, morsels: 0, home: 0, machine: null });
      }
      return nodes.get(n);
    };
    // a simulated cube's nodes are none of the machine's: the machine is then its own table, not the cards
    const machine = placement.machine && !placement.machine.simulated ? placement.machine.nodes : [];
    for (const m of machine) node(m.node).machine = m;
    for (const n of placement.data_nodes) node(n).data = true;
    for (const w of placement.workers) node(w.node).threads = w.threads;
    for (const p of placement.partitions) {
      const s = node(nodeOf(p));
      s.partitions.push(p);
      s.rows += p.rows;
      s.bytes += p.bytes;
      if (p.pages_on_node_pct != null) {
        s.measured += p.bytes;
        s.onNode += p.pages_on_node_pct / 100 * p.bytes;
      }
    }
    for (const a of placement.activity || []) {
      node(a.node).morsels = a.morsels;
      node(a.node).home = a.morsels_home;
    }
    return [...nodes.values()].sort((a, b) => a.node - b.node);
  }

  function nodeCard(s, totalRows) {
    const pagesPct = s.measured > 0 ? 100 * s.onNode / s.measured : null;
    const homePct = s.morsels > 0 ? 100 * s.home / s.morsels : null;
    const fill = el("div");
    fill.style.width = (totalRows > 0 ? 100 * s.rows / totalRows : 0).toFixed(1) + "%";
    const facts = [
      ["role", (s.data ? "data" : "no data") + (s.threads > 0 ? ", " + s.threads + " worker threads" : ", no workers")],
      ...machineFacts(s.machine),
      ["partitions", int.format(s.partitions.length)],
      ["rows", int.format(s.rows)],
      ["bytes", bytes(s.bytes)],
      ["pages on node", s.measured > 0 ? pct(pagesPct) : "not measured"],
      ["morsels run", int.format(s.morsels)],
      ["at home", pct(homePct)],
    ];
    const dl = el("dl");
    for (const [k, v] of facts) {
      const dd = el("dd", { textContent: v });
      if (k === "pages on node" && pagesPct != null && pagesPct < 90) dd.classList.add("low");
      dl.append(el("dt", { textContent: k }), dd);
    }
    const card = el("div", { className: "node" + (s.data || s.threads > 0 ? "" : " unused") },
      [el("h3", { textContent: "node " + s.node + kind(s.machine) }),
        el("div", { className: "bar", title: "share of all rows" }, [fill]), dl]);
    Object.assign(card.dataset, { node: s.node, partitions: s.partitions.length, rows: s.rows, morsels: s.morsels,
      data: s.data, threads: s.threads });
    if (s.machine) {
      Object.assign(card.dataset, { cpus: s.machine.cpus, cpusAllowed: s.machine.cpus_allowed,
        memoryTotal: s.machine.memory_total_bytes, memoryAllowed: s.machine.memory_allowed });
    }
    return card;
  }

  /** What kind of node the machine says it is: memory only (no CPUs), CPUs only (no memory), or nothing to add. */
  function kind(m) {
    if (!m) return "";
    if (m.cpus === "") return " · memory only";
    return m.memory_total_bytes === 0 ? " · CPUs only" : "";
  }

  /** A machine node's CPUs, memory and distances, with what this process may use of them. */
  function machineFacts(m) {
    if (!m) return [];
    const cpus = m.cpus === "" ? "none" : m.cpus + (m.cpus_allowed === m.cpus ? ""
      : " (may use " + (m.cpus_allowed === "" ? "none" : m.cpus_allowed) + ")");
    const memory = m.memory_total_bytes === 0 ? "none"
      : bytes(m.memory_free_bytes) + " free of " + bytes(m.memory_total_bytes)
        + (m.memory_allowed ? "" : " (may not allocate)");
    const distances = Object.entries(m.distances).map(([n, d]) => n + ":" + d).join(" ");
    return [["CPUs", cpus], ["memory", memory], ["distances", distances || "unknown"]];
  }

  /** The machine's nodes as a table, for a simulated cube, whose cards are its logical nodes. */
  function machineTable(placement) {
    const m = placement.machine;
    $("machine").hidden = !(m && m.simulated);
    if (!m || !m.simulated) return;
    const body = $("machine-nodes").tBodies[0];
    body.replaceChildren(...m.nodes.map((n) => {
      const facts = machineFacts(n);
      const row = el("tr", {}, [cell(String(n.node), true), ...facts.map(([, v]) => cell(v))]);
      row.dataset.node = n.node;
      return row;
    }));
  }

  function cell(text, numeric) {
    return el("td", { textContent: text, className: numeric ? "num" : "" });
  }

  function partitionTable(s) {
    const head = el("tr", {}, ["table", "partition", "label", "home node", "rows", "bytes", "placement",
      "pages on node"].map((h) => el("th", { textContent: h })));
    const body = el("tbody");
    for (const p of s.partitions) {
      const pages = cell(p.pages_on_node_pct == null ? "–" : pct(p.pages_on_node_pct), true);
      if (p.pages_on_node_pct != null && p.pages_on_node_pct < 90) pages.classList.add("low");
      body.append(el("tr", {}, [cell(p.table), cell(String(p.id), true), cell(p.label), cell(String(p.node), true),
        cell(int.format(p.rows), true), cell(bytes(p.bytes), true), cell(p.placement), pages]));
    }
    const caption = el("caption", { textContent: "node " + s.node + ": " + s.partitions.length + " partitions" });
    const table = el("table", {}, [caption, el("thead", {}, [head]), body]);
    table.dataset.node = s.node;
    return table;
  }

  function history(placement) {
    $("follows").textContent = placement.follows_machine
      ? "Following the machine: bindings re-read every second; " + placement.changes.length + " changes followed."
      : "Not following the machine (serve --no-follow-machine, or simulated nodes): the placement made at start.";
    const body = $("changes").tBodies[0];
    body.replaceChildren();
    for (const c of [...placement.changes].reverse()) {
      body.append(el("tr", { title: c.log }, [cell(c.seen_at), cell(c.bindings),
        cell(c.data_nodes_before.join(",") + " → " + c.data_nodes_after.join(",")),
        cell(int.format(c.partitions_moved), true), cell(bytes(c.bytes_moved), true), cell(String(c.seconds), true),
        cell(pct(c.pages_on_target_pct), true), cell(c.outcome)]));
    }
    if (placement.changes.length === 0) {
      body.append(el("tr", {}, [el("td", { colSpan: 8, textContent: "no change of the bindings yet" })]));
    }
  }

  function draw(placement) {
    const nodes = summarize(placement);
    const totalRows = nodes.reduce((t, s) => t + s.rows, 0);
    const unread = placement.machine && placement.machine.error;
    $("describe").textContent = placement.describe + (unread ? " — the machine's nodes could not be read: " + unread : "");
    $("nodes").replaceChildren(...nodes.map((s) => nodeCard(s, totalRows)));
    $("partitions").replaceChildren(...nodes.filter((s) => s.partitions.length > 0).map(partitionTable));
    machineTable(placement);
    history(placement);
  }

  async function refresh() {
    try {
      const r = await fetch("v1/placement", { headers: { Accept: "application/json" } });
      const body = await r.json();
      if (!r.ok) throw new Error(body.error ? body.error.code + ": " + body.error.message : "HTTP " + r.status);
      draw(body);
      $("error").hidden = true;
      $("live").textContent = "updated " + new Date().toLocaleTimeString();
      $("live").classList.remove("stale");
      document.body.dataset.state = "ready";
    } catch (e) {
      $("error").textContent = "GET /v1/placement failed: " + e.message;
      $("error").hidden = false;
      $("live").classList.add("stale");
      document.body.dataset.state = "error";
    }
  }

  let looping = false;  // a refresh in flight or one scheduled: never two loops at once
  async function loop() {
    if (document.hidden) { looping = false; return; }
    looping = true;
    await refresh();
    setTimeout(loop, PERIOD_MS);
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && !looping) loop();
  });
  document.addEventListener("DOMContentLoaded", loop);
})();

// The graph's pure parts (generator/outputs/assets/graph.js): label placement, fitting the view
// and the zoom arithmetic, in Node's test runner. The browser tests (tests/site/test_site_graph.py)
// check the same things on the drawn page.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const graph = require(path.join(__dirname, "../../generator/outputs/assets/graph.js"));

// A deterministic scatter of nodes: a small linear congruential generator, not Math.random.
function scatter(n, width, height, seed) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const items = [];
  for (let i = 0; i < n; i++) {
    items.push({
      x: next() * width,
      y: next() * height,
      r: 4 + next() * 10,
      w: 30 + next() * 60,
      h: 14,
      weight: Math.floor(next() * 5),
      label: true,
    });
  }
  return items;
}

function overlap(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function boxOf(item, spot) {
  return { left: spot.left, top: spot.top, right: spot.left + item.w, bottom: spot.top + item.h };
}

function hitsCircle(node, rect) {
  const nx = Math.max(rect.left, Math.min(node.x, rect.right));
  const ny = Math.max(rect.top, Math.min(node.y, rect.bottom));
  return (node.x - nx) ** 2 + (node.y - ny) ** 2 < node.r ** 2;
}

test("shorten keeps short titles and cuts long ones with an ellipsis, by characters", () => {
  assert.equal(graph.shorten("Globex: etcd", 24), "Globex: etcd");
  assert.equal(graph.shorten("Globex: etcd loses quorum", 24), "Globex: etcd loses quor…");
  assert.equal(graph.shorten("애크미: GPU 이탈과 InfiniBand 고장이 겹친 날", 10), "애크미: GPU…");
  assert.equal(Array.from(graph.shorten("가".repeat(40), 24)).length, 24);
});

test("shown labels overlap neither each other nor any node, and stay inside the box", () => {
  const box = { width: 600, height: 400 };
  const items = scatter(150, box.width, box.height, 7);
  const placed = graph.placeLabels(items, box);
  const shown = placed.map((p, i) => ({ i, rect: boxOf(items[i], p), shown: p.shown })).filter((p) => p.shown);
  assert.ok(shown.length > 20, `only ${shown.length} labels shown`);
  assert.ok(shown.length < items.length, "a crowded graph hides some labels");
  for (let a = 0; a < shown.length; a++) {
    const r = shown[a].rect;
    assert.ok(r.left >= 0 && r.top >= 0 && r.right <= box.width && r.bottom <= box.height);
    for (let b = a + 1; b < shown.length; b++) assert.ok(!overlap(r, shown[b].rect), `${a} and ${b} overlap`);
    for (const node of items) assert.ok(!hitsCircle(node, r), "a label covers a node");
  }
});

test("the placement is deterministic and does not depend on anything but its input", () => {
  const box = { width: 500, height: 500 };
  const first = graph.placeLabels(scatter(80, 500, 500, 3), box);
  const again = graph.placeLabels(scatter(80, 500, 500, 3), box);
  assert.deepEqual(first, again);
});

test("a lone node's label goes to its right; at the right edge, to its left", () => {
  const box = { width: 300, height: 200 };
  const [middle] = graph.placeLabels([{ x: 100, y: 100, r: 6, w: 50, h: 14, weight: 1 }], box);
  assert.deepEqual(middle, { left: 109, top: 93, shown: true });
  const [edge] = graph.placeLabels([{ x: 290, y: 100, r: 6, w: 50, h: 14, weight: 1 }], box);
  assert.equal(edge.shown, true);
  assert.equal(edge.left, 290 - 6 - 3 - 50);
});

test("the more important node gets the contested spot; the other label hides or moves", () => {
  const box = { width: 300, height: 40 };
  // two nodes side by side on a strip too low for labels above or below
  const items = [
    { x: 100, y: 20, r: 5, w: 120, h: 14, weight: 1 },
    { x: 160, y: 20, r: 5, w: 120, h: 14, weight: 9 },
  ];
  const placed = graph.placeLabels(items, box);
  assert.equal(placed[1].shown, true);
  assert.equal(placed[1].left, 160 + 5 + 3); // its first choice, to the right
  assert.equal(placed[0].shown, false);
  // a hidden label still has a place, for when its node is hovered
  assert.equal(typeof placed[0].left, "number");
});

test("labels marked label: false and nodes off the canvas are never shown", () => {
  const box = { width: 300, height: 300 };
  const placed = graph.placeLabels(
    [
      { x: 100, y: 100, r: 5, w: 40, h: 14, weight: 1, label: false },
      { x: -20, y: 100, r: 5, w: 40, h: 14, weight: 1 },
      { x: 200, y: 200, r: 5, w: 40, h: 14, weight: 1 },
    ],
    box,
  );
  assert.deepEqual(placed.map((p) => p.shown), [false, false, true]);
});

test("above and below slide inside the box while the label still spans its node", () => {
  const box = { width: 200, height: 200 };
  // right and left are blocked by neighbours; the node is near the left edge
  const items = [
    { x: 12, y: 100, r: 6, w: 80, h: 14, weight: 5 },
    { x: 40, y: 100, r: 4, w: 0, h: 0, weight: 0 },
  ];
  const [label] = graph.placeLabels(items, box);
  assert.equal(label.shown, true);
  assert.ok(label.left >= 1 && label.left <= 12 && label.left + 80 >= 12);
  assert.ok(label.top + 14 <= 100 - 6); // above the node
});

test("fitView shows every point inside the padding, stretching a wide layout on a tall canvas", () => {
  const points = [{ x: 70, y: 70 }, { x: 930, y: 570 }, { x: 500, y: 320 }];
  const wide = graph.fitView(points, 940, 600, 40);
  assert.ok(wide.sy < 1.1, "hardly stretched on a canvas of the layout's proportions");
  const square = graph.fitView(points, 340, 340, 28);
  assert.ok(square.sy > 1 && square.sy <= 1.6);
  for (const [fit, width, height, pad] of [[wide, 940, 600, 40], [square, 340, 340, 28]]) {
    const k = width / fit.view.w;
    assert.ok(Math.abs(fit.view.h * k - height) < 1e-6, "the view has the canvas's proportions");
    for (const p of points) {
      const sx = (p.x - fit.view.x) * k;
      const sy = (p.y * fit.sy - fit.view.y) * k;
      assert.ok(sx >= pad - 1e-6 && sx <= width - pad + 1e-6, `x ${sx}`);
      assert.ok(sy >= pad - 1e-6 && sy <= height - pad + 1e-6, `y ${sy}`);
    }
  }
});

test("fitView does not blow up a single node", () => {
  const fit = graph.fitView([{ x: 500, y: 300 }], 900, 600, 40);
  assert.ok(fit.view.w >= 160);
  assert.ok(Math.abs(fit.view.x + fit.view.w / 2 - 500) < 1e-6);
});

test("zoomAt keeps the point under the pointer and stays within the zoom bounds", () => {
  const base = { x: 0, y: 0, w: 1000, h: 640 };
  const width = 500; // 2 units a pixel
  const view = graph.zoomAt(base, base, 8, 2, 100, 80, width);
  assert.equal(view.w, 500);
  // the pixel (100, 80) showed (200, 160) and still does
  assert.equal(view.x + 100 * (view.w / width), 200);
  assert.equal(view.y + 80 * (view.h / 320), 160);
  const closest = graph.zoomAt(view, base, 8, 100, 100, 80, width);
  assert.equal(closest.w, 1000 / 8);
  const out = graph.zoomAt(view, base, 8, 0.01, 100, 80, width);
  assert.deepEqual(out, base);
});

test("panBy moves the view by screen pixels but never past the fitted view", () => {
  const base = { x: 0, y: 0, w: 1000, h: 640 };
  assert.deepEqual(graph.panBy(base, base, 8, 50, 50, 500), base); // nothing to pan at zoom 1
  const zoomed = { x: 250, y: 160, w: 500, h: 320 };
  assert.deepEqual(graph.panBy(zoomed, base, 8, 50, -20, 500), { x: 200, y: 180, w: 500, h: 320 });
  assert.deepEqual(graph.panBy(zoomed, base, 8, 5000, -5000, 500), { x: 0, y: 320, w: 500, h: 320 });
});

test("overview: the most used terms, and the pairs of them two cases or more share", () => {
  const cases = [
    { t: [0, 1, 2] },
    { t: [0, 1] },
    { t: [0, 3] },
    { t: [1, 2, 4] },
    { t: [5] },
  ];
  const drawn = graph.overview(cases, 3);
  // counts: 0 and 1 in three cases, 2 in two; 3, 4, 5 in one (left out at three terms)
  assert.deepEqual(drawn.terms, [0, 1, 2]);
  assert.deepEqual(drawn.counts, { 0: 3, 1: 3, 2: 2 });
  // 0-1 in two cases, 1-2 in two; 0-2 in one: not drawn
  assert.deepEqual(drawn.pairs, [[0, 1, 2], [1, 2, 2]]);
  // ties in the build's order: with room for one, the first of the two most used
  assert.deepEqual(graph.overview(cases, 1).terms, [0]);
  assert.deepEqual(graph.overview([], 5), { terms: [], counts: {}, pairs: [] });
});

// Deterministic SVG "product photo" renderer for the demo catalogue.
// Pure functions: given a demo product (garment, colours, embroidery) and a seeded PRNG, return SVG strings.
// No external references, scripts, fonts or text elements.

// ---------------------------------------------------------------- utilities
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function hashStr(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const r = (v) => Math.round(v * 10) / 10;
const P = (p) => `${Math.round(p[0])} ${Math.round(p[1])}`;
const intD = (d) => d.replace(/-?\d+\.\d+/g, (m) => String(Math.round(+m)));

export const COLORS = {
  Mint: '#9cd2bb',
  Ivory: '#efe6d1',
  Maroon: '#6b1a2b',
  Navy: '#1f2b4b',
  Mustard: '#d09b28',
  Black: '#1e1d22',
  'Blush Pink': '#ecbcbd',
  Emerald: '#15664b',
  Teal: '#1b7174',
  Beige: '#d6c19e',
  White: '#f4f2ed',
  Charcoal: '#3a3d43',
  Rust: '#ad512b',
  Lilac: '#bba9d4',
  'Powder Blue': '#adc9e4',
  Sage: '#9fb294',
  Gold: '#c9a24e',
  Peach: '#f1b497',
  Plum: '#592350',
  Olive: '#66663a',
  Coral: '#e97c69',
  Fuchsia: '#bb1e65',
  Crimson: '#a0152b',
  Silver: '#c3c5cb',
  Brown: '#694a33',
  Indigo: '#2b3877',
  Grey: '#8c8e93',
};

function hex2rgb(h) {
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
}
function rgb2hex(c) {
  return `#${c
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
export function mix(a, b, t) {
  const x = hex2rgb(a),
    y = hex2rgb(b);
  return rgb2hex(x.map((v, i) => v + (y[i] - v) * t));
}
export function shade(c, t) {
  return t < 0 ? mix(c, '#000000', -t) : mix(c, '#ffffff', t);
}
export function lum(c) {
  const [R, G, B] = hex2rgb(c);
  return (0.2126 * R + 0.7152 * G + 0.0722 * B) / 255;
}

const METALS = {
  gold: { c: '#c9a046', hi: '#f1d98e', lo: '#86651f' },
  silver: { c: '#bfc2c9', hi: '#f4f5f8', lo: '#7c7f87' },
};

// ---------------------------------------------------------------- svg builder
class Svg {
  constructor(w, h) {
    this.w = w;
    this.h = h;
    this.defs = [];
    this.els = [];
    this.n = 0;
  }
  id(p) {
    return p + (this.n++).toString(36);
  }
  def(s) {
    this.defs.push(s);
  }
  add(s) {
    this.els.push(s);
  }
  toString() {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${this.w} ${this.h}" width="${this.w}" height="${this.h}">` +
      `<defs>${this.defs.join('')}</defs>${this.els.join('')}</svg>\n`
    );
  }
}

// ---------------------------------------------------------------- geometry helpers
function bez(pts, t) {
  const u = 1 - t;
  if (pts.length === 3) {
    const [p0, p1, p2] = pts;
    return [0, 1].map((i) => u * u * p0[i] + 2 * u * t * p1[i] + t * t * p2[i]);
  }
  const [p0, p1, p2, p3] = pts;
  return [0, 1].map(
    (i) => u * u * u * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t * t * t * p3[i],
  );
}
function sample(pts, n = 20) {
  const out = [];
  for (let i = 0; i <= n; i++) out.push(bez(pts, i / n));
  return out;
}
function line(a, b, n = 2) {
  const out = [];
  for (let i = 0; i <= n; i++) out.push([a[0] + ((b[0] - a[0]) * i) / n, a[1] + ((b[1] - a[1]) * i) / n]);
  return out;
}
// Polyline as compact path data: absolute start, then relative integer steps.
function polyD(pts) {
  const q = pts.map(([x, y]) => [Math.round(x), Math.round(y)]);
  let d = `M${q[0][0]} ${q[0][1]}`;
  for (let i = 1; i < q.length; i++) {
    const dx = q[i][0] - q[i - 1][0],
      dy = q[i][1] - q[i - 1][1];
    if (dx || dy) d += `l${dx}${dy < 0 ? '' : ' '}${dy}`;
  }
  return d;
}
// <use> of an embroidery motif at a point.
function useM(id, x, y, a, sc) {
  const ra = Math.round(a) % 360;
  return `<use href="#${id}" transform="translate(${Math.round(x)} ${Math.round(y)})${ra ? ` rotate(${ra})` : ''}${sc !== 1 ? ` scale(${Math.round(sc * 10) / 10})` : ''}"/>`;
}
function offsetPts(pts, d) {
  return pts.map((p, i) => {
    const a = pts[Math.max(0, i - 1)],
      b = pts[Math.min(pts.length - 1, i + 1)];
    const tx = b[0] - a[0],
      ty = b[1] - a[1],
      l = Math.hypot(tx, ty) || 1;
    return [p[0] - (ty / l) * d, p[1] + (tx / l) * d];
  });
}
function along(pts, step, phase = 0.5) {
  const out = [];
  let acc = 0;
  let next = step * phase;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1],
      b = pts[i];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    while (next <= acc + l) {
      const t = (next - acc) / l;
      out.push({
        x: a[0] + (b[0] - a[0]) * t,
        y: a[1] + (b[1] - a[1]) * t,
        a: (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI,
      });
      next += step;
    }
    acc += l;
  }
  return out;
}
const MIRROR = 'matrix(-1 0 0 1 800 0)';
const BOTEH = 'M7-15C-3-13-11-4-10 4C-9 11-1 14 5 10C10 7 10 0 5-3C3-5 2-8 3-10C4-12 6-13 7-15Z';
const mp = (p, cx = 400) => [2 * cx - p[0], p[1]];

// Symmetric closed outline: start (left neck point) -> left segs -> bottom -> mirrored segs -> neck.
function symPath(cx, start, segs, bottom, neck) {
  let d = `M${P(start)}`;
  for (const s of segs) d += s.c + s.p.map(P).join(' ');
  const end = segs.at(-1).p.at(-1);
  d += bottom.c + [...bottom.ctrl, mp(end, cx)].map(P).join(' ');
  const ends = [start, ...segs.map((s) => s.p.at(-1))];
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    const ctrls = s.p
      .slice(0, -1)
      .reverse()
      .map((q) => mp(q, cx));
    d += s.c + [...ctrls, mp(ends[i], cx)].map(P).join(' ');
  }
  return `${d + neck}Z`;
}
// Neckline from right neck point to left neck point.
function neckD(cx, sy, w, nd, type) {
  if (type === 'v') return `L${P([cx, sy + nd])}L${P([cx - w, sy])}`;
  if (type === 'square')
    return `L${P([cx + w * 0.92, sy + nd])}L${P([cx - w * 0.92, sy + nd])}L${P([cx - w, sy])}`;
  return `C${P([cx + w, sy + nd * 0.55])} ${P([cx + w * 0.55, sy + nd])} ${P([cx, sy + nd])}C${P([cx - w * 0.55, sy + nd])} ${P([cx - w, sy + nd * 0.55])} ${P([cx - w, sy])}`;
}
function neckPts(cx, sy, w, nd, type) {
  if (type === 'v')
    return [
      ...line([cx + w, sy - 10], [cx, sy + nd], 6),
      ...line([cx, sy + nd], [cx - w, sy - 10], 6).slice(1),
    ];
  if (type === 'square')
    return [
      [cx + w, sy - 10],
      [cx + w * 0.92, sy + nd],
      ...line([cx + w * 0.92, sy + nd], [cx - w * 0.92, sy + nd], 8).slice(1),
      [cx - w, sy - 10],
    ];
  return [
    ...sample(
      [
        [cx + w, sy - 10],
        [cx + w, sy + nd * 0.55],
        [cx + w * 0.55, sy + nd],
        [cx, sy + nd],
      ],
      10,
    ),
    ...sample(
      [
        [cx, sy + nd],
        [cx - w * 0.55, sy + nd],
        [cx - w, sy + nd * 0.55],
        [cx - w, sy - 10],
      ],
      10,
    ).slice(1),
  ];
}

// ---------------------------------------------------------------- shared defs
function studioDefs(S, opt = {}) {
  const w = S.w,
    h = S.h;
  S.def(
    `<linearGradient id="bg" x2="0" y2="1"><stop offset="0" stop-color="#f6f2ec"/><stop offset=".62" stop-color="#eee8df"/><stop offset=".9" stop-color="#e2d9cc"/><stop offset="1" stop-color="#dbd1c3"/></linearGradient>`,
  );
  S.def(
    `<radialGradient id="gl" cx=".5" cy=".4" r=".55"><stop offset="0" stop-color="#fff" stop-opacity=".75"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
  );
  S.def(
    `<radialGradient id="sd"><stop offset="0" stop-color="#3a2c20" stop-opacity=".34"/><stop offset=".55" stop-color="#3a2c20" stop-opacity=".12"/><stop offset="1" stop-color="#3a2c20" stop-opacity="0"/></radialGradient>`,
  );
  S.def(
    `<linearGradient id="sh"><stop offset="0" stop-opacity=".34"/><stop offset=".14" stop-opacity=".1"/><stop offset=".36" stop-color="#fff" stop-opacity=".12"/><stop offset=".52" stop-color="#fff" stop-opacity=".03"/><stop offset=".78" stop-opacity=".05"/><stop offset=".92" stop-opacity=".16"/><stop offset="1" stop-opacity=".36"/></linearGradient>`,
  );
  S.def(
    `<linearGradient id="sv" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".1"/><stop offset=".5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-opacity=".12"/></linearGradient>`,
  );
  S.def(
    `<filter id="bl" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="${opt.blur ?? 5}"/></filter>`,
  );
  S.def(
    `<filter id="b2" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="14"/></filter>`,
  );
  S.add(
    `<rect width="${w}" height="${h}" fill="url(#bg)"/><rect width="${w}" height="${h}" fill="url(#gl)"/>`,
  );
}
function floorShadow(S, cx = 400, cy = 742, rx = 200, ry = 28) {
  S.add(
    `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="url(#sd)"/><ellipse cx="${cx}" cy="${cy - 2}" rx="${rx * 0.55}" ry="${ry * 0.35}" fill="#2a1f16" fill-opacity=".12" filter="url(#bl)"/>`,
  );
}

// Fabric pattern tiles.
function fabricDef(_S, id, style, base, acc, acc2, scale = 1) {
  const light = lum(base) > 0.62;
  const tone = (t) => shade(base, light ? -t : t);
  const T = (w, h, inner) =>
    `<pattern id="${id}" width="${w}" height="${h}" patternUnits="userSpaceOnUse"${scale !== 1 ? ` patternTransform="scale(${scale})"` : ''}><rect width="${w}" height="${h}" fill="${base}"/>${inner}</pattern>`;
  const flower = (x, y, rr, c, cc) => {
    let s = '';
    for (let i = 0; i < 5; i++) {
      const a = ((i * 72 - 90) * Math.PI) / 180;
      s += `<circle cx="${r(x + Math.cos(a) * rr)}" cy="${r(y + Math.sin(a) * rr)}" r="${r(rr * 0.62)}"/>`;
    }
    return `<g fill="${c}">${s}</g><circle cx="${x}" cy="${y}" r="${r(rr * 0.45)}" fill="${cc}"/>`;
  };
  switch (style) {
    case 'jaal':
      return T(
        56,
        56,
        `<path d="M28 0C36 10 48 16 56 28C48 40 36 46 28 56C20 46 8 40 0 28C8 16 20 10 28 0Z" fill="none" stroke="${acc}" stroke-width="1.6" stroke-opacity=".85"/>` +
          flower(28, 28, 4, acc, acc2) +
          `<g fill="${acc}"><circle cx="0" cy="0" r="2.4"/><circle cx="56" cy="0" r="2.4"/><circle cx="0" cy="56" r="2.4"/><circle cx="56" cy="56" r="2.4"/></g>` +
          `<path d="M28 8v6M28 42v6M8 28h6M42 28h6" stroke="${acc}" stroke-width="1.2"/>`,
      );
    case 'block':
      return T(
        36,
        36,
        `${flower(9, 9, 3.2, acc, acc2) + flower(27, 27, 3.2, acc, acc2)}<g fill="${acc}" fill-opacity=".7"><circle cx="27" cy="9" r="1.1"/><circle cx="9" cy="27" r="1.1"/></g>`,
      );
    case 'floral': {
      const leaf = (x, y, a) =>
        `<path transform="translate(${x} ${y}) rotate(${a})" d="M0 0C4-5 12-5 16 0C12 5 4 5 0 0Z" fill="${acc2}" fill-opacity=".8"/>`;
      let petals = '';
      for (let i = 0; i < 6; i++)
        petals += `<ellipse cx="24" cy="18" rx="4.4" ry="9" transform="rotate(${i * 60} 24 28)"/>`;
      return T(
        96,
        96,
        leaf(34, 34, 30) +
          leaf(14, 36, 150) +
          leaf(80, 66, -40) +
          `<g fill="${acc}">${petals}</g><circle cx="24" cy="28" r="4" fill="${acc2}"/>` +
          flower(72, 72, 6, acc2, acc) +
          `<g fill="${acc}" fill-opacity=".75"><circle cx="60" cy="20" r="2"/><circle cx="66" cy="26" r="1.4"/><circle cx="20" cy="78" r="2"/><circle cx="12" cy="70" r="1.4"/></g>`,
      );
    }
    case 'paisley': {
      const pz = (x, y, a, sc) =>
        `<g transform="translate(${x} ${y}) rotate(${a}) scale(${sc})"><path d="${BOTEH}" fill="${acc}"/><path d="${BOTEH}" transform="translate(0 3) scale(.5)" fill="${acc2}"/><circle cx="0" cy="3" r="1.5" fill="${acc}"/><g fill="${acc}"><circle cx="-14" cy="-3" r="1.1"/><circle cx="-14" cy="4" r="1.1"/><circle cx="-10" cy="11" r="1.1"/><circle cx="-3" cy="15" r="1.1"/></g></g>`;
      return T(
        60,
        60,
        `${pz(16, 18, -15, 0.8) + pz(46, 48, 165, 0.8)}<g fill="${acc2}" fill-opacity=".85"><circle cx="46" cy="14" r="1.5"/><circle cx="14" cy="46" r="1.5"/></g>`,
      );
    }
    case 'chikan': {
      const th = light ? shade(base, -0.16) : shade(base, 0.42);
      return T(
        48,
        48,
        `<g fill="none" stroke="${th}" stroke-width="1.1"><circle cx="12" cy="12" r="3.2"/><circle cx="12" cy="5.5" r="2"/><circle cx="18.5" cy="12" r="2"/><circle cx="12" cy="18.5" r="2"/><circle cx="5.5" cy="12" r="2"/>` +
          `<path d="M26 40C30 34 34 31 42 30M33 33C32 29 34 26 37 25C37 29 35 31 33 33ZM37 31C40 33 41 36 40 39C37 37 36 34 37 31Z"/><circle cx="40" cy="10" r="1.6"/><circle cx="36" cy="14" r="1"/><circle cx="8" cy="38" r="1.6"/></g>`,
      );
    }
    case 'stripes':
      return T(
        24,
        24,
        `<rect x="0" width="3" height="24" fill="${acc}" fill-opacity=".85"/><rect x="12" width="1" height="24" fill="${acc}" fill-opacity=".6"/>`,
      );
    case 'herringbone':
      return T(
        12,
        12,
        `<path d="M0 12L6 0L12 12" fill="none" stroke="${tone(0.14)}" stroke-width="1.6"/><path d="M0 6L3 0M9 0L12 6" fill="none" stroke="${shade(base, light ? 0.1 : -0.12)}" stroke-width="1.2"/>`,
      );
    case 'damask': {
      const t1 = tone(0.1);
      return T(
        72,
        72,
        `<g fill="${t1}"><path d="M36 8C44 18 50 22 56 36C50 50 44 54 36 64C28 54 22 50 16 36C22 22 28 18 36 8ZM36 22C32 28 30 31 28 36C30 41 32 44 36 50C40 44 42 41 44 36C42 31 40 28 36 22Z" fill-rule="evenodd"/><circle cx="0" cy="0" r="6"/><circle cx="72" cy="0" r="6"/><circle cx="0" cy="72" r="6"/><circle cx="72" cy="72" r="6"/><circle cx="36" cy="36" r="3"/></g>`,
      );
    }
    default: // plain weave
      return T(
        6,
        6,
        `<path d="M0 1.5H6M1.5 0V6" stroke="${tone(0.035)}" stroke-width=".6"/><path d="M0 4.5H6" stroke="${shade(base, light ? 0.04 : -0.03)}" stroke-width=".5"/>`,
      );
  }
}

// Embroidery motifs (symbols reused with <use>).
function motifDefs(S, m) {
  let petals = '';
  for (let i = 0; i < 5; i++) {
    const a = ((i * 72 - 90) * Math.PI) / 180;
    petals += `<circle cx="${r(Math.cos(a) * 4.6)}" cy="${r(Math.sin(a) * 4.6)}" r="2.9"/>`;
  }
  S.def(`<g id="mf"><g fill="${m.c}">${petals}</g><circle r="2.4" fill="${m.hi}"/></g>`);
  S.def(
    `<g id="ml"><path d="M-11 0C-7-6-2-5 0 0C-2 5-7 6-11 0ZM11 0C7-6 2-5 0 0C2 5 7 6 11 0Z" fill="${m.c}"/><circle r="1.8" fill="${m.hi}"/></g>`,
  );
  S.def(
    `<g id="mp"><path d="${BOTEH}" transform="rotate(-90) scale(.62)" fill="${m.c}"/><circle cx="1.5" r="1.5" fill="${m.hi}"/></g>`,
  );
  S.def(
    `<radialGradient id="bt" cx=".35" cy=".35" r=".7"><stop offset="0" stop-color="${m.hi}"/><stop offset=".55" stop-color="${m.c}"/><stop offset="1" stop-color="${m.lo}"/></radialGradient>`,
  );
}

// Embroidered band along a polyline, clipped to a piece.
function band(pts, o) {
  const m = o.m,
    h = o.h;
  let s = `<g${o.clip ? ` clip-path="url(#${o.clip})"` : ''}>`;
  s += `<path d="${polyD(pts)}" fill="none" stroke="${o.fill}" stroke-width="${h}"${o.fo ? ` stroke-opacity="${o.fo}"` : ''} stroke-linejoin="round"/>`;
  if (o.simple)
    return `${s}<path d="${polyD(offsetPts(pts, -h / 2 + 2))}${polyD(offsetPts(pts, h / 2 - 2))}" fill="none" stroke="${m.c}" stroke-width="1.5"/></g>`;
  s += `<path d="${polyD(offsetPts(pts, -h / 2 + 2.5))}${polyD(offsetPts(pts, h / 2 - 2.5))}" fill="none" stroke="${m.c}" stroke-width="2.2"/>`;
  if (h >= 20)
    s += `<path d="${polyD(offsetPts(pts, -h / 2 + 7))}${polyD(offsetPts(pts, h / 2 - 7))}" fill="none" stroke="${m.hi}" stroke-width="2.6" stroke-linecap="round" stroke-dasharray="0 6.5"/>`;
  const sc = o.sc ?? Math.min(1.6, h / 22);
  if (h >= 40 && !o.noVine) {
    // rich band: sinuous vine with leaves and flowers between two bead rows
    const vs = o.vsc ?? h / 48,
      amp = h * 0.2,
      wl = 44 * vs;
    const dense = along(pts, 5, 0);
    const vp = dense.map((q, i) => {
      const a = (q.a * Math.PI) / 180,
        w = amp * Math.sin((2 * Math.PI * i * 5) / wl);
      return [q.x - Math.sin(a) * w, q.y + Math.cos(a) * w];
    });
    s += `<path d="${polyD(vp)}" fill="none" stroke="${m.c}" stroke-width="${r(2.2 * vs)}"/>`;
    let u = '';
    along(pts, wl / 2, 0.25).forEach((q, i) => {
      const a = (q.a * Math.PI) / 180,
        w = (i % 2 ? -1 : 1) * amp;
      const x = q.x - Math.sin(a) * w * 0.35,
        y = q.y + Math.cos(a) * w * 0.35;
      u += useM(i % 4 === 1 ? 'mp' : 'mf', x, y, q.a + (i % 2 ? 180 : 0), vs * 1.3);
    });
    along(pts, wl / 2, 0.75).forEach((q, i) => {
      const a = (q.a * Math.PI) / 180,
        w = (i % 2 ? 1 : -1) * amp * 0.9;
      u += useM('ml', q.x - Math.sin(a) * w, q.y + Math.cos(a) * w, q.a + (i % 2 ? 35 : -35), vs * 0.7);
    });
    return `${s + u}</g>`;
  }
  const step = o.step ?? 22 * sc;
  s += along(pts, step)
    .map((q, i) => useM(o.motifs ? o.motifs[i % o.motifs.length] : 'mf', q.x, q.y, q.a, sc))
    .join('');
  return `${s}</g>`;
}

function fold(d, w, o, light) {
  return `<path d="${intD(d)}" stroke="${light ? '#fff' : '#1a0f08'}" stroke-opacity="${r(Math.min(0.5, o * (light ? 1.5 : 1.7)) * 100) / 100}" stroke-width="${r(w * 1.3)}"/>`;
}

// Garment piece: fabric fill + volume shading + optional folds + outline.
function piece(S, d, fill, o = {}) {
  const id = S.id('p');
  S.def(`<path id="${id}" d="${d}"/>`);
  const op = o.op ? ` fill-opacity="${o.op}"` : '';
  let out = `<use href="#${id}" fill="${fill}"${op}/>`;
  if (o.dark) out += `<use href="#${id}" fill="#140c06" fill-opacity="${o.dark}"/>`;
  if (o.shade !== false) out += `<use href="#${id}" fill="url(#sh)"/><use href="#${id}" fill="url(#sv)"/>`;
  const cid = S.id('c');
  S.def(`<clipPath id="${cid}"><use href="#${id}"/></clipPath>`);
  if (o.folds)
    out += `<g clip-path="url(#${cid})"><g filter="url(#bl)" fill="none" stroke-linecap="round">${o.folds}</g></g>`;
  out += `<use href="#${id}" fill="none" stroke="${o.line || '#1a0f08'}" stroke-opacity="${o.lo ?? 0.3}" stroke-width="1.3"/>`;
  return { out, cid, id };
}

// ---------------------------------------------------------------- context per product
function makeCtx(p, rng) {
  const cols = p.c.map((n) => COLORS[n]);
  const base = cols[0];
  const metal = p.emb === 'silver' ? METALS.silver : p.emb === 'gold' ? METALS.gold : null;
  const acc =
    cols.find((c, i) => i > 0 && c !== COLORS.Gold && c !== COLORS.Silver) ||
    (lum(base) > 0.6 ? shade(base, -0.35) : shade(base, 0.55));
  const threadBase = lum(acc) > 0.5 ? acc : shade(acc, 0.25);
  const thread = metal || { c: threadBase, hi: shade(threadBase, 0.45), lo: shade(threadBase, -0.3) };
  const acc2 =
    p.c.length > 2 && cols[2] !== COLORS.Gold && cols[2] !== COLORS.Silver
      ? cols[2]
      : metal
        ? metal.c
        : shade(acc, lum(acc) > 0.5 ? -0.25 : 0.3);
  return { p, rng, base, acc, acc2, m: thread, hasEmb: p.emb !== 'none', metal };
}

function setupFabrics(S, ctx, scale = 1, only = false) {
  const { p, base, acc, acc2 } = ctx;
  S.def(fabricDef(S, 'f1', p.pat, base, acc, acc2, scale));
  // secondary (trousers / lining): plain weave of the accent or matching colour
  const plainAcc = p.c.slice(1).find((n) => n !== 'Gold' && n !== 'Silver');
  const second = ['mensk', 'kidsk'].includes(p.t)
    ? base
    : ['sherwani', 'princecoat', 'kidsherwani'].includes(p.t)
      ? lum(base) > 0.6
        ? shade(base, -0.04)
        : COLORS.Ivory
      : plainAcc
        ? COLORS[plainAcc]
        : shade(base, -0.08);
  ctx.second = second;
  if (!only) S.def(fabricDef(S, 'f2', 'plain', second, acc, acc2, scale));
  // dupatta: translucent version of the main print or the accent colour
  const dup = p.c.length > 1 && p.t !== 'suit3' ? acc : base;
  ctx.dupBase = dup;
  if (!only)
    S.def(
      fabricDef(
        S,
        'f3',
        p.pat === 'plain' ? 'block' : p.pat,
        dup,
        dup === base ? acc : ctx.metal ? ctx.metal.c : shade(dup, lum(dup) > 0.5 ? -0.3 : 0.4),
        acc2,
        scale,
      ),
    );
  motifDefs(S, ctx.m);
}

// ---------------------------------------------------------------- garment drawers
// Women's top (kurta / kameez / choli / bodice)
function womenTop(S, ctx, o) {
  const cx = 400,
    sy = o.sy ?? 140,
    hemY = o.hemY,
    fl = o.flare ?? 0;
  const nw = o.nw ?? 40,
    nd = o.back ? 16 : (o.nd ?? 58),
    neck = o.back ? 'round' : (o.neck ?? 'round');
  const rng = ctx.rng;
  const geom = (extra, ndd) => {
    const segs = [
      {
        c: 'Q',
        p: [
          [cx - nw - 28, sy + 8],
          [cx - 98, sy + 24],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 100, sy + 60],
          [cx - 96, sy + 92],
          [cx - 92, sy + 112],
        ],
      },
    ];
    if (hemY - sy < 200)
      segs.push({
        c: 'C',
        p: [
          [cx - 88, sy + 130],
          [cx - 82, hemY - 24],
          [cx - 84 - extra * 0.2, hemY],
        ],
      });
    else {
      const wy = sy + 215;
      segs.push({
        c: 'C',
        p: [
          [cx - 86, sy + 150],
          [cx - 82, wy - 40],
          [cx - 84, wy],
        ],
      });
      if (o.slit) {
        segs.push({
          c: 'C',
          p: [
            [cx - 86, wy + 40],
            [cx - 92 - fl * 0.3, o.slit - 40],
            [cx - 94 - fl * 0.4, o.slit],
          ],
        });
        segs.push({ c: 'L', p: [[cx - 96 - fl - extra, hemY]] });
      } else
        segs.push({
          c: 'C',
          p: [
            [cx - 88, wy + 50],
            [cx - 94 - fl * 0.5, hemY - 60],
            [cx - 96 - fl - extra, hemY],
          ],
        });
    }
    return symPath(
      cx,
      [cx - nw, sy],
      segs,
      { c: 'Q', ctrl: [[cx, hemY + 8]] },
      neckD(cx, sy, nw, ndd, ndd === 16 ? 'round' : neck),
    );
  };
  const H = hemY - sy < 200 ? [cx - 84, hemY] : [cx - 96 - fl, hemY];
  let out = '';
  // back panel (inside of neck + slit reveal)
  const bp = piece(S, geom(o.slit ? 16 : 0, 16), 'url(#f1)', { dark: 0.32, shade: false });
  out += bp.out;
  // sleeves
  out += sleeve(S, ctx, 'w', sy, o.cuffY, o.sleeve, o);
  // body
  const wy = sy + 215;
  let folds =
    fold(`M${cx - 86} ${sy + 122}Q${cx - 62} ${sy + 150} ${cx - 46} ${sy + 196}`, 6, 0.12) +
    fold(`M${cx + 86} ${sy + 122}Q${cx + 62} ${sy + 150} ${cx + 46} ${sy + 196}`, 6, 0.12);
  if (hemY - wy > 60) {
    for (let i = 0; i < 5; i++) {
      const x0 = cx - 70 + i * 35 + (rng() - 0.5) * 14,
        y0 = wy + 10 + rng() * 60;
      const x1 = x0 + (x0 - cx) * 0.18 + (rng() - 0.5) * 10;
      folds += fold(
        `M${r(x0)} ${r(y0)}C${r(x0 + 3)} ${r(y0 + 80)} ${r(x1 - 3)} ${hemY - 80} ${r(x1)} ${hemY + 4}`,
        7 + rng() * 5,
        0.1 + rng() * 0.05,
        i % 2 === 1,
      );
    }
  }
  const body = piece(S, geom(0, nd), 'url(#f1)', { folds });
  out += body.out;
  // embroidery
  if (!o.back && ctx.p.emb !== 'none') {
    const nb = neckPts(cx, sy, nw + 9, nd + 9, neck);
    out += band(nb, {
      h: 18,
      fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.08 : 0.08),
      m: ctx.m,
      clip: body.cid,
      motifs: ['mf', 'ml'],
      sc: 0.8,
      step: 17,
    });
    if (o.placket !== false && hemY - sy > 200) {
      out += band(line([cx, sy + nd - 4], [cx, sy + nd + 92], 6), {
        h: 26,
        fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.08 : 0.08),
        m: ctx.m,
        clip: body.cid,
        motifs: ['mf', 'ml'],
        sc: 0.9,
        step: 22,
      });
      out += `<path d="M${cx} ${sy + nd}V${sy + nd + 70}" stroke="#1a0f08" stroke-opacity=".45" stroke-width="1.6"/>`;
    }
  } else if (!o.back && o.placket !== false && hemY - sy > 200) {
    out += `<path d="M${cx} ${sy + nd}V${sy + nd + 70}" stroke="#1a0f08" stroke-opacity=".4" stroke-width="1.6"/><path d="M${cx - 6} ${sy + nd}V${sy + nd + 74}H${cx + 6}V${sy + nd}" fill="none" stroke="#1a0f08" stroke-opacity=".18" stroke-width="1" stroke-dasharray="3 2"/>`;
  } else if (o.back && o.dori) {
    out += dori(ctx, cx, sy + 12);
  }
  // hem band
  const hp = sample([[H[0] - 20, hemY - 1], [cx, hemY + 9], mp([H[0] - 20, hemY - 1])], 24);
  if (ctx.p.emb !== 'none' || o.hemBand)
    out += band(offsetPts(hp, -(o.hemH ?? 26) / 2 + 1), {
      h: o.hemH ?? 26,
      fill: o.hemFill || shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
      m: ctx.m,
      clip: body.cid,
      motifs: ['mf', 'mp', 'ml'],
    });
  // side seams / armhole seam hints
  out += `<g fill="none" stroke="#1a0f08" stroke-opacity=".2" stroke-width="1.2"><path d="M${cx - 98} ${sy + 24}C${cx - 100} ${sy + 60} ${cx - 96} ${sy + 92} ${cx - 92} ${sy + 112}"/><path d="M${cx + 98} ${sy + 24}C${cx + 100} ${sy + 60} ${cx + 96} ${sy + 92} ${cx + 92} ${sy + 112}"/></g>`;
  return out;
}

// Sleeve (left) + mirrored copy via <use>
function sleeve(S, ctx, kind, sy, cuffY, type, o = {}) {
  const cx = 400,
    _rng = ctx.rng;
  let d, cuffA, cuffB;
  if (kind === 'w') {
    if (type === 'short' || type === 'puff') {
      const cy = sy + (type === 'puff' ? 96 : 118),
        ow = type === 'puff' ? 162 : 148;
      d = `M${P([cx - 97, sy + 22])}C${P([cx - 130, sy + 18])} ${P([cx - ow, sy + 50])} ${P([cx - ow + 2, cy])}Q${P([cx - 124, cy + 12])} ${P([cx - 98, cy + 2])}L${P([cx - 92, sy + 108])}Z`;
      cuffA = [cx - ow - 6, cy - 8];
      cuffB = [cx - 92, cy - 6];
    } else {
      const dy = cuffY - (sy + 118),
        ox = cx - 138 - dy * 0.09,
        ix = cx - 100 - dy * 0.05;
      d = `M${P([cx - 97, sy + 22])}C${P([cx - 122, sy + 32])} ${P([cx - 132, sy + 78])} ${P([cx - 138, sy + 118])}L${P([ox, cuffY])}Q${P([(ox + ix) / 2, cuffY + 9])} ${P([ix, cuffY + 3])}L${P([cx - 93, sy + 122])}Z`;
      cuffA = [ox - 6, cuffY - 11];
      cuffB = [ix + 8, cuffY - 7];
    }
  } else {
    const dy = cuffY - (sy + 150),
      ox = cx - 148 - dy * 0.06,
      ix = cx - 114 - dy * 0.01;
    d = `M${P([cx - 110, sy + 26])}C${P([cx - 134, sy + 40])} ${P([cx - 142, sy + 96])} ${P([cx - 148, sy + 150])}L${P([ox, cuffY])}Q${P([(ox + ix) / 2, cuffY + 7])} ${P([ix, cuffY + 3])}L${P([cx - 104, sy + 134])}Z`;
    cuffA = [ox - 6, cuffY - 13];
    cuffB = [ix + 8, cuffY - 10];
  }
  const midY = (sy + (cuffY || sy + 110)) / 2;
  const folds =
    fold(`M${cx - 140} ${r(midY - 10)}Q${cx - 122} ${r(midY + 4)} ${cx - 108} ${r(midY + 18)}`, 6, 0.16) +
    fold(`M${cx - 146} ${r(midY + 30)}Q${cx - 128} ${r(midY + 40)} ${cx - 110} ${r(midY + 58)}`, 5, 0.12) +
    fold(
      `M${cx - 126} ${sy + 50}Q${cx - 128} ${r(midY)} ${cx - 136} ${r((cuffY || sy + 100) - 10)}`,
      9,
      0.14,
      true,
    );
  const pc = piece(S, d, 'url(#f1)', { folds });
  let s = pc.out;
  const cp = line(cuffA, cuffB, 4);
  if (kind === 'm') {
    const h = 24;
    s += `<g clip-path="url(#${pc.cid})"><path d="${polyD(offsetPts(cp, 2))}" stroke="#1a0f08" stroke-opacity=".25" stroke-width="${h}" fill="none"/><path d="${polyD(offsetPts(cp, -9))}" stroke="#1a0f08" stroke-opacity=".35" stroke-width="1.3" fill="none"/></g>`;
    if (o.cuffEmb)
      s += band(offsetPts(cp, 2), {
        h: 22,
        fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
        m: ctx.m,
        clip: pc.cid,
        motifs: ['mf', 'ml'],
        sc: 0.8,
        step: 16,
      });
    else
      s += `<circle cx="${r(cuffB[0] - 10)}" cy="${r(cuffB[1] + 6)}" r="3.2" fill="${shade(ctx.base, lum(ctx.base) > 0.5 ? -0.3 : 0.3)}"/>`;
  } else if (ctx.p.emb !== 'none' || o.hemBand) {
    s += band(offsetPts(cp, 2), {
      h: 20,
      fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
      m: ctx.m,
      clip: pc.cid,
      motifs: ['mf', 'ml'],
      sc: 0.75,
      step: 15,
    });
  }
  const id = S.id('s');
  S.def(`<g id="${id}">${s}</g>`);
  return `<use href="#${id}"/><use href="#${id}" transform="${MIRROR}"/>`;
}

function dori(ctx, x, y) {
  const m = ctx.metal || ctx.m;
  return (
    `<g fill="none" stroke="${m.c}" stroke-width="2"><path d="M${x - 4} ${y}C${x - 8} ${y + 60} ${x - 18} ${y + 90} ${x - 14} ${y + 130}M${x + 4} ${y}C${x + 8} ${y + 60} ${x + 14} ${y + 100} ${x + 10} ${y + 142}"/></g>` +
    `<g fill="url(#bt)"><circle cx="${x - 14}" cy="${y + 134}" r="6"/><circle cx="${x + 10}" cy="${y + 146}" r="6"/></g>`
  );
}

// Trousers: 'straight' | 'shalwar' | 'churidar' | 'tights'
function trousers(S, ctx, type, top, o = {}) {
  const cx = 400,
    bot = o.bot ?? 736,
    rng = ctx.rng,
    fill = o.fill || 'url(#f2)';
  let d,
    folds = '';
  if (type === 'shalwar') {
    d = `M${cx - 104} ${top}C${cx - 126} ${top + 80} ${cx - 122} ${bot - 70} ${cx - 88} ${bot - 18}L${cx - 86} ${bot}L${cx - 26} ${bot}L${cx - 24} ${bot - 18}C${cx - 10} ${bot - 70} ${cx - 4} ${top + 80} ${cx} ${top + 20}L${cx} ${top}Z`;
    const xs = [cx - 96, cx - 74, cx - 58, cx - 36, cx - 18];
    xs.forEach((x0, i) => {
      const x1 = cx - 82 + i * 13 + (rng() - 0.5) * 6,
        ys = top + 20 + rng() * 60;
      folds += fold(
        `M${r(x0 + (rng() - 0.5) * 8)} ${r(ys)}C${r(x0 - 8 + rng() * 10)} ${r(bot - 150)} ${r(x1 - 6)} ${bot - 70} ${r(x1)} ${bot - 18}`,
        5 + rng() * 7,
        0.08 + rng() * 0.06,
        i % 2 === 1,
      );
    });
    folds += fold(`M${cx - 112} ${bot - 70}Q${cx - 60} ${bot - 36} ${cx - 20} ${bot - 40}`, 6, 0.1);
  } else if (type === 'churidar' || type === 'tights') {
    const wO = type === 'tights' ? 44 : 56;
    d = `M${cx - wO - 4} ${top}C${cx - wO - 2} ${top + 60} ${cx - wO + 8} ${bot - 40} ${cx - wO + 12} ${bot}L${cx - 12} ${bot}C${cx - 10} ${bot - 40} ${cx - 6} ${top + 60} ${cx - 1} ${top}Z`;
    if (type === 'churidar')
      for (let i = 0; i < 5; i++)
        folds +=
          fold(`M${cx - 52} ${bot - 12 - i * 11}q16 ${5 + rng() * 3} 38 0`, 3, 0.22) +
          fold(`M${cx - 52} ${bot - 16 - i * 11}q16 ${5} 38 0`, 2, 0.18, true);
  } else {
    d = `M${cx - 72} ${top}C${cx - 70} ${top + 120} ${cx - 62} ${bot - 80} ${cx - 58} ${bot}L${cx - 14} ${bot}C${cx - 12} ${bot - 80} ${cx - 6} ${top + 120} ${cx - 1} ${top + 40}L${cx - 1} ${top}Z`;
    folds =
      fold(
        `M${cx - 44} ${top + 40}C${cx - 44} ${top + 120} ${cx - 40} ${bot - 60} ${cx - 38} ${bot}`,
        7,
        0.14,
        true,
      ) + fold(`M${cx - 60} ${bot - 60}Q${cx - 40} ${bot - 50} ${cx - 18} ${bot - 58}`, 4, 0.12);
  }
  const pc = piece(S, d, fill, { folds });
  let s = pc.out;
  if (type === 'shalwar')
    s += `<g clip-path="url(#${pc.cid})"><path d="M${cx - 90} ${bot - 9}H${cx - 20}" stroke="#1a0f08" stroke-opacity=".2" stroke-width="18"/><path d="M${cx - 90} ${bot - 18}H${cx - 20}" stroke="#1a0f08" stroke-opacity=".3" stroke-width="1.2"/></g>`;
  if (o.ankle && ctx.p.emb !== 'none')
    s += band(line([cx - 70, bot - 10], [cx, bot - 10], 3), {
      h: 18,
      fill: shade(ctx.second, -0.1),
      m: ctx.m,
      clip: pc.cid,
      sc: 0.7,
      step: 14,
    });
  const id = S.id('l');
  S.def(`<g id="${id}">${s}</g>`);
  return `<use href="#${id}"/><use href="#${id}" transform="${MIRROR}"/>`;
}

function tassels(pts, color, n = 7) {
  let s = `<g stroke="${color}" stroke-width="1.6" fill="none">`,
    b = '';
  const step = Math.floor(pts.length / n) || 1;
  for (let i = 1; i < pts.length - 1; i += step) {
    const [x, y] = pts[i];
    s += `<path d="M${r(x)} ${r(y)}v16"/>`;
    b += `<circle cx="${r(x)}" cy="${r(y + 19)}" r="3.6"/>`;
  }
  return `${s}</g><g fill="${color}">${b}</g>`;
}

// Dupatta draped over the (viewer's) right shoulder, plus a back fall on the left.
function dupattaDrape(S, ctx, sy, bot, o = {}) {
  const cx = 400,
    rng = ctx.rng;
  const op = o.op ?? 0.86;
  let back = '';
  if (o.backFall !== false) {
    const d = `M${cx - 96} ${sy + 22}C${cx - 134} ${sy + 26} ${cx - 158} ${sy + 120} ${cx - 166} ${sy + 200}L${cx - 196} ${bot - 40}Q${cx - 166} ${bot - 22} ${cx - 134} ${bot - 32}L${cx - 112} ${sy + 140}Z`;
    const pc = piece(S, d, 'url(#f3)', { dark: 0.12, op });
    back =
      pc.out +
      band(
        sample(
          [
            [cx - 200, bot - 52],
            [cx - 166, bot - 34],
            [cx - 130, bot - 44],
          ],
          8,
        ),
        { h: 22, fill: shade(ctx.dupBase, -0.12), m: ctx.m, clip: pc.cid, sc: 0.7, step: 14 },
      ) +
      tassels(
        sample(
          [
            [cx - 196, bot - 40],
            [cx - 166, bot - 22],
            [cx - 134, bot - 32],
          ],
          8,
        ),
        ctx.m.c,
        4,
      );
  }
  const d = `M${cx + 28} ${sy}C${cx + 62} ${sy - 14} ${cx + 100} ${sy + 4} ${cx + 118} ${sy + 30}C${cx + 126} ${sy + 200} ${cx + 140} ${bot - 150} ${cx + 152} ${bot}Q${cx + 110} ${bot + 14} ${cx + 64} ${bot + 4}C${cx + 58} ${bot - 200} ${cx + 52} ${sy + 200} ${cx + 46} ${sy + 60}Q${cx + 40} ${sy + 20} ${cx + 28} ${sy}Z`;
  let folds = '';
  for (let i = 0; i < 4; i++) {
    const x0 = cx + 62 + i * 16 + rng() * 6;
    folds += fold(
      `M${r(x0)} ${sy + 40}C${r(x0 + 4)} ${sy + 220} ${r(x0 + 10)} ${bot - 160} ${r(x0 + 18 + i * 4)} ${bot + 8}`,
      5 + rng() * 4,
      0.14,
      i % 2 === 1,
    );
  }
  const pc = piece(S, d, 'url(#f3)', { folds, op });
  const bp = sample(
    [
      [cx + 156, bot - 12],
      [cx + 110, bot + 2],
      [cx + 60, bot - 8],
    ],
    10,
  );
  const front =
    pc.out +
    band(bp, { h: 30, fill: shade(ctx.dupBase, -0.12), m: ctx.m, clip: pc.cid, motifs: ['mf', 'mp'] }) +
    tassels(
      sample(
        [
          [cx + 152, bot],
          [cx + 110, bot + 14],
          [cx + 64, bot + 4],
        ],
        12,
      ),
      ctx.m.c,
      6,
    );
  return { back, front };
}

// Men's top: kameez / kurta / sherwani / prince coat
function menTop(S, ctx, o) {
  const cx = 400,
    sy = o.sy ?? 140,
    hemY = o.hemY,
    fl = o.flare ?? 0,
    slit = o.slit ?? hemY - 70,
    rng = ctx.rng;
  const wIn = o.fitted ? 10 : 0;
  const geom = (extra, nd) => {
    const segs = [
      {
        c: 'Q',
        p: [
          [cx - 74, sy + 8],
          [cx - 112, sy + 26],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 114, sy + 66],
          [cx - 108, sy + 100],
          [cx - 104, sy + 124],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 100 + wIn, sy + 180],
          [cx - 100 + wIn, sy + 220],
          [cx - 100 + wIn, sy + 250],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 101 + wIn * 0.5, slit - 80],
          [cx - 102 - fl * 0.3, slit - 20],
          [cx - 102 - fl * 0.4, slit],
        ],
      },
      { c: 'L', p: [[cx - 104 - fl - extra, hemY - 14]] },
    ];
    return symPath(
      cx,
      [cx - 36, sy + 2],
      segs,
      {
        c: 'C',
        ctrl: [
          [cx - 104 - fl - extra, hemY + 10],
          [cx + 104 + fl + extra, hemY + 10],
        ],
      },
      neckD(cx, sy + 2, 36, nd, 'round'),
    );
  };
  let out = '';
  out += piece(S, geom(14, 12), 'url(#f1)', { dark: 0.3, shade: false }).out;
  out += sleeve(S, ctx, 'm', sy, o.cuffY ?? 520, 'full', { cuffEmb: o.cuffEmb });
  let folds =
    fold(`M${cx - 98} ${sy + 132}Q${cx - 70} ${sy + 160} ${cx - 52} ${sy + 210}`, 6, 0.12) +
    fold(`M${cx + 98} ${sy + 132}Q${cx + 70} ${sy + 160} ${cx + 52} ${sy + 210}`, 6, 0.12);
  for (let i = 0; i < 4; i++) {
    const x0 = cx - 66 + i * 44 + (rng() - 0.5) * 14,
      y0 = sy + 250 + rng() * 60;
    folds += fold(
      `M${r(x0)} ${r(y0)}C${r(x0 + 2)} ${r(y0 + 80)} ${r(x0 - 2)} ${hemY - 80} ${r(x0 + (x0 - cx) * 0.1)} ${hemY + 4}`,
      7 + rng() * 4,
      0.1,
      i % 2 === 0,
    );
  }
  const body = piece(S, geom(0, o.back ? 8 : 36), 'url(#f1)', { folds });
  out += body.out;
  const dk = shade(ctx.base, lum(ctx.base) > 0.5 ? -0.35 : 0.35);
  if (o.coat) {
    // centre front opening, buttons, embroidered front edge
    if (!o.back) {
      if (ctx.p.emb !== 'none')
        out += band(line([cx, sy + 36], [cx, hemY + 6], 20), {
          h: 22,
          fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
          m: ctx.m,
          clip: body.cid,
          motifs: ['ml', 'mf'],
          sc: 0.8,
          step: 18,
        });
      out += `<path d="M${cx} ${sy + 36}V${hemY + 8}" stroke="#1a0f08" stroke-opacity=".5" stroke-width="1.6"/>`;
      const nB = o.buttons ?? 8;
      let b = '';
      for (let i = 0; i < nB; i++) b += `<circle cx="${cx}" cy="${sy + 50 + i * 34}" r="5.5"/>`;
      out += `<g fill="url(#bt)" stroke="${ctx.m.lo}" stroke-width=".8">${b}</g>`;
      if (o.pocket)
        out += `<path d="M${cx + 40} ${sy + 130}h46" stroke="#1a0f08" stroke-opacity=".45" stroke-width="3"/><path d="M${cx + 44} ${sy + 130}l8-16 8 10 8-14 8 12 6-8v16z" fill="${ctx.acc}"/>`;
    } else {
      out += `<path d="M${cx} ${sy + 30}V${hemY + 8}" stroke="#1a0f08" stroke-opacity=".3" stroke-width="1.4"/>`;
    }
    if (ctx.p.emb !== 'none') {
      const hp = sample(
        [
          [cx - 130, hemY - 15],
          [cx, hemY + 8],
          [cx + 130, hemY - 15],
        ],
        20,
      );
      out += band(offsetPts(hp, -12), {
        h: 26,
        fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
        m: ctx.m,
        clip: body.cid,
        motifs: ['mf', 'mp'],
      });
    }
  } else if (!o.back) {
    // placket with buttons
    const pl = o.placketLen ?? 150;
    out += `<rect x="${cx - 11}" y="${sy + 36}" width="22" height="${pl}" rx="2" fill="#1a0f08" fill-opacity=".06" stroke="#1a0f08" stroke-opacity=".32" stroke-width="1.2"/>`;
    if (ctx.p.emb !== 'none')
      out +=
        band(line([cx - 19, sy + 30], [cx - 19, sy + 36 + pl], 8), {
          h: 12,
          fill: 'none',
          m: ctx.m,
          clip: body.cid,
          sc: 0.5,
          step: 11,
        }) +
        band(line([cx + 19, sy + 30], [cx + 19, sy + 36 + pl], 8), {
          h: 12,
          fill: 'none',
          m: ctx.m,
          clip: body.cid,
          sc: 0.5,
          step: 11,
        });
    let b = '';
    for (let i = 0; i < 4; i++) b += `<circle cx="${cx}" cy="${sy + 54 + (i * (pl - 30)) / 3}" r="4.2"/>`;
    out += `<g fill="${ctx.metal ? 'url(#bt)' : dk}" stroke="#1a0f08" stroke-opacity=".3" stroke-width=".8">${b}</g>`;
  }
  out += `<g fill="none" stroke="#1a0f08" stroke-opacity=".2" stroke-width="1.2"><path d="M${cx - 112} ${sy + 26}C${cx - 114} ${sy + 66} ${cx - 108} ${sy + 100} ${cx - 104} ${sy + 124}"/><path d="M${cx + 112} ${sy + 26}C${cx + 114} ${sy + 66} ${cx + 108} ${sy + 100} ${cx + 104} ${sy + 124}"/></g>`;
  out += collar(S, ctx, sy + 2, o.collar ?? 'band', o.collarEmb, o.back);
  return out;
}

function collar(S, ctx, y, type, emb, back) {
  const cx = 400;
  let s = '';
  if (!back)
    s += piece(
      S,
      `M${cx - 34} ${y - 16}Q${cx} ${y - 26} ${cx + 34} ${y - 16}L${cx + 36} ${y}Q${cx} ${y - 8} ${cx - 36} ${y}Z`,
      'url(#f1)',
      { dark: 0.38, shade: false },
    ).out;
  if (back) {
    const pc = piece(
      S,
      `M${cx - 36} ${y}Q${cx} ${y + 16} ${cx + 36} ${y}L${cx + 34} ${y - 17}Q${cx} ${y - 10} ${cx - 34} ${y - 17}Z`,
      'url(#f1)',
      {},
    );
    s += pc.out;
    if (emb)
      s += band(
        sample(
          [
            [cx - 40, y - 8],
            [cx, y + 2],
            [cx + 40, y - 8],
          ],
          10,
        ),
        { h: 12, fill: 'none', m: ctx.m, clip: pc.cid, sc: 0.5, step: 10 },
      );
    return s;
  }
  const half = `M${cx - 36} ${y}C${cx - 36} ${y + 20} ${cx - 20} ${y + 32} ${cx - 3} ${y + 34}L${cx - 3} ${y + 16}C${cx - 18} ${y + 14} ${cx - 32} ${y + 2} ${cx - 34} ${y - 16}Z`;
  const pc = piece(S, half, 'url(#f1)', {});
  let hs = pc.out;
  if (emb)
    hs += band(
      sample(
        [
          [cx - 35, y - 8],
          [cx - 32, y + 14],
          [cx - 3, y + 25],
        ],
        10,
      ),
      { h: 13, fill: 'none', m: ctx.m, clip: pc.cid, sc: 0.5, step: 10 },
    );
  if (type === 'shirt') {
    const pt = piece(
      S,
      `M${cx - 38} ${y - 2}C${cx - 30} ${y + 14} ${cx - 16} ${y + 28} ${cx - 3} ${y + 36}L${cx - 30} ${y + 52}C${cx - 42} ${y + 36} ${cx - 50} ${y + 18} ${cx - 50} ${y + 6}Z`,
      'url(#f1)',
      { lo: 0.4 },
    );
    hs += pt.out;
  }
  const id = S.id('k');
  S.def(`<g id="${id}">${hs}</g>`);
  return `${s}<use href="#${id}"/><use href="#${id}" transform="${MIRROR}"/>`;
}

// Waistcoat (front/back)
function waistcoat(S, ctx, back) {
  const cx = 400,
    sy = 150,
    hemY = 610,
    rng = ctx.rng;
  const lining =
    ctx.p.c[1] && COLORS[ctx.p.c[1]] !== COLORS.Gold ? COLORS[ctx.p.c[1]] : shade(ctx.base, -0.35);
  S.def(fabricDef(S, 'fl', 'plain', lining, lining, lining));
  const outline = (armDeep, nd) => {
    const segs = [
      {
        c: 'Q',
        p: [
          [cx - 66, sy + 6],
          [cx - 100, sy + 24],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 94 + armDeep * 0.2, sy + 80],
          [cx - 86 + armDeep * 0.3, sy + 150],
          [cx - 124 + armDeep * 0.2, sy + 182 - armDeep],
        ],
      },
      {
        c: 'C',
        p: [
          [cx - 128, sy + 260],
          [cx - 126, hemY - 140],
          [cx - 130, hemY - 24],
        ],
      },
    ];
    return symPath(
      cx,
      [cx - 38, sy + 2],
      segs,
      back
        ? { c: 'Q', ctrl: [[cx, hemY + 4]] }
        : {
            c: 'C',
            ctrl: [
              [cx - 70, hemY + 14],
              [cx - 8, hemY + 32],
            ],
          },
      neckD(cx, sy + 2, 38, nd, 'round'),
    );
  };
  let out = piece(S, outline(40, 12), 'url(#fl)', { dark: 0.2, shade: false }).out;
  let folds =
    fold(`M${cx - 110} ${sy + 200}Q${cx - 80} ${sy + 230} ${cx - 60} ${sy + 290}`, 7, 0.1) +
    fold(`M${cx + 110} ${sy + 200}Q${cx + 80} ${sy + 230} ${cx + 60} ${sy + 290}`, 7, 0.1);
  for (let i = 0; i < 3; i++) {
    const x0 = cx - 80 + i * 80 + (rng() - 0.5) * 16;
    folds += fold(
      `M${r(x0)} ${sy + 240}C${r(x0 + 4)} ${sy + 320} ${r(x0)} ${hemY - 80} ${r(x0 + 4)} ${hemY}`,
      10,
      0.08,
      i === 1,
    );
  }
  const body = piece(S, outline(0, back ? 8 : 34), 'url(#f1)', { folds });
  out += body.out;
  if (!back) {
    out += `<path d="M${cx} ${sy + 36}V${hemY + 28}" stroke="#1a0f08" stroke-opacity=".5" stroke-width="1.6"/>`;
    let b = '';
    for (let i = 0; i < 6; i++) b += `<circle cx="${cx}" cy="${sy + 58 + i * 70}" r="6.5"/>`;
    const btnFill = ctx.metal ? 'url(#bt)' : shade(ctx.base, lum(ctx.base) > 0.5 ? -0.45 : 0.4);
    out += `<g fill="${btnFill}" stroke="#1a0f08" stroke-opacity=".35" stroke-width="1">${b}</g>`;
    const welt = (x, y, w, a) =>
      `<g transform="rotate(${a} ${x + w / 2} ${y})"><rect x="${x}" y="${y - 4}" width="${w}" height="8" rx="1.5" fill="#1a0f08" fill-opacity=".12" stroke="#1a0f08" stroke-opacity=".4" stroke-width="1.1"/><path d="M${x + 2} ${y + 5}h${w - 4}" stroke="#fff" stroke-opacity=".2" stroke-width="1.5"/></g>`;
    out +=
      welt(cx - 104, sy + 370, 68, -6) + welt(cx + 36, sy + 370, 68, 6) + welt(cx + 40, sy + 150, 52, -4);
    if (ctx.p.c[1])
      out += `<path d="M${cx + 46} ${sy + 146}l7-18 8 12 9-16 8 14 7-10 4 18z" fill="${lining}" stroke="#1a0f08" stroke-opacity=".3" stroke-width=".8"/>`;
  } else {
    out += `<path d="M${cx} ${sy + 20}V${hemY + 4}" stroke="#1a0f08" stroke-opacity=".3" stroke-width="1.4"/>`;
    const bl = piece(S, `M${cx - 80} ${sy + 330}h160v26h-160z`, 'url(#f1)', { lo: 0.4 });
    out += `${bl.out}<g fill="url(#bt)"><circle cx="${cx - 30}" cy="${sy + 343}" r="5"/><circle cx="${cx + 30}" cy="${sy + 343}" r="5"/></g>`;
  }
  if (ctx.hasEmb && !back) {
    out += band(neckPts(cx, sy + 2, 44, 40, 'round'), {
      h: 14,
      fill: 'none',
      m: ctx.m,
      clip: body.cid,
      sc: 0.6,
      step: 12,
    });
  }
  out += collar(S, ctx, sy + 2, 'band', ctx.hasEmb, back);
  return out;
}

// Flared skirt (lehenga / anarkali / frock)
function skirt(S, ctx, top, hemY, wTop, wHem, o = {}) {
  const cx = 400,
    rng = ctx.rng;
  const d = `M${cx - wTop} ${top}Q${cx} ${top + 8} ${cx + wTop} ${top}C${cx + wTop + (wHem - wTop) * 0.3} ${top + (hemY - top) * 0.35} ${cx + wHem - 30} ${hemY - 80} ${cx + wHem} ${hemY}Q${cx} ${hemY + 50} ${cx - wHem} ${hemY}C${cx - wHem + 30} ${hemY - 80} ${cx - wTop - (wHem - wTop) * 0.3} ${top + (hemY - top) * 0.35} ${cx - wTop} ${top}Z`;
  let folds = '';
  const n = o.kalis ?? 12;
  for (let i = 0; i <= n; i++) {
    const t = i / n - 0.5;
    const x0 = cx + t * wTop * 1.7,
      x1 = cx + t * wHem * 2.05 + (rng() - 0.5) * 12;
    const y1 = hemY + 25 - Math.abs(t) * 50;
    folds += fold(
      `M${r(x0)} ${top + 10}C${r(x0 + t * 20)} ${r(top + (hemY - top) * 0.4)} ${r(x1 - t * 30)} ${r(hemY - 120)} ${r(x1)} ${r(y1)}`,
      9 + rng() * 8,
      0.12 + rng() * 0.06,
      i % 2 === 0,
    );
  }
  const pc = piece(S, d, o.fill || 'url(#f1)', { folds, op: o.op });
  let out = pc.out;
  const hp = sample(
    [
      [cx - wHem - 10, hemY - 3],
      [cx, hemY + 51],
      [cx + wHem + 10, hemY - 3],
    ],
    24,
  );
  const hh = o.hemH ?? 48;
  if (ctx.hasEmb || o.hemBand) {
    out += band(offsetPts(hp, -hh / 2 + 2), {
      h: hh,
      fill: o.hemFill || shade(ctx.base, lum(ctx.base) > 0.6 ? -0.12 : 0.12),
      m: ctx.m,
      clip: pc.cid,
      motifs: ['mf', 'mp', 'ml'],
    });
    if (o.second !== false)
      out += band(offsetPts(hp, -hh - 26), {
        h: 14,
        fill: 'none',
        m: ctx.m,
        clip: pc.cid,
        motifs: ['ml'],
        sc: 0.6,
        step: 20,
      });
  }
  // waistband
  out += band(
    sample(
      [
        [cx - wTop - 4, top + 5],
        [cx, top + 13],
        [cx + wTop + 4, top + 5],
      ],
      8,
    ),
    {
      h: 14,
      fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.12 : 0.12),
      m: ctx.m,
      clip: pc.cid,
      sc: 0.55,
      step: 11,
    },
  );
  return out;
}

// Shawl: flat-lay folded with border and fringe
function shawlArt(S, ctx) {
  const { base, acc, acc2 } = ctx;
  const x = 135,
    y = 180,
    w = 530,
    h = 400;
  let out = `<g transform="rotate(-5 400 400)">`;
  out += `<rect x="${x + 6}" y="${y + 18}" width="${w}" height="${h}" rx="10" fill="#2a1f16" fill-opacity=".28" filter="url(#b2)"/>`;
  // folded layers (thickness)
  for (let i = 3; i >= 1; i--)
    out += `<rect x="${x}" y="${y + i * 5}" width="${w}" height="${h}" rx="8" fill="${shade(base, -0.12 - i * 0.05)}"/>`;
  const pc = piece(
    S,
    `M${x} ${y + 8}Q${x} ${y} ${x + 8} ${y}H${x + w - 8}Q${x + w} ${y} ${x + w} ${y + 8}V${y + h}H${x}Z`,
    'url(#f1)',
    {
      folds:
        fold(`M${x} ${y + h * 0.48}H${x + w}`, 16, 0.18) +
        fold(`M${x} ${y + h * 0.48 + 12}H${x + w}`, 8, 0.2, true) +
        fold(
          `M${x + 40} ${y + 40}C${x + 160} ${y + 60} ${x + 280} ${y + 20} ${x + w - 30} ${y + 60}`,
          14,
          0.12,
          true,
        ),
    },
  );
  out += pc.out;
  // border frame
  const bw = 42,
    fillB = shade(acc, -0.15);
  const edge = [
    [x + bw / 2, y + h + 10],
    [x + bw / 2, y + bw / 2],
    [x + w - bw / 2, y + bw / 2],
    [x + w - bw / 2, y + h + 10],
  ];
  out += band(
    [
      ...line(edge[0], edge[1], 10),
      ...line(edge[1], edge[2], 16).slice(1),
      ...line(edge[2], edge[3], 10).slice(1),
    ],
    {
      h: bw,
      fill: fillB,
      m: { c: acc2, hi: shade(acc2, 0.5), lo: shade(acc2, -0.3) },
      clip: pc.cid,
      motifs: ['mp', 'mf'],
    },
  );
  out += band(line([x - 10, y + h - 30], [x + w + 10, y + h - 30], 20), {
    h: 56,
    fill: shade(acc2, -0.3),
    m: { c: acc, hi: shade(acc, 0.4), lo: acc },
    clip: pc.cid,
    motifs: ['mp', 'mf', 'ml'],
  });
  // fringe
  let fr = '';
  for (let fx = x + 4; fx < x + w - 2; fx += 5)
    fr += `M${fx} ${y + h}q${Math.round((ctx.rng() - 0.5) * 6)} 16 ${Math.round((ctx.rng() - 0.5) * 5)} ${Math.round(26 + ctx.rng() * 8)}`;
  out += `<path d="${fr}" fill="none" stroke="${shade(base, -0.1)}" stroke-width="2.2" stroke-linecap="round"/>`;
  out += `<path d="${fr}" fill="none" stroke="#fff" stroke-opacity=".18" stroke-width=".8"/>`;
  // folded-back corner flap
  const fp = piece(
    S,
    `M${x + w - 120} ${y}Q${x + w - 60} ${y + 50} ${x + w} ${y + 120}L${x + w - 40} ${y + 40}Z`,
    'url(#f1)',
    { folds: fold(`M${x + w - 110} ${y + 8}L${x + w - 10} ${y + 108}`, 10, 0.2, true) },
  );
  out += `<path d="M${x + w - 120} ${y}Q${x + w - 60} ${y + 50} ${x + w} ${y + 120}" fill="none" stroke="#2a1f16" stroke-opacity=".3" stroke-width="10" filter="url(#bl)" transform="translate(4 6)"/>${fp.out}`;
  return `${out}</g>`;
}

// Dupatta hanging around an invisible neck
function dupattaArt(S, ctx) {
  const cx = 400,
    sy = 120,
    bot = 700,
    rng = ctx.rng;
  let out = piece(
    S,
    `M${cx - 70} ${sy + 40}C${cx - 50} ${sy - 6} ${cx + 50} ${sy - 6} ${cx + 70} ${sy + 40}L${cx + 40} ${sy + 56}C${cx + 20} ${sy + 24} ${cx - 20} ${sy + 24} ${cx - 40} ${sy + 56}Z`,
    'url(#f1)',
    { dark: 0.3, op: 0.92 },
  ).out;
  const side = (_flip) => {
    const d = `M${cx - 40} ${sy + 50}C${cx - 60} ${sy + 10} ${cx - 100} ${sy + 20} ${cx - 130} ${sy + 70}C${cx - 150} ${sy + 250} ${cx - 176} ${bot - 180} ${cx - 190} ${bot}Q${cx - 130} ${bot + 16} ${cx - 60} ${bot - 2}C${cx - 56} ${bot - 200} ${cx - 44} ${sy + 240} ${cx - 40} ${sy + 50}Z`;
    let folds = '';
    for (let i = 0; i < 6; i++) {
      const x0 = cx - 128 + i * 14 + rng() * 4;
      folds += fold(
        `M${r(x0 + 10)} ${sy + 80}C${r(x0)} ${sy + 260} ${r(x0 - 14)} ${bot - 180} ${r(x0 - 40 + i * 8)} ${bot + 10}`,
        6 + rng() * 5,
        0.16,
        i % 2 === 1,
      );
    }
    const pc = piece(S, d, 'url(#f1)', { folds, op: 0.93 });
    const bp = sample(
      [
        [cx - 196, bot - 16],
        [cx - 130, bot],
        [cx - 56, bot - 18],
      ],
      12,
    );
    const s =
      pc.out +
      band(offsetPts(bp, 2), {
        h: 44,
        fill: shade(ctx.base, -0.12),
        m: ctx.m,
        clip: pc.cid,
        motifs: ['mf', 'mp', 'ml'],
      }) +
      band(
        sample(
          [
            [cx - 132, sy + 60],
            [cx - 160, sy + 380],
            [cx - 192, bot],
          ],
          20,
        ),
        { h: 12, fill: 'none', m: ctx.m, clip: pc.cid, sc: 0.5, step: 12 },
      ) +
      tassels(
        sample(
          [
            [cx - 190, bot],
            [cx - 130, bot + 16],
            [cx - 60, bot - 2],
          ],
          14,
        ),
        ctx.m.c,
        7,
      );
    return s;
  };
  const id = S.id('d');
  S.def(`<g id="${id}">${side()}</g>`);
  out += `<use href="#${id}"/><use href="#${id}" transform="${MIRROR} translate(0 10)"/>`;
  return out;
}

// ---------------------------------------------------------------- compositions
const KID = (inner, s = 0.86) =>
  `<g transform="translate(400 738) scale(${s}) translate(-400 -738)">${inner}</g>`;

export function renderMain(p, rng, view = 'front') {
  const S = new Svg(800, 800);
  studioDefs(S);
  const ctx = makeCtx(p, rng);
  setupFabrics(S, ctx);
  const back = view === 'back';
  const t = p.t;
  let art = '';
  if (t === 'shawl') {
    S.add(shawlArt(S, ctx));
    return S.toString();
  }
  if (t === 'waistcoat') floorShadow(S, 400, 694, 150, 18);
  else
    floorShadow(
      S,
      400,
      742,
      t === 'lehenga' || t === 'anarkali' || t === 'maxi' ? 270 : t.startsWith('kid') ? 160 : 190,
    );
  if (t === 'dupatta') {
    S.add(dupattaArt(S, ctx));
    return S.toString();
  }
  if (t === 'kurta' || t === 'suit3' || t === 'kidsuit3') {
    const long = 420 + (p.len - 40) * 12;
    const kid = t === 'kidsuit3';
    const hemY = kid ? 560 : 140 + long;
    const cuffY = p.sleeve === 'full' ? 500 : 430;
    const dup = (t === 'suit3' || kid) && !back ? dupattaDrape(S, ctx, 140, kid ? 640 : 680) : null;
    art += dup ? dup.back : '';
    art += trousers(
      S,
      ctx,
      kid ? 'straight' : t === 'suit3' && p.tags.includes('winter') ? 'shalwar' : 'straight',
      hemY - 90,
      { ankle: true, fill: t === 'kurta' ? 'url(#f2)' : 'url(#f2)' },
    );
    art += womenTop(S, ctx, {
      hemY,
      cuffY,
      sleeve: kid ? 'full' : p.sleeve,
      slit: hemY - 130,
      flare: 6,
      back,
      nd: p.pat === 'chikan' ? 50 : 58,
      neck: p.pat === 'stripes' ? 'v' : 'round',
      dori: back && ctx.hasEmb,
    });
    art += dup ? dup.front : '';
    S.add(kid ? KID(art, 0.84) : art);
  } else if (t === 'anarkali' || t === 'maxi') {
    art += trousers(S, ctx, 'churidar', 640, { fill: 'url(#f1)' });
    art += skirt(S, ctx, 302, 712, 80, t === 'anarkali' ? 240 : 205, { kalis: t === 'anarkali' ? 18 : 12 });
    art += womenTop(S, ctx, {
      hemY: 312,
      cuffY: 500,
      sleeve: 'full',
      back,
      nd: 60,
      placket: false,
      dori: back,
    });
    S.add(art);
  } else if (t === 'lehenga') {
    art += skirt(S, ctx, 318, 700, 66, 258, { hemH: 56, kalis: 16 });
    art += womenTop(S, ctx, {
      hemY: 292,
      sleeve: 'short',
      back,
      nd: back ? 16 : 70,
      neck: 'round',
      placket: false,
      dori: back,
    });
    if (!back) {
      const dd = dupattaDrape(S, ctx, 140, 620, { op: 0.6, backFall: true });
      art = dd.back + art + dd.front;
    }
    S.add(art);
  } else if (t === 'mensk' || t === 'kidkurta' || t === 'kidsk') {
    const kid = t !== 'mensk';
    const hemY = kid ? 540 : 580;
    art += trousers(S, ctx, t === 'kidkurta' ? 'straight' : 'shalwar', hemY - 80, { fill: 'url(#f2)' });
    art += menTop(S, ctx, {
      hemY,
      cuffY: 520,
      back,
      collar: p.collar,
      collarEmb: ctx.hasEmb,
      cuffEmb: false,
    });
    S.add(kid ? KID(art, 0.84) : art);
  } else if (t === 'sherwani' || t === 'princecoat' || t === 'kidsherwani') {
    const kid = t === 'kidsherwani';
    const hemY = t === 'princecoat' ? 560 : 640;
    art += trousers(S, ctx, 'churidar', hemY - 60, { fill: 'url(#f2)' });
    art += menTop(S, ctx, {
      hemY,
      cuffY: 520,
      back,
      coat: true,
      fitted: true,
      flare: 14,
      slit: hemY - 90,
      collarEmb: ctx.hasEmb,
      cuffEmb: ctx.hasEmb,
      buttons: t === 'princecoat' ? 7 : 9,
      pocket: t === 'princecoat',
    });
    S.add(kid ? KID(art, 0.84) : art);
  } else if (t === 'waistcoat') {
    S.add(waistcoat(S, ctx, back));
  } else if (t === 'kidfrock') {
    art += trousers(S, ctx, 'tights', 500, { fill: 'url(#f2)' });
    art += skirt(S, ctx, 300, 560, 80, 200, { kalis: 12, hemH: 34, second: false });
    art += womenTop(S, ctx, { hemY: 310, sleeve: 'puff', back, nd: 40, nw: 36, placket: false, dori: back });
    S.add(KID(art, 0.84));
  }
  return S.toString();
}

// Macro close-up of fabric + embroidery
export function renderDetail(p, rng) {
  const S = new Svg(800, 800);
  studioDefs(S, { blur: 10 });
  const ctx = makeCtx(p, rng);
  const sc = p.pat === 'plain' || p.pat === 'herringbone' ? 3.2 : 2.6;
  setupFabrics(S, ctx, sc, true);
  S.def(
    `<radialGradient id="vg" cx=".5" cy=".5" r=".75"><stop offset=".55" stop-opacity="0"/><stop offset="1" stop-opacity=".38"/></radialGradient>`,
  );
  S.add(`<rect width="800" height="800" fill="url(#f1)"/>`);
  // soft fabric undulation
  let waves = '';
  for (let i = 0; i < 4; i++) {
    const x = -100 + i * 300 + rng() * 60;
    waves += fold(
      `M${r(x)} -60C${r(x + 120)} 200 ${r(x - 60)} 520 ${r(x + 140)} 860`,
      70 + rng() * 50,
      0.05 + rng() * 0.03,
      i % 2 === 0,
    );
  }
  S.add(`<g filter="url(#b2)" fill="none" stroke-linecap="round">${waves}</g>`);
  const big = { ...ctx.m };
  if (p.t === 'shawl') {
    // corner of the shawl: field, woven border, fringe hanging over the backdrop
    S.add(`<rect width="800" height="800" fill="url(#bg)"/>`);
    let fr = '';
    for (let x = -180; x < 1000; x += 9)
      fr += `M${x} 560q${Math.round((rng() - 0.5) * 14)} 70 ${Math.round((rng() - 0.5) * 18)} ${Math.round(120 + rng() * 40)}`;
    const cid = S.id('c');
    S.def(`<clipPath id="${cid}"><rect x="-200" y="-200" width="1200" height="765"/></clipPath>`);
    S.add(
      `<g transform="rotate(-6 400 400)"><rect x="-200" y="560" width="1200" height="40" fill="#2a1f16" fill-opacity=".25" filter="url(#b2)"/>` +
        `<path d="${fr}" fill="none" stroke="#2a1f16" stroke-opacity=".18" stroke-width="7" filter="url(#bl)" transform="translate(6 10)"/>` +
        `<path d="${fr}" fill="none" stroke="${shade(ctx.base, -0.05)}" stroke-width="5" stroke-linecap="round"/><path d="${fr}" fill="none" stroke="#fff" stroke-opacity=".2" stroke-width="1.5"/>` +
        `<rect x="-200" y="-200" width="1200" height="765" fill="url(#f1)"/>` +
        band(line([-200, 480], [1000, 480], 30), {
          h: 150,
          fill: shade(ctx.acc2, -0.3),
          m: { c: ctx.acc, hi: shade(ctx.acc, 0.45), lo: ctx.acc },
          clip: cid,
        }) +
        `<rect x="-200" y="-200" width="1200" height="765" fill="url(#sv)"/></g>`,
    );
  } else if (ctx.hasEmb) {
    const pts = sample(
      [
        [-100, 560],
        [400, 470],
        [900, 560],
      ],
      24,
    );
    S.add(
      band(pts, {
        h: 170,
        fill: shade(ctx.base, lum(ctx.base) > 0.6 ? -0.1 : 0.1),
        m: big,
        motifs: ['mf', 'mp', 'ml'],
        sc: 3.4,
        step: 84,
      }),
    );
    S.add(
      band(offsetPts(pts, -150), {
        h: 50,
        fill: 'none',
        m: big,
        motifs: ['ml', 'mf'],
        sc: 1.8,
        step: 64,
        noVine: true,
      }),
    );
    // scattered sequins
    let sq = '';
    for (let i = 0; i < 26; i++)
      sq += `<circle cx="${r(rng() * 800)}" cy="${r(rng() * 330 + 20)}" r="${r(3 + rng() * 3)}"/>`;
    if (ctx.metal) S.add(`<g fill="url(#bt)" fill-opacity=".9">${sq}</g>`);
  } else if (['mensk', 'kidsk', 'kidkurta', 'waistcoat'].includes(p.t)) {
    // placket with buttons
    const btn = shade(ctx.base, lum(ctx.base) > 0.5 ? -0.4 : 0.4);
    S.def(
      `<radialGradient id="bb" cx=".38" cy=".35" r=".7"><stop offset="0" stop-color="${shade(btn, 0.35)}"/><stop offset=".6" stop-color="${btn}"/><stop offset="1" stop-color="${shade(btn, -0.35)}"/></radialGradient>`,
    );
    S.add(
      `<g transform="rotate(-6 400 400)"><rect x="330" y="-60" width="140" height="920" fill="url(#f1)"/><rect x="330" y="-60" width="140" height="920" fill="url(#sh)"/>` +
        `<path d="M338-60V860M462-60V860" stroke="#1a0f08" stroke-opacity=".35" stroke-width="3"/><path d="M350-60V860M450-60V860" stroke="#1a0f08" stroke-opacity=".3" stroke-width="2" stroke-dasharray="9 6"/>` +
        [140, 420, 700]
          .map(
            (y) =>
              `<ellipse cx="404" cy="${y + 8}" rx="40" ry="36" fill="#1a0f08" fill-opacity=".25" filter="url(#bl)"/><circle cx="400" cy="${y}" r="36" fill="url(#bb)"/><circle cx="400" cy="${y}" r="27" fill="none" stroke="#1a0f08" stroke-opacity=".2" stroke-width="2"/>` +
              `<g fill="#1a0f08" fill-opacity=".45"><circle cx="390" cy="${y - 10}" r="4.5"/><circle cx="410" cy="${y - 10}" r="4.5"/><circle cx="390" cy="${y + 10}" r="4.5"/><circle cx="410" cy="${y + 10}" r="4.5"/></g>`,
          )
          .join('') +
        '</g>',
    );
  } else {
    // printed border
    const pts = sample(
      [
        [-100, 600],
        [400, 540],
        [900, 600],
      ],
      30,
    );
    S.add(
      band(pts, {
        h: 120,
        fill: ctx.acc,
        m: { c: ctx.base, hi: shade(ctx.base, 0.4), lo: ctx.base },
        motifs: ['mf', 'ml'],
        sc: 2.6,
        step: 70,
      }),
    );
  }
  S.add(`<rect width="800" height="800" fill="url(#vg)"/>`);
  return S.toString();
}

// ---------------------------------------------------------------- banner
export function renderBanner(rng) {
  const S = new Svg(1600, 544);
  S.def(
    `<linearGradient id="bg" x2="1" y2=".3"><stop offset="0" stop-color="#f7f1e8"/><stop offset=".55" stop-color="#f1e6da"/><stop offset="1" stop-color="#e8d8c8"/></linearGradient>`,
  );
  S.def(
    `<radialGradient id="gl" cx=".7" cy=".3" r=".6"><stop offset="0" stop-color="#fff" stop-opacity=".7"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
  );
  S.def(
    `<linearGradient id="fd" x2="46" gradientUnits="userSpaceOnUse" spreadMethod="reflect"><stop offset="0" stop-opacity=".38"/><stop offset=".4" stop-opacity=".04"/><stop offset=".7" stop-color="#fff" stop-opacity=".24"/><stop offset="1" stop-opacity=".16"/></linearGradient>`,
  );
  S.def(
    `<linearGradient id="sv" x2="0" y2="1"><stop offset="0" stop-opacity=".22"/><stop offset=".2" stop-opacity="0"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
  );
  S.def(
    `<filter id="bl" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="10"/></filter>`,
  );
  S.def(
    `<filter id="b2" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="4"/></filter>`,
  );
  S.add(`<rect width="1600" height="544" fill="url(#bg)"/><rect width="1600" height="544" fill="url(#gl)"/>`);
  const gold = METALS.gold;
  motifDefs(S, gold);
  const fabrics = [
    ['jaal', COLORS.Maroon, COLORS.Gold, '#e8c77a'],
    ['floral', COLORS.Mint, COLORS.Ivory, COLORS.Teal],
    ['block', COLORS.Mustard, COLORS.Ivory, COLORS.Rust],
    ['damask', COLORS.Emerald, COLORS.Emerald, COLORS.Gold],
    ['paisley', COLORS['Blush Pink'], COLORS.Maroon, '#d1868a'],
    ['chikan', COLORS.Ivory, COLORS.Ivory, COLORS.Ivory],
    ['jaal', COLORS.Navy, '#9fb2d6', COLORS.Silver],
    ['floral', COLORS.Peach, COLORS.Sage, COLORS.Fuchsia],
  ];
  fabrics.forEach((f, i) => {
    S.def(fabricDef(S, `z${i}`, f[0], f[1], f[2], f[3], 1.1));
  });
  // rail
  S.add(
    `<path d="M700 44H1590" stroke="#2a1f16" stroke-opacity=".18" stroke-width="10" filter="url(#b2)" transform="translate(0 8)"/><path d="M700 44H1590" stroke="#a7823a" stroke-width="9" stroke-linecap="round"/><path d="M700 42H1590" stroke="#efd58f" stroke-width="2.5" stroke-opacity=".8"/><circle cx="700" cy="44" r="11" fill="#a7823a"/><circle cx="697" cy="41" r="4" fill="#efd58f"/>`,
  );
  // hanging drapes
  let x = 760;
  const W = 122;
  fabrics.forEach((f, i) => {
    const len = Math.round(360 + ((i * 97) % 5) * 30 + rng() * 20);
    const w = Math.round(W + rng() * 20);
    const x0 = x,
      x1 = x + w;
    const wave = (a, b) => {
      let s = '';
      const n = 3;
      for (let k = 0; k < n; k++) {
        const xa = a + ((b - a) * (k + 1)) / n;
        s += `Q${r(a + ((b - a) * (k + 0.5)) / n)} ${r(len + 40 + (k % 2 ? -18 : 14))} ${r(xa)} ${r(len + 40 + (k === n - 1 ? 0 : 4))}`;
      }
      return s;
    };
    const d = `M${x0 + 10} 40C${x0 + 8} 120 ${x0 - 6} ${len - 100} ${x0 - 14} ${len + 40}${wave(x0 - 14, x1 + 14)}C${x1 + 6} ${len - 100} ${x1 - 8} 120 ${x1 - 10} 40Z`;
    S.add(
      `<path d="${d}" fill="#2a1f16" fill-opacity=".22" filter="url(#bl)" transform="translate(14 12)"/>`,
    );
    S.add(
      `<path d="${d}" fill="url(#z${i})"/><path d="${d}" fill="url(#fd)" transform="translate(${r(rng() * 40)} 0)"/><path d="${d}" fill="url(#sv)"/>`,
    );
    if (i % 2 === 0) {
      const cid = `bc${i}`;
      S.def(`<clipPath id="${cid}"><path d="${d}"/></clipPath>`);
      const yb = len + 10;
      S.add(
        band(line([x0 - 20, yb], [x1 + 20, yb], 6), {
          h: 34,
          fill: shade(f[1], -0.18),
          m: gold,
          clip: cid,
          motifs: ['mf', 'mp'],
          sc: 1.1,
        }),
      );
    }
    S.add(`<path d="M${x0 + 8} 44h${r(w - 16)}" stroke="#1a0f08" stroke-opacity=".25" stroke-width="6"/>`);
    x = Math.round(x + w * 0.78 + rng() * 6);
  });
  // folded stack lower left-centre
  const stack = [
    [COLORS.Teal, 'z3'],
    [COLORS.Fuchsia, 'z7'],
    [COLORS.Ivory, 'z5'],
    [COLORS.Mustard, 'z2'],
    [COLORS.Maroon, 'z0'],
  ];
  S.add(`<ellipse cx="560" cy="512" rx="190" ry="22" fill="#2a1f16" fill-opacity=".22" filter="url(#bl)"/>`);
  stack.forEach((s, i) => {
    const y = 492 - i * 34,
      xL = 410 + i * 4,
      w = 300 - i * 8;
    S.add(
      `<g transform="rotate(${r((rng() - 0.5) * 2.5)} 560 ${y})"><rect x="${xL}" y="${y - 30}" width="${w}" height="32" rx="7" fill="url(#${s[1]})"/><rect x="${xL}" y="${y - 30}" width="${w}" height="32" rx="7" fill="url(#sv)"/><path d="M${xL + 3} ${y - 24}q-6 13 0 24" fill="none" stroke="#1a0f08" stroke-opacity=".3" stroke-width="4"/>` +
        `<path d="M${xL + 8} ${y - 2}H${xL + w - 8}" stroke="#1a0f08" stroke-opacity=".25" stroke-width="3"/><path d="M${xL + 12} ${y - 27}H${xL + w - 12}" stroke="#fff" stroke-opacity=".35" stroke-width="2"/>` +
        (i % 2
          ? `<path d="M${xL + w - 70} ${y - 30}v32" stroke="${gold.c}" stroke-width="10"/><path d="M${xL + w - 70} ${y - 28}v28" stroke="${gold.hi}" stroke-width="2" stroke-dasharray="0 5" stroke-linecap="round"/>`
          : '') +
        '</g>',
    );
  });
  return S.toString();
}

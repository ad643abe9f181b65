/**
 * A small line chart as a standalone SVG document: probabilities (0..1) against whole-number x values,
 * one line per series, with axes, grid, tick labels, axis titles and a legend. No dependencies.
 */
export interface ChartSeries {
  readonly label: string;
  /** One probability per x value; null leaves a gap. */
  readonly values: readonly (number | null)[];
  /** Drawn thicker, and first in the legend's reading: the matchup that was asked about. */
  readonly emphasis?: boolean;
}

export interface LineChart {
  readonly title: string;
  readonly subtitle?: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xValues: readonly number[];
  readonly series: readonly ChartSeries[];
  readonly legendTitle?: string;
  /** One point to ring and label (the matchup asked about). */
  readonly highlight?: { readonly x: number; readonly y: number; readonly label: string };
}

/** Ten distinguishable colours (the Tableau 10 palette). */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function fixed(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

export function lineChartSvg(chart: LineChart): string {
  const width = 760;
  const height = 480;
  // The legend takes the room its longest label needs (about 7.5 px a character at 13 px).
  const longest = Math.max(chart.legendTitle?.length ?? 0, ...chart.series.map((s) => s.label.length + 5));
  const margin = { left: 78, right: Math.max(150, Math.ceil(48 + longest * 7.5)), top: chart.subtitle ? 74 : 56, bottom: 64 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const xs = chart.xValues;
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const xAt = (x: number) => margin.left + (xMax === xMin ? plotW / 2 : ((x - xMin) / (xMax - xMin)) * plotW);
  const yAt = (p: number) => margin.top + (1 - p) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="13">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<desc>${escapeXml([chart.subtitle ?? '', `${chart.yLabel} against ${chart.xLabel}`].filter((s) => s !== '').join('. '))}</desc>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="17" font-weight="600" fill="#222">${escapeXml(chart.title)}</text>`,
  );
  if (chart.subtitle) out.push(`<text x="${width / 2}" y="48" text-anchor="middle" fill="#555">${escapeXml(chart.subtitle)}</text>`);

  // Grid and y ticks every 10%.
  out.push('<g class="y-axis" stroke="#e3e3e3" stroke-width="1">');
  for (let i = 0; i <= 10; i++) out.push(`<line x1="${margin.left}" y1="${fixed(yAt(i / 10))}" x2="${margin.left + plotW}" y2="${fixed(yAt(i / 10))}"/>`);
  out.push('</g>', '<g class="y-ticks" fill="#444" text-anchor="end">');
  for (let i = 0; i <= 10; i++) out.push(`<text x="${margin.left - 8}" y="${fixed(yAt(i / 10) + 4)}">${i * 10}%</text>`);
  out.push('</g>', '<g class="x-ticks" fill="#444" text-anchor="middle">');
  for (const x of xs) {
    out.push(`<line x1="${fixed(xAt(x))}" y1="${margin.top + plotH}" x2="${fixed(xAt(x))}" y2="${margin.top + plotH + 5}" stroke="#444"/>`);
    out.push(`<text x="${fixed(xAt(x))}" y="${margin.top + plotH + 20}">${x}</text>`);
  }
  out.push('</g>');
  // Axes.
  out.push(
    `<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${margin.top + plotH}" stroke="#444"/>`,
    `<line x1="${margin.left}" y1="${margin.top + plotH}" x2="${margin.left + plotW}" y2="${margin.top + plotH}" stroke="#444"/>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 18}" text-anchor="middle" fill="#222">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(22 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#222">${escapeXml(chart.yLabel)}</text>`,
  );

  // One line per series, with a dot at each value.
  chart.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const stroke = s.emphasis ? 3.5 : 1.8;
    const segments: string[][] = [[]];
    s.values.forEach((v, j) => {
      const x = xs[j];
      if (v === null || v === undefined || x === undefined) {
        if (segments[segments.length - 1]!.length > 0) segments.push([]);
        return;
      }
      segments[segments.length - 1]!.push(`${fixed(xAt(x))},${fixed(yAt(v))}`);
    });
    out.push(`<g class="series" stroke="${color}" fill="${color}">`);
    for (const seg of segments) if (seg.length > 1) out.push(`<polyline points="${seg.join(' ')}" fill="none" stroke-width="${stroke}" stroke-linejoin="round"/>`);
    for (const seg of segments) for (const pt of seg) {
      const [cx, cy] = pt.split(',');
      out.push(`<circle cx="${cx}" cy="${cy}" r="${s.emphasis ? 4 : 2.8}"/>`);
    }
    out.push('</g>');
  });

  if (chart.highlight) {
    const { x, y, label } = chart.highlight;
    const cx = fixed(xAt(x));
    const cy = fixed(yAt(y));
    const above = y < 0.85;
    out.push(
      `<circle cx="${cx}" cy="${cy}" r="9" fill="none" stroke="#222" stroke-width="2"/>`,
      `<text x="${cx}" y="${fixed(yAt(y) + (above ? -16 : 26))}" text-anchor="middle" font-weight="600" fill="#222">${escapeXml(label)}</text>`,
    );
  }

  // Legend.
  const lx = margin.left + plotW + 24;
  let ly = margin.top + 4;
  out.push('<g class="legend" fill="#222">');
  if (chart.legendTitle) {
    out.push(`<text x="${lx}" y="${ly + 4}" font-weight="600">${escapeXml(chart.legendTitle)}</text>`);
    ly += 22;
  }
  chart.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    out.push(
      `<line x1="${lx}" y1="${ly}" x2="${lx + 26}" y2="${ly}" stroke="${color}" stroke-width="${s.emphasis ? 3.5 : 1.8}"/>`,
      `<circle cx="${lx + 13}" cy="${ly}" r="${s.emphasis ? 4 : 2.8}" fill="${color}"/>`,
      `<text x="${lx + 34}" y="${ly + 4}"${s.emphasis ? ' font-weight="600"' : ''}>${escapeXml(s.label)}</text>`,
    );
    ly += 20;
  });
  out.push('</g>', '</svg>');
  return out.join('\n') + '\n';
}

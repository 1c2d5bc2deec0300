/** The SVG step chart of the rollout. */
import { escapeXml, niceMax, stepChart } from '../../../bench/support/svg.js';

describe('niceMax', () => {
  test('1, 2 or 5 × 10^k at or above the value', () => {
    expect([0, 1, 1.5, 3, 7, 10, 11, 200, 201, 999].map(niceMax)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 200, 500, 1000,
    ]);
  });
});

describe('stepChart', () => {
  const svg = stepChart(
    [
      {
        title: 'A & B',
        series: [
          {
            name: 'old <v1>',
            color: '#d62728',
            points: [
              [0, 200],
              [1.5, 160],
              [4, 0],
            ],
          },
        ],
      },
      {
        title: 'C',
        series: [
          {
            name: 'new',
            color: '#1f77b4',
            points: [
              [0, 0],
              [2, 200],
            ],
          },
        ],
      },
    ],
    { title: 'Rollout', xLabel: 's', yLabel: 'pods' },
  );

  test('a complete document sized for two panels and one legend row', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="262"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  test('step paths on shared axes (t 0–5 s, 0–200 pods)', () => {
    // panel 1: x from 48 to 308 px for 0..5 s, y from 208 to 40 px for 0..200 pods (160 pods: 208 − 168 × 0.8)
    expect(svg).toContain(
      '<path d="M48,40H126V73.6H256V208" fill="none" stroke="#d62728" stroke-width="1.5"/>',
    );
    expect(svg).toContain('<path d="M368,208H472V40" fill="none" stroke="#1f77b4" stroke-width="1.5"/>');
  });

  test('titles and legend names are escaped', () => {
    expect(svg).toContain('>A &amp; B</text>');
    expect(svg).toContain('>old &lt;v1&gt;</text>');
    expect(escapeXml('"x"')).toBe('&quot;x&quot;');
  });
});

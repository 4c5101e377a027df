import type { Chart as ChartJs } from "chart.js";
import { useEffect, useRef } from "react";

let chartJs: Promise<typeof ChartJs> | undefined;

/**
 * Chart.js is loaded on first use (its own chunk, ~60 kB gzipped), so pages without charts and the first
 * render do not wait for it. Only the parts the console draws are registered (the rest is tree-shaken).
 */
function loadChartJs(): Promise<typeof ChartJs> {
  chartJs ??= import("chart.js").then((module) => {
    module.Chart.register(
      module.BarController,
      module.BarElement,
      module.LineController,
      module.LineElement,
      module.PointElement,
      module.CategoryScale,
      module.LinearScale,
      module.Tooltip,
      module.Legend,
    );
    return module.Chart;
  });
  return chartJs;
}

/** One series: a label, one value per category of the chart, and how its values are written. */
export interface ChartSeries {
  label: string;
  values: number[];
  format: (value: number) => string;
}

export interface ChartProps {
  /** Visible title above the chart, and the table alternative's caption. */
  title: string;
  /** What the chart shows, read by screen readers (`role="img"` + `aria-label`). */
  description: string;
  type: "bar" | "line";
  /** The categories: days, models, providers. */
  labels: string[];
  /** What is drawn (one value axis: the first series' format writes its ticks). */
  series: ChartSeries[];
  /** What the "Show data" table holds; default: the drawn series. May add figures the chart leaves out. */
  tableSeries?: ChartSeries[];
  /** Horizontal bars (long names such as model ids read better that way). */
  horizontal?: boolean;
  /** Header of the table alternative's first column. */
  categoryHeader: string;
}

// WCAG AA against white: these blues/oranges/greens have ≥ 3:1 contrast as graphical objects.
const PALETTE = ["#1d5fbf", "#b35900", "#1b7f3b", "#8a3ab9", "#b3261e", "#00707a"];

/**
 * A Chart.js canvas with an accessible alternative: the canvas is `role="img"` with a description, and a
 * `<details>` "Show data" holds the same figures as a table, for screen readers, keyboard users and tests.
 */
export function Chart(props: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { type, labels, series, horizontal } = props;
  const tableSeries = props.tableSeries ?? series;

  useEffect(() => {
    let chart: ChartJs | undefined;
    let unmounted = false;
    void loadChartJs().then((Chart) => {
      if (unmounted || !canvas.current) return;
      chart = draw(Chart, canvas.current);
    });
    return () => {
      unmounted = true;
      chart?.destroy();
    };

    function draw(Chart: typeof ChartJs, target: HTMLCanvasElement): ChartJs {
      return new Chart(target, {
        type,
        data: {
          labels,
          datasets: series.map((entry, index) => ({
            label: entry.label,
            data: entry.values,
            backgroundColor: PALETTE[index % PALETTE.length],
            borderColor: PALETTE[index % PALETTE.length],
            borderWidth: type === "line" ? 2 : 0,
          })),
        },
        options: {
          indexAxis: horizontal ? "y" : "x",
          responsive: true,
          maintainAspectRatio: false,
          // No animation: the figures are the point, a resize (or a screenshot) never shows a half-drawn
          // bar, and users who prefer reduced motion get none.
          animation: false,
          plugins: {
            legend: { display: series.length > 1 },
            tooltip: {
              callbacks: {
                label: (item) => {
                  const entry = series[item.datasetIndex];
                  const value = item.parsed[horizontal ? "x" : "y"] ?? 0;
                  return `${entry?.label ?? ""}: ${entry ? entry.format(value) : value}`;
                },
              },
            },
          },
          scales: {
            [horizontal ? "x" : "y"]: {
              beginAtZero: true,
              ticks: { callback: (value) => series[0]?.format(Number(value)) ?? String(value) },
            },
          },
        },
      });
    }
  }, [type, labels, series, horizontal]);

  const height = horizontal ? Math.max(160, labels.length * 28 + 60) : 260;
  return (
    <figure className="chart">
      <figcaption className="chart-title">{props.title}</figcaption>
      <div className="chart-canvas" style={{ height }}>
        <canvas ref={canvas} role="img" aria-label={props.description} />
      </div>
      <details className="chart-data">
        <summary>Show data</summary>
        <div className="table-scroll">
          <table>
            <caption>{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.categoryHeader}</th>
                {tableSeries.map((entry) => (
                  <th key={entry.label} scope="col" className="numeric">
                    {entry.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, row) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {tableSeries.map((entry) => (
                    <td key={entry.label} className="numeric">
                      {entry.format(entry.values[row] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

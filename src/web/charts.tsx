import * as parts from "chart.js";
import { Chart, type ChartConfiguration } from "chart.js";
import { useEffect, useRef } from "preact/hooks";

/**
 * Chart.js with only the parts the views draw (line, bar, doughnut). A chart is a canvas with an
 * accessible name and, beside it, the same figures as text (the views' tables), so nothing is
 * known only from a picture.
 */
Chart.register(
  parts.ArcElement,
  parts.BarController,
  parts.BarElement,
  parts.CategoryScale,
  parts.DoughnutController,
  parts.Filler,
  parts.Legend,
  parts.LinearScale,
  parts.LineController,
  parts.LineElement,
  parts.PointElement,
  parts.Tooltip,
);
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily || "system-ui, sans-serif";
Chart.defaults.color = "#1f2933";

/**
 * Colour-blind-safe (Okabe–Ito). The first three have 3:1 contrast on white or better (WCAG's
 * non-text contrast): the line, bar and band charts use only them. The others serve the donut's
 * further slices, whose table beside the chart carries every figure in text.
 */
export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7A5C00", "#000000"];

export function ChartCanvas(props: {
  config: ChartConfiguration<"line"> | ChartConfiguration<"bar"> | ChartConfiguration<"doughnut">;
  label: string;
  height?: number;
  id?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // The views build their config afresh on every render; the chart is rebuilt only when the
  // figures it draws change (a re-render for anything else left it torn down and drawn again).
  const latest = useRef(props.config);
  latest.current = props.config;
  const figures = JSON.stringify(props.config.data);
  useEffect(() => {
    if (!canvas.current) return;
    const config = latest.current as ChartConfiguration;
    const chart = new Chart(canvas.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
    });
    return () => chart.destroy();
  }, [figures]);
  return (
    <div class="chart" style={{ height: `${props.height ?? 280}px` }}>
      <canvas ref={canvas} id={props.id} role="img" aria-label={props.label} />
    </div>
  );
}

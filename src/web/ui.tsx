import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, retryable } from "./api";

/** What a view is doing: loading, failed with a message (and the way to ask again), or showing its data. */
export type Load<T> =
  { state: "loading" } | { state: "error"; error: ApiError | Error; retry?: () => void } | { state: "ok"; data: T };

/**
 * Runs `fetcher` when `deps` change; the answer of a superseded run is dropped. While `subject`
 * (say, the portfolio's id) stays the same, the view keeps showing what it has until the new
 * answer comes: its controls stay where they are, and the one in use keeps the focus.
 */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[], subject?: unknown): [Load<T>, () => void] {
  // The subject the data shown was asked for travels with it.
  const [load, setLoad] = useState<Load<T> & { subject?: unknown }>({ state: "loading" });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    if (subject === undefined || load.state !== "ok" || load.subject !== subject) setLoad({ state: "loading" });
    fetcher().then(
      (data) => live && setLoad({ state: "ok", data, subject }),
      (error: Error) =>
        live && setLoad({ state: "error", error, retry: retryable(error) ? () => setTick((t) => t + 1) : undefined }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return [load, reload];
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A failure's message and details; with `retry`, a button that asks again (a dropped connection, a 503). */
export function ErrorNote({ error, retry }: { error: Error; retry?: () => void }) {
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {details.length > 0 && (
        <ul>
          {details.slice(0, 20).map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      {retry && (
        <button type="button" class="secondary" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A view's data, or its loading and error states. */
export function Loaded<T>({
  load,
  what,
  children,
}: {
  load: Load<T>;
  what: string;
  children: (data: T) => ComponentChildren;
}) {
  if (load.state === "loading") return <Loading what={what} />;
  if (load.state === "error") return <ErrorNote error={load.error} retry={load.retry} />;
  return <>{children(load.data)}</>;
}

export function Figure({
  label,
  value,
  id,
  tone,
}: {
  label: string;
  value: string;
  id?: string;
  tone?: "neg" | "pos";
}) {
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd id={id} class={tone}>
        {value}
      </dd>
    </div>
  );
}

/** The API's warnings on what a view shows, as a list; nothing when there are none. */
export function Warnings({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul class="warnings">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-heading`;
  return (
    <section class="card" aria-labelledby={headingId} id={id}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

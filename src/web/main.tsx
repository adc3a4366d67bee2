import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { getKey, onKeyChange, signIn, signOut, signOutNotice } from "./api";
import { DataView } from "./views/data";
import { IncomeView } from "./views/income";
import { OverviewView } from "./views/overview";
import { PortfoliosView } from "./views/portfolios";
import { RebalanceView } from "./views/rebalance";
import { TaxView } from "./views/tax";
import "./styles.css";

/**
 * The web app (WEB.md): sign-in, then the views, addressed by the URL's fragment
 * (#/portfolios, #/portfolio/<id>/overview ...) so the browser's back button and links work. The
 * fragment never holds the key.
 */

type Route =
  | { view: "portfolios" }
  | { view: "data" }
  | { view: "overview" | "income" | "tax" | "rebalance"; portfolioId: string };

const PORTFOLIO_VIEWS = [
  { view: "overview", label: "Overview" },
  { view: "income", label: "Income" },
  { view: "tax", label: "Tax" },
  { view: "rebalance", label: "Rebalance" },
] as const;

function parseRoute(hash: string): Route {
  // A portfolio's id is digits: any other address (mistyped, or malformed percent-escapes) is the list.
  const m = /^#\/portfolio\/(\d+)\/(overview|income|tax|rebalance)$/.exec(hash);
  if (m) return { view: m[2] as "overview", portfolioId: m[1] };
  if (hash === "#/data") return { view: "data" };
  return { view: "portfolios" };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

function SignIn({ notice }: { notice: string | null }) {
  const [key, setKey] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <main id="main" class="signin">
      <h1>Portfolio service</h1>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) signIn(key);
        }}
      >
        <h2>Sign in</h2>
        {notice && (
          <p class="error" role="alert">
            {notice}
          </p>
        )}
        <label for="api-key">API key</label>
        <input
          ref={input}
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" class="help">
          Paste the key once: it is kept in this tab only (sessionStorage) and forgotten when you sign out or close the
          tab.
        </p>
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

function Shell({ route }: { route: Route }) {
  const main = useRef<HTMLElement>(null);
  // A new view moves focus to its content, as a page load would (screen readers announce it).
  useEffect(() => main.current?.focus(), [route.view, "portfolioId" in route ? route.portfolioId : ""]);
  const current = (view: string) => (route.view === view ? "page" : undefined);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Portfolio service</span>
        <nav aria-label="Main">
          <a href="#/portfolios" aria-current={route.view === "portfolios" ? "page" : undefined}>
            Portfolios
          </a>
          <a href="#/data" aria-current={current("data")}>
            Data
          </a>
        </nav>
        <button type="button" class="secondary" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {"portfolioId" in route && (
        <nav class="tabs" aria-label="Portfolio views">
          {PORTFOLIO_VIEWS.map((v) => (
            <a
              key={v.view}
              href={`#/portfolio/${encodeURIComponent(route.portfolioId)}/${v.view}`}
              aria-current={current(v.view)}
            >
              {v.label}
            </a>
          ))}
        </nav>
      )}
      <main id="main" ref={main} tabIndex={-1}>
        {route.view === "portfolios" && <PortfoliosView />}
        {route.view === "data" && <DataView />}
        {route.view === "overview" && <OverviewView portfolioId={route.portfolioId} />}
        {route.view === "income" && <IncomeView portfolioId={route.portfolioId} />}
        {route.view === "tax" && <TaxView portfolioId={route.portfolioId} />}
        {route.view === "rebalance" && <RebalanceView portfolioId={route.portfolioId} />}
      </main>
    </>
  );
}

function App() {
  const [key, setKeyState] = useState(getKey());
  const route = useRoute();
  useEffect(() => onKeyChange(() => setKeyState(getKey())), []);
  return key ? <Shell route={route} /> : <SignIn notice={signOutNotice()} />;
}

render(<App />, document.getElementById("app")!);

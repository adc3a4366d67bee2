import { Portfolios } from "../../../generated/graphql/web-operations";
import { gql } from "../api";
import { date, money, percent, signTone } from "../format";
import { Loaded, useLoad } from "../ui";

/** Each portfolio with its value, total return and client (WEB.md: Portfolios). */
export function PortfoliosView() {
  const [load] = useLoad(() => gql(Portfolios, {}), []);
  return (
    <>
      <h1>Portfolios</h1>
      <Loaded load={load} what="portfolios">
        {({ portfolios, clients }) => {
          const clientOf = new Map(
            clients.flatMap((c) => c.portfolios.map((p) => [p.id, `${c.firstName} ${c.lastName}`] as const)),
          );
          if (portfolios.length === 0)
            return <p>No portfolios yet. Create one through the API, or run npm run demo.</p>;
          return (
            <ul class="portfolio-list">
              {portfolios.map((p) => (
                <li key={p.id} class="card portfolio" data-portfolio-id={p.id}>
                  <h2>
                    <a href={`#/portfolio/${encodeURIComponent(p.id)}/overview`}>{p.name}</a>
                  </h2>
                  <dl class="figures">
                    <div class="figure">
                      <dt>Value</dt>
                      <dd class="portfolio-value">{money(p.performance.totalValue, p.baseCurrencyCode)}</dd>
                    </div>
                    {/* The whole period's amount beside the whole period's percentage (not a year's). */}
                    <div class="figure">
                      <dt>Total return since {date(p.performance.from)}</dt>
                      <dd class={`portfolio-return ${signTone(p.performance.totalReturn.totalReturnValue)}`}>
                        {money(p.performance.totalReturn.totalReturnValue, p.baseCurrencyCode)} (
                        {percent(p.performance.modifiedDietz.cumulativePercent)})
                      </dd>
                    </div>
                    <div class="figure">
                      <dt>Entity</dt>
                      <dd>{p.entityType}</dd>
                    </div>
                    <div class="figure">
                      <dt>Client</dt>
                      <dd>{clientOf.get(p.id) ?? "—"}</dd>
                    </div>
                  </dl>
                  <p class="links">
                    <a href={`#/portfolio/${encodeURIComponent(p.id)}/income`}>Income</a>
                    <a href={`#/portfolio/${encodeURIComponent(p.id)}/tax`}>Tax</a>
                    <a href={`#/portfolio/${encodeURIComponent(p.id)}/rebalance`}>Rebalance</a>
                  </p>
                </li>
              ))}
            </ul>
          );
        }}
      </Loaded>
    </>
  );
}

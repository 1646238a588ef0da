import type { AssociateResult, RecallResult } from "@engram/client";
import { type FormEvent, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";
import { Empty, LongText, when } from "../ui";

type Mode = "recall" | "associate";

function Trace({ trace }: { trace: ReadonlyArray<{ step: string; ms: number; detail: unknown }> }) {
  return (
    <details className="trace">
      <summary>Trace ({trace.length} steps)</summary>
      <table>
        <tbody>
          {trace.map((step, i) => (
            <tr key={i}>
              <th scope="row">{step.step}</th>
              <td>{step.ms.toFixed(1)} ms</td>
              <td>{typeof step.detail === "string" ? step.detail : JSON.stringify(step.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Recall (with its minimum relevance, its reason when nothing comes back, and its trace) or associate (paths). */
export function SearchView({ user }: { user: string }) {
  const { client } = useApi();
  const run = useRun();
  const [mode, setMode] = useState<Mode>("recall");
  const [query, setQuery] = useState("");
  const [minRelevance, setMinRelevance] = useState("");
  const [recall, setRecall] = useState<RecallResult | null>(null);
  const [associate, setAssociate] = useState<AssociateResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [searches, setSearches] = useState(0);

  async function search(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const scope = { user: user || null };
    if (mode === "recall") {
      const bar = minRelevance === "" ? null : Number(minRelevance);
      setRecall((await run(() => client.recall(query, { ...scope, minRelevance: bar }))) ?? null);
      setAssociate(null);
    } else {
      setAssociate((await run(() => client.associate(query, scope))) ?? null);
      setRecall(null);
    }
    setBusy(false);
    setSearches((n) => n + 1);
  }

  return (
    <section aria-labelledby="search-title" data-searches={searches}>
      <h1 id="search-title">Search {user || "the shared memory"}</h1>
      <form className="search" onSubmit={(event) => void search(event)}>
        <fieldset>
          <legend>How</legend>
          <label>
            <input type="radio" name="mode" checked={mode === "recall"} onChange={() => setMode("recall")} /> recall (a
            question)
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === "associate"} onChange={() => setMode("associate")} />{" "}
            associate (a remark)
          </label>
        </fieldset>
        <label htmlFor="query">{mode === "recall" ? "Question" : "What the user just said"}</label>
        <input id="query" value={query} onChange={(e) => setQuery(e.target.value)} />
        {mode === "recall" && (
          <>
            <label htmlFor="min-relevance">Minimum relevance (0–1, blank: the server's)</label>
            <input
              id="min-relevance"
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={minRelevance}
              onChange={(e) => setMinRelevance(e.target.value)}
            />
          </>
        )}
        <button type="submit" disabled={busy || !query.trim()}>
          {busy ? "Searching…" : "Search"}
        </button>
      </form>

      {recall && recall.__typename !== "Recall" && (
        <p className="error" role="alert">
          {recall.message}
        </p>
      )}
      {recall?.__typename === "Recall" && (
        <div className="results" data-results={recall.items.length}>
          {recall.items.length === 0 ? (
            <Empty>Nothing came back. {recall.reason ?? ""}</Empty>
          ) : (
            <ol>
              {recall.items.map((item) => (
                <li key={item.id} className="result" data-kind={item.kind}>
                  <a href={hrefOf({ view: "memory", user, id: item.id })}>
                    <LongText text={item.text} />
                  </a>
                  <div className="meta">
                    {item.kind} · score {item.score.toFixed(3)}
                    {item.relevance !== null && ` · relevance ${item.relevance.toFixed(2)}`} · found by{" "}
                    {item.foundBy.join(", ")}
                    {item.supersededBy && " · superseded"}
                  </div>
                  {item.provenance[0] && (
                    <div className="proof">
                      proven by {item.provenance[0].speaker} at {when(item.provenance[0].occurredAt)}: “
                      <LongText text={item.provenance[0].text} />”
                    </div>
                  )}
                </li>
              ))}
            </ol>
          )}
          <Trace trace={recall.trace} />
        </div>
      )}

      {associate && associate.__typename !== "Associations" && (
        <p className="error" role="alert">
          {associate.message}
        </p>
      )}
      {associate?.__typename === "Associations" && (
        <div className="results" data-results={associate.associations.length}>
          {associate.associations.length === 0 ? (
            <Empty>Nothing comes to mind. {associate.reason ?? ""}</Empty>
          ) : (
            <ol>
              {associate.associations.map(({ item, why }) => (
                <li key={item.id} className="result">
                  <a href={hrefOf({ view: "memory", user, id: item.id })}>
                    <LongText text={item.text} />
                  </a>
                  <ul className="paths">
                    {why.map((path, i) => (
                      <li key={i}>
                        <strong>{path.kind}</strong> {path.detail}{" "}
                        {path.concepts.length > 0 && `(${path.concepts.join(", ")})`}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          )}
          <Trace trace={associate.trace} />
        </div>
      )}
    </section>
  );
}
